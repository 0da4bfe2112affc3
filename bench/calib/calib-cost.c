// SPDX-License-Identifier: MIT
/*
 * calib-cost.c - the cost of the counting engine (calib-cost.h). Event
 * cost: this thread makes getpid calls, timed with CLOCK_MONOTONIC, in
 * rounds of @calls, with no counter and with counters on
 * raw_syscalls:sys_enter for 1 and 40 values of `id` (getpid's, the
 * others never match: every counter's filter is still evaluated on each
 * event), then the trace-stream method (its reads timed apart: the ns
 * each event costs the reader) and the bpf method for 1, 40 and 200
 * values (and 40 the vmexit probe's way: by process, a condition, the
 * rest). Each way of counting takes @pairs counter-off / counter-on pairs
 * of rounds, interleaved with their order alternating (tpcount-abab.c); the
 * cost per event is the median of the pairs' differences with its 95 %
 * order-statistic interval, "below the noise" when that contains 0.
 * Window cost: counters for K values on T sleeping threads, the median of
 * 21 enable / read / disable rounds.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "tpcount-abab.h"
#include "calib-cost.h"
#include "clock.h"
#include "tpcount-cost.h"
#include "tpcount.h"

#define REPS 7
#define WREPS 21
#define MAX_VALUES 200
#define MAX_THREADS 16
#define STREAM_DIV CALIB_COST_MIN_CALLS /* stream variants: calls / 8 per repetition */

static double now_ns(void)
{
	return (double)clock_now_ns();
}

static double median(double *v, int n)
{
	return tpcount_cost_median(v, n);
}

/* ns per getpid call, median of REPS. */
static double call_ns(long calls)
{
	return tpcount_cost_calls(calls, REPS, NULL, NULL, NULL, NULL);
}

/* @k values of `id`: getpid's first, then numbers no call has. */
static void values(unsigned long long *v, size_t k)
{
	size_t i;

	v[0] = SYS_getpid;
	for (i = 1; i < k; i++)
		v[i] = 1000 + i;  /* no system call has these; below 65536 as exit codes */
}

static int open_on(struct tpcount **tc, size_t k, const pid_t *tids, size_t n,
		   unsigned int flags, char *why, size_t whylen)
{
	static unsigned long long v[MAX_VALUES];
	struct tpcount_spec spec = { "raw_syscalls", "sys_enter", "id", NULL, v, k, NULL };

	values(v, k);
	return tpcount_open(tc, &spec, tids, n, flags, why, whylen);
}

/*
 * "id == A || id == B ..." of @n ids from @first, last first: getpid's
 * (index 0) is the last predicate, so a counted event walks all of them.
 */
static void or_filter(char *buf, size_t len, size_t first, size_t n)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = first + n; i-- > first && used < len;)
		used += (size_t)snprintf(buf + used, len - used, "%sid == %llu",
					 i < first + n - 1 ? " || " : "",
					 i ? 1000ULL + i : (unsigned long long)SYS_getpid);
}

/* The ways of counting whose per-event cost is printed. */
static const struct {
	const char *what;
	size_t counters, ored;    /* ored: ids per counter's filter (0: one value) */
	unsigned int flags;       /* tpcount_open() flags: the method */
	const char *extra;        /* the spec's extra condition, or NULL */
} variants[] = {
	{ "1 counter, no filter", 1, (size_t)-1, TPCOUNT_PERF_M, NULL },
	{ "1 counter, id == getpid", 1, 0, TPCOUNT_PERF_M, NULL },
	{ "40 counters, one id each", 40, 0, TPCOUNT_PERF_M, NULL },
	{ "8 counters, 5 ids or'ed each", 8, 5, TPCOUNT_PERF_M, NULL },
	{ "1 counter, 40 ids or'ed", 1, 40, TPCOUNT_PERF_M, NULL },
	{ "2 counters, 40 + 160 ids or'ed", 2, 160, TPCOUNT_PERF_M, NULL },
	{ "stream, 1 id", 1, 0, TPCOUNT_STREAM, NULL },
	{ "stream, 40 ids", 40, 0, TPCOUNT_STREAM, NULL },
	{ "bpf, 1 id", 1, 0, TPCOUNT_BPF_M, NULL },
	{ "bpf, 40 ids", 40, 0, TPCOUNT_BPF_M, NULL },
	{ "bpf, 200 ids", 200, 0, TPCOUNT_BPF_M, NULL },
	/* the vmexit probe's way: by process, its isa condition, the rest counted */
	{ "bpf, 40 ids as the vmexit probe", 41, 0,
	  TPCOUNT_TGID | TPCOUNT_REST, "id != 0" },
};

