// SPDX-License-Identifier: MIT
/*
 * calib-counters.c - requested against counted (calib-counters.h). Two
 * worker threads and the main thread meet at barriers; between them, in
 * each window, worker t makes want(w, t, call) calls of getpid and getppid
 * and the main thread makes MAIN_CALLS getpid calls, which no count may
 * include. Two events are checked where the kernel has them:
 * raw_syscalls:sys_enter by `id` and syscalls:sys_enter_getpid by
 * `__syscall_nr` with perf counters, both again with the bpf method (one
 * eBPF program counting by value), then raw_syscalls:sys_enter again with
 * the trace-stream method. The barriers' own futex calls have other numbers.
 * CVMBENCH_CALIB_FAULT=tid counts the main thread in place of worker 1:
 * the tests' proof that a wrong scope is caught.
 */
#include <errno.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "calib-counters.h"
#include "tpcount.h"

#define NWORKERS 2
#define MAIN_CALLS 1000
/*
 * The trace-stream runs' calls of thread 1 in window 0 at most: its last
 * window then writes 12 x STREAM_MAX records of about 80 bytes, within the
 * instance's buffers (tpcount-stream.c); more is reported as lost events.
 */
#define STREAM_MAX 2000

static const unsigned long long call_nr[] = { SYS_getpid, SYS_getppid };
static const char *const call_name[] = { "getpid", "getppid" };
/* The filters of the or'ed check: counter 0 either call, counter 1 getppid. */
static char or_buf[2][64];
static const char *const or_filters[] = { or_buf[0], or_buf[1] };
static const char *const or_name[] = { "either", "getppid" };

struct calib {
	const struct calib_counters_opts *o;
	pthread_barrier_t bar;
	pid_t tid[NWORKERS];
	int abort;                /* the counters could not be opened */
	long calls;               /* this run's calls of thread 1 in window 0 */
};

struct worker {
	struct calib *c;
	int idx;
};

/* Calls thread @t makes of call @k in window @w: all differ, none is 0. */
static long want(const struct calib *c, int w, int t, int k)
{
	return c->calls * (w + 1) * (t + 1) + 7 * k + 3 * t + 1;
}

static void make_calls(long n, long nr)
{
	while (n-- > 0)
		syscall(nr);
}

static void *worker_main(void *arg)
{
	struct worker *wk = arg;
	struct calib *c = wk->c;
	int w, k;

	c->tid[wk->idx] = (pid_t)syscall(SYS_gettid);
	pthread_barrier_wait(&c->bar);            /* tids known */
	pthread_barrier_wait(&c->bar);            /* counters open */
	for (w = 0; !c->abort && w < c->o->windows; w++) {
		pthread_barrier_wait(&c->bar);    /* window opens */
		for (k = 0; k < 2; k++)
			make_calls(want(c, w, wk->idx, k), (long)call_nr[k]);
		pthread_barrier_wait(&c->bar);    /* window closes */
	}
	return NULL;
}

static int check_window(struct calib *c, struct tpcount *tc, const struct tpcount_snap *a,
			const struct tpcount_snap *b, int w, size_t ncalls, int ored, const char *ev,
			FILE *out)
{
	int t, bad = 0;
	size_t k;
	long req;
	uint64_t got;

	for (t = 0; t < NWORKERS; t++)
		for (k = 0; k < ncalls; k++) {
			req = want(c, w, t, (int)k) + (ored && !k ? want(c, w, t, 1) : 0);
			got = tpcount_diff(tc, a, b, k, t);
			bad |= got != (uint64_t)req;
			fprintf(out, "%-43s %6d %6d %-8s %10ld %10llu  %s\n", ev, w, t + 1,
				ored ? or_name[k] : call_name[k], req, (unsigned long long)got,
				got == (uint64_t)req ? "ok" : "MISMATCH");
		}
	if (b->gone || b->lost || b->running_ns < b->enabled_ns) {
		fprintf(out, "%-43s %6d counters not counting the whole window\n", ev, w);
		bad = 1;
	}
	return bad;
}

/* The windows, with the counters of @tc open on the workers. */
static int windows(struct calib *c, struct tpcount *tc, size_t ncalls, int ored, const char *ev,
		   FILE *out)
{
	struct tpcount_snap a, b;
	int w, bad = 0, ret;

	ret = tpcount_snap_init(tc, &a) ?: tpcount_snap_init(tc, &b);
	ret = ret ?: tpcount_enable(tc);
	for (w = 0; w < c->o->windows; w++) {
		ret = ret ?: tpcount_read(tc, &a);
		pthread_barrier_wait(&c->bar);
		make_calls(MAIN_CALLS, SYS_getpid);   /* never counted */
		pthread_barrier_wait(&c->bar);
		ret = ret ?: tpcount_read(tc, &b);
		if (!ret)
			bad |= check_window(c, tc, &a, &b, w, ncalls, ored, ev, out);
	}
	tpcount_disable(tc);
	tpcount_snap_free(&a);
	tpcount_snap_free(&b);
	return ret ? ret : bad;
}