#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

static int variant_cost(long calls, int pairs, size_t v, struct tpcount_abab *r, char *why,
			size_t whylen)
{
	static unsigned long long vals[MAX_VALUES];
	static char bufs[8][4096];
	const char *filters[8];
	struct tpcount_spec spec = { "raw_syscalls", "sys_enter", "id", variants[v].extra, vals,
				     variants[v].counters, NULL };
	size_t i;

	values(vals, variants[v].counters);
	if (variants[v].ored) {
		for (i = 0; i < variants[v].counters; i++) {
			if (variants[v].ored == (size_t)-1)
				bufs[i][0] = '\0';
			else
				or_filter(bufs[i], sizeof(bufs[i]), i * variants[v].ored,
					  i || variants[v].counters != 2 ? variants[v].ored : 40);
			filters[i] = bufs[i];
		}
		spec.filters = filters;
	}
	return tpcount_abab_run(&spec, variants[v].flags, calls, pairs, r, why, whylen);
}

struct sleeper {
	volatile pid_t tid;
	int fd;                   /* read end of a pipe: EOF ends the thread */
	pthread_t th;
};

static void *sleeper_main(void *arg)
{
	struct sleeper *s = arg;
	char c;

	s->tid = (pid_t)syscall(SYS_gettid);
	while (read(s->fd, &c, 1) > 0)
		;
	return NULL;
}

/* @n threads blocked in read(); their tids into @tids. */
static int sleepers_start(struct sleeper *s, int n, int fd, pid_t *tids)
{
	int i;

	for (i = 0; i < n; i++) {
		s[i].tid = 0;
		s[i].fd = fd;
		if (pthread_create(&s[i].th, NULL, sleeper_main, &s[i]))
			return i;
	}
	for (i = 0; i < n; i++) {
		while (!s[i].tid)
			usleep(100);
		tids[i] = s[i].tid;
	}
	return n;
}

/* Median ns of enable, read and disable of @k values x @n threads. */
static int window_cost(size_t k, const pid_t *tids, size_t n, unsigned int flags,
		       double out[3], char *why, size_t whylen)
{
	double r[3][WREPS], t0, t1, t2, t3;
	struct tpcount *tc;
	struct tpcount_snap a;
	int i, ret = open_on(&tc, k, tids, n, flags, why, whylen);

	if (ret)
		return ret;
	ret = tpcount_snap_init(tc, &a);
	for (i = 0; !ret && i < WREPS; i++) {
		t0 = now_ns();
		ret = tpcount_enable(tc);
		t1 = now_ns();
		ret = ret ?: tpcount_read(tc, &a);
		t2 = now_ns();
		ret = ret ?: tpcount_disable(tc);
		t3 = now_ns();
		r[0][i] = t1 - t0;
		r[1][i] = t2 - t1;
		r[2][i] = t3 - t2;
	}
	for (i = 0; !ret && i < 3; i++)
		out[i] = median(r[i], WREPS);
	tpcount_snap_free(&a);
	tpcount_close(tc);
	return ret;
}

/* The window costs of one method (@flags) for K values x T threads. */
static int print_method_windows(FILE *out, const pid_t *tids, unsigned int flags, char *why,
				size_t whylen)
{
	static const size_t ks[] = { 1, 40, 200 };
	static const int ts[] = { 1, 4, 16 };
	const char *m = flags & TPCOUNT_BPF_M ? "bpf" : "perf-filter";
	double c[3];
	size_t i, j;
	int ret = 0;

	for (i = 0; !ret && i < 3; i++)
		for (j = 0; !ret && j < 3; j++) {
			ret = window_cost(ks[i], tids, (size_t)ts[j], flags, c, why, whylen);
			if (!ret)
				fprintf(out, "%-12s %8zu %8d %9zu %12.0f %12.0f %12.0f\n", m, ks[i],
					ts[j], ks[i] * (size_t)ts[j], c[0], c[1], c[2]);
		}
	if (ret && (flags & TPCOUNT_BPF_M)) {     /* a kernel without bpf: said above */
		fprintf(out, "%-12s not measured: %s\n", m, why);
		ret = 0;
	}
	return ret;
}

static int print_windows(FILE *out, char *why, size_t whylen)
{
	struct sleeper s[MAX_THREADS];
	pid_t tids[MAX_THREADS];
	int fds[2], n, ret = 0;

	if (pipe(fds))
		return -errno;
	n = sleepers_start(s, MAX_THREADS, fds[0], tids);
	fprintf(out, "%-12s %8s %8s %9s %12s %12s %12s\n", "counted by", "values", "threads",
		"counters", "enable_ns", "read ns", "disable_ns");
	if (n == MAX_THREADS)
		ret = print_method_windows(out, tids, TPCOUNT_PERF_M, why, whylen) ?:
		      print_method_windows(out, tids, TPCOUNT_BPF_M, why, whylen);
	close(fds[1]);
	while (n-- > 0)
		pthread_join(s[n].th, NULL);
	close(fds[0]);
	return ret;
}

/* The cost per event with its interval, or that it cannot be told from 0. */
static void print_event_cost(FILE *out, const struct tpcount_abab *r)
{
	const struct stats_paired *c = &r->cost;

	if (c->resolved)
		fprintf(out, "%+7.1f ns per counted event", c->median);
	else
		fprintf(out, "below the noise: cannot be told from 0 here (median %+.1f ns)",
			c->median);
	fprintf(out, " [%.1f %% CI %+.1f .. %+.1f ns, %zu pairs], %.1f ns reading it\n",
		100 * c->coverage, c->lo, c->hi, c->n, r->rd_ns);
}

/* One variant's line; a stream variant needs the journal (@no_stream: why not). */
static int print_variant(FILE *out, const struct calib_cost_opts *o, size_t v, char *why,
			 size_t whylen)
{
	int stream = !!(variants[v].flags & TPCOUNT_STREAM);
	struct tpcount_abab r;
	int ret;

	if (stream && o->no_stream) {
		fprintf(out, "getpid, %-31s not measured: %s\n", variants[v].what, o->no_stream);
		return 0;
	}
	/* a stream variant reads each round: its buffer must hold it */
	ret = variant_cost(stream ? o->calls / STREAM_DIV : o->calls, o->pairs, v, &r, why,
			   whylen);
	if (ret && ret != -EIO && (variants[v].flags & (TPCOUNT_BPF_M | TPCOUNT_TGID))) {
		fprintf(out, "getpid, %-31s not measured: %s\n", variants[v].what, why);
		return 0;         /* a kernel without bpf (or refusing it) */
	}
	if (ret)
		return ret;
	fprintf(out, "getpid, %-31s %8.1f ns/call  ", variants[v].what, r.on_ns);
	print_event_cost(out, &r);
	return 0;
}

int calib_cost(const struct calib_cost_opts *o, FILE *out, char *why, size_t whylen)
{
	double off;
	size_t i;
	int ret;

	if (geteuid()) {
		snprintf(why, whylen, "needs root (perf tracepoint counters)");
		return -EPERM;
	}
	off = call_ns(o->calls);
	fprintf(out, "getpid, %-31s %8.1f ns/call\n", "no counter", off);
	for (i = 0; i < NVARIANTS; i++)
		if ((ret = print_variant(out, o, i, why, whylen)))
			return ret;
	off = call_ns(o->calls);
	fprintf(out, "getpid, %-31s %8.1f ns/call\n", "no counter (again)", off);
	return print_windows(out, why, whylen);
}