/* One event: workers started, counters opened on them, the windows run. */
static int run_event(struct calib *c, const struct tpcount_spec *spec, unsigned int flags,
		     FILE *out, char *why, size_t whylen)
{
	struct worker wk[NWORKERS];
	pthread_t th[NWORKERS];
	struct tpcount *tc = NULL;
	const char *fault = getenv("CVMBENCH_CALIB_FAULT");
	char ev[96];
	int t, ret;

	if (pthread_barrier_init(&c->bar, NULL, NWORKERS + 1))
		return -ENOMEM;
	c->abort = 0;
	for (t = 0; t < NWORKERS; t++) {
		wk[t] = (struct worker){ c, t };
		if (pthread_create(&th[t], NULL, worker_main, &wk[t]))
			return -EAGAIN;   /* not reached in practice; workers would hang */
	}
	pthread_barrier_wait(&c->bar);
	/* the self-test of the check: count the main thread as thread 1 */
	if (fault && !strcmp(fault, "tid"))
		c->tid[0] = (pid_t)syscall(SYS_gettid);
	ret = tpcount_open(&tc, spec, c->tid, NWORKERS, flags, why, whylen);
	c->abort = ret != 0;
	pthread_barrier_wait(&c->bar);
	if (!ret) {
		snprintf(ev, sizeof(ev), "%s:%s %s%s", spec->system, spec->event,
			 tpcount_method_name(tpcount_method(tc)), spec->filters ? " or'ed" : "");
		ret = windows(c, tc, spec->nvalues, spec->filters != NULL, ev, out);
	}
	for (t = 0; t < NWORKERS; t++)
		pthread_join(th[t], NULL);
	tpcount_close(tc);
	pthread_barrier_destroy(&c->bar);
	return ret;
}

/* the kernel lacks bpf or refuses the program: a skip, not a failure */
static int bpf_refused(int ret)
{
	return ret == -EPERM || ret == -EACCES || ret == -ENOSYS || ret == -EOPNOTSUPP;
}

int calib_counters(const struct calib_counters_opts *o, FILE *out, char *why,
		   size_t whylen)
{
	static const struct tpcount_spec specs[] = {
		{ "raw_syscalls", "sys_enter", "id", NULL, call_nr, 2, NULL },
		{ "syscalls", "sys_enter_getpid", "__syscall_nr", NULL, call_nr, 1, NULL },
		{ "raw_syscalls", "sys_enter", NULL, NULL, NULL, 2, or_filters },
	};
	/* each spec with perf counters, the first two with bpf, the first and last streamed */
	static const struct { int spec; unsigned int flags; } runs[] = {
		{ 0, TPCOUNT_PERF_M }, { 1, TPCOUNT_PERF_M }, { 2, TPCOUNT_PERF_M },
		{ 0, TPCOUNT_BPF_M }, { 1, TPCOUNT_BPF_M },
		{ 0, TPCOUNT_STREAM }, { 2, TPCOUNT_STREAM },
	};
	struct calib c = { .o = o };
	size_t i;
	int ret, bad = 0;

	if (geteuid()) {
		snprintf(why, whylen, "needs root (perf tracepoint counters)");
		return -EPERM;
	}
	snprintf(or_buf[0], sizeof(or_buf[0]), "id == %d || id == %d", SYS_getpid, SYS_getppid);
	snprintf(or_buf[1], sizeof(or_buf[1]), "id == %d", SYS_getppid);
	fprintf(out, "%-43s %6s %6s %-8s %10s %10s\n", "event, method", "window", "thread", "call",
		"requested", "counted");
	for (i = 0; i < sizeof(runs) / sizeof(runs[0]); i++) {
		const struct tpcount_spec *sp = &specs[runs[i].spec];

		if ((runs[i].flags & TPCOUNT_STREAM) && o->no_stream) {
			fprintf(out, "trace-stream method not checked: %s\n", o->no_stream);
			break;
		}
		/* streamed: every event is a record; within the buffer (STREAM_MAX) */
		c.calls = (runs[i].flags & TPCOUNT_STREAM) && o->calls > STREAM_MAX ?
			  STREAM_MAX : o->calls;
		ret = run_event(&c, sp, runs[i].flags, out, why, whylen);
		if (ret < 0 && (runs[i].flags & TPCOUNT_BPF_M) && ret != -ENOENT) {
			/* skipped where the kernel lacks or refuses bpf; else a failure */
			fprintf(out, "bpf method %s: %s\n",
				bpf_refused(ret) ? "not checked" : "FAILED", why);
			bad |= !bpf_refused(ret);
			continue;
		}
		if (ret == -EXDEV && (runs[i].flags & TPCOUNT_STREAM)) {
			fprintf(out, "trace-stream method not checked: %s\n", why);
			break;    /* a pid namespace of its own: refused, with the reason */
		}
		if (ret < 0 && !(runs[i].spec == 1 && ret == -ENOENT))
			return ret;
		if (ret < 0)      /* the second event is a cross-check only */
			fprintf(out, "%s:%s not counted: %s\n", sp->system, sp->event, why);
		bad |= ret > 0;
	}
	fprintf(out, "main thread: %d getpid calls per window, excluded from every count\n",
		MAIN_CALLS);
	return bad;
}
