// SPDX-License-Identifier: MIT
/*
 * exitcost.c - what exits cost on this VM, measured from user space once
 * per cell (when the cell's probes open, under the cell's idle policy):
 *
 *   cpuid            CPUID leaf 0, timed one call at a time: it always exits
 *                    to the hypervisor (in a TD it becomes a #VE and a
 *                    TDVMCALL); well under 0.1 us on bare metal.
 *   futex_pingpong   a round trip between two threads pinned to different
 *                    CPUs, each blocking in FUTEX_WAIT: two cross-CPU
 *                    wake-ups (IPI + idle exit, HLT under the HLT policy).
 *   sleep_50us       clock_nanosleep(CLOCK_MONOTONIC, 50 us): timer
 *                    programming, idle entry and the timer interrupt.
 *
 * Each is timed with CLOCK_MONOTONIC around one round; the number of rounds
 * is calibrated so that each benchmark takes about half a second (never
 * more than one). Emits median, p99 and count per benchmark (ns), and the
 * median cost of the clock read pair itself (clock_overhead_median).
 *
 * Side: instance: the exits of the machine the functions run on.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#define HAVE_CPUID 1
#endif

#include "clock.h"
#include "exitcost-metrics.h"
#include "probe.h"
#include "sink.h"
#include "stats.h"

#define BUDGET_NS 0.5e9           /* per benchmark */
#define CALIBRATE_ROUNDS 20
#define MIN_ROUNDS 10
#define MAX_ROUNDS 100000

enum { EC_CPUID, EC_FUTEX, EC_SLEEP, EC_COUNT };

static const char *const ec_names[EC_COUNT] = { EXITCOST_CPUID, EXITCOST_FUTEX,
						 EXITCOST_SLEEP };

struct ec_result {
	double median, p99;
	size_t count;
	char why[160];            /* not measured: why */
};

struct exitcost_state {
	struct ec_result r[EC_COUNT];
	double clock_overhead;
	int done;
};

/* One timed round: returns its duration in ns, or < 0 on error. */
typedef double (*ec_round_fn)(void *arg);

static inline double now_ns(void)
{
	return (double)clock_now_ns();
}

/* Calibrate, run, summarize one benchmark into @r. */
static int ec_run(ec_round_fn round, void *arg, struct ec_result *r)
{
	double t0 = now_ns(), est, *v;
	size_t i, n;

	for (i = 0; i < CALIBRATE_ROUNDS; i++)
		if (round(arg) < 0)
			return -EIO;
	est = (now_ns() - t0) / CALIBRATE_ROUNDS;
	n = est > 0 ? (size_t)(BUDGET_NS / est) : MAX_ROUNDS;
	n = n < MIN_ROUNDS ? MIN_ROUNDS : n > MAX_ROUNDS ? MAX_ROUNDS : n;
	v = malloc(n * sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if ((v[i] = round(arg)) < 0)
			break;
	if (i == n) {
		stats_sort(v, n);
		r->median = stats_quantile(v, n, 0.5);
		r->p99 = stats_quantile(v, n, 0.99);
		r->count = n;
	}
	free(v);
	return i == n ? 0 : -EIO;
}

static double round_clock(void *arg)
{
	double t0 = now_ns();

	(void)arg;
	return now_ns() - t0;
}

#ifdef HAVE_CPUID
static double round_cpuid(void *arg)
{
	unsigned int a, b, c, d;
	double t0 = now_ns();

	(void)arg;
	__cpuid(0, a, b, c, d);
	__asm__ __volatile__("" : : "r"(a), "r"(b), "r"(c), "r"(d));
	return now_ns() - t0;
}
#endif

static double round_sleep(void *arg)
{
	struct timespec ts = { 0, 50000 };
	double t0 = now_ns();

	(void)arg;
	if (clock_nanosleep(CLOCK_MONOTONIC, 0, &ts, NULL))
		return -1;
	return now_ns() - t0;
}

/* Timer slack (50 us by default) would hide the wake-up: 1 ns while timed. */
static int run_sleep(struct ec_result *r)
{
	int old = prctl(PR_GET_TIMERSLACK, 0, 0, 0, 0), ret;

	prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	ret = ec_run(round_sleep, NULL, r);
	if (old > 0)
		prctl(PR_SET_TIMERSLACK, (unsigned long)old, 0, 0, 0);
	return ret;
}

/* The ping-pong word: 0 = pong sent (A's turn), 1 = ping sent, 2 = quit. */
struct pingpong {
	_Atomic int word;
	int cpu[2];
	struct ec_result *r;
	int ret;
};

static void futex_wait(_Atomic int *w, int val)
{
	syscall(SYS_futex, w, FUTEX_WAIT_PRIVATE, val, NULL, NULL, 0);
}

static void futex_wake(_Atomic int *w)
{
	syscall(SYS_futex, w, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
}

static double round_ping(void *arg)
{
	struct pingpong *pp = arg;
	double t0 = now_ns();

	atomic_store(&pp->word, 1);
	futex_wake(&pp->word);
	while (atomic_load(&pp->word) == 1)
		futex_wait(&pp->word, 1);
	return now_ns() - t0;
}

static void *pong_thread(void *arg)
{
	struct pingpong *pp = arg;
	int v;

	for (;;) {
		while ((v = atomic_load(&pp->word)) == 0)
			futex_wait(&pp->word, 0);
		if (v == 2)
			return NULL;
		atomic_store(&pp->word, 0);
		futex_wake(&pp->word);
	}
}

static void *ping_thread(void *arg)
{
	struct pingpong *pp = arg;

	pp->ret = ec_run(round_ping, pp, pp->r);
	atomic_store(&pp->word, 2);
	futex_wake(&pp->word);
	return NULL;
}

static int start_pinned(pthread_t *t, int cpu, void *(*fn)(void *), void *arg)
{
	pthread_attr_t attr;
	cpu_set_t set;
	int ret;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(set), &set);
	ret = pthread_create(t, &attr, fn, arg);
	pthread_attr_destroy(&attr);
	return -ret;
}

/* The first two CPUs this process may run on; -ENODEV if only one. */
static int two_cpus(int cpu[2])
{
	cpu_set_t set;
	int i, n = 0;

	if (sched_getaffinity(0, sizeof(set), &set))
		return -errno;
	for (i = 0; i < CPU_SETSIZE && n < 2; i++)
		if (CPU_ISSET(i, &set))
			cpu[n++] = i;
	return n == 2 ? 0 : -ENODEV;
}

static void run_pingpong(struct ec_result *r)
{
	struct pingpong pp = { .r = r };
	pthread_t ping, pong;
	int ret = two_cpus(pp.cpu);

	if (ret) {
		snprintf(r->why, sizeof(r->why), "futex_pingpong needs two CPUs, this "
			 "process may use one");
		return;
	}
	ret = start_pinned(&pong, pp.cpu[1], pong_thread, &pp);
	if (ret) {
		snprintf(r->why, sizeof(r->why), "cannot start a thread pinned to "
			 "CPU %d: %s", pp.cpu[1], strerror(-ret));
		return;
	}
	ret = start_pinned(&ping, pp.cpu[0], ping_thread, &pp);
	if (ret) {
		atomic_store(&pp.word, 2);
		futex_wake(&pp.word);
		pthread_join(pong, NULL);
		snprintf(r->why, sizeof(r->why), "cannot start a thread pinned to "
			 "CPU %d: %s", pp.cpu[0], strerror(-ret));
		return;
	}
	pthread_join(ping, NULL);
	pthread_join(pong, NULL);
	if (pp.ret)
		snprintf(r->why, sizeof(r->why), "futex ping-pong failed");
}

static void run_all(struct exitcost_state *st)
{
	struct ec_result clk = { 0 };

	if (!ec_run(round_clock, NULL, &clk))
		st->clock_overhead = clk.median;
#ifdef HAVE_CPUID
	if (ec_run(round_cpuid, NULL, &st->r[EC_CPUID]))
		snprintf(st->r[EC_CPUID].why, sizeof(st->r[0].why), "cpuid timing failed");
#else
	snprintf(st->r[EC_CPUID].why, sizeof(st->r[0].why),
		 "unsupported: cpuid is x86 only");
#endif
	run_pingpong(&st->r[EC_FUTEX]);
	if (run_sleep(&st->r[EC_SLEEP]))
		snprintf(st->r[EC_SLEEP].why, sizeof(st->r[0].why),
			 "clock_nanosleep failed: %s", strerror(errno));
	st->done = 1;
}

/*
 * Runs when the cell's probes open: the instances are up and the cell's idle
 * policy applies, but no probe window is open yet, so the benchmarks' own
 * idle entries and CPU time do not count in the idle and cpu probes.
 */
static int exitcost_open(struct probe *p)
{
	p->priv = calloc(1, sizeof(struct exitcost_state));
	if (!p->priv)
		return probe_error(p, -ENOMEM, "out of memory");
	run_all(p->priv);
	return 0;
}

static int emit_one(struct sink *s, const char *bench, const struct ec_result *r)
{
	char name[64], why[256];

	if (r->why[0] || !r->count) {
		snprintf(why, sizeof(why), "%s: %s", bench, r->why[0] ? r->why : "no rounds");
		return sink_skip(s, why);
	}
	snprintf(name, sizeof(name), "%s" EXITCOST_MEDIAN, bench);
	if (sink_metric(s, name, r->median, "ns"))
		return -EIO;
	snprintf(name, sizeof(name), "%s" EXITCOST_P99, bench);
	if (sink_metric(s, name, r->p99, "ns"))
		return -EIO;
	snprintf(name, sizeof(name), "%s" EXITCOST_COUNT, bench);
	return sink_metric(s, name, (double)r->count, "count");
}

static int exitcost_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct exitcost_state *st = p->priv;
	int i, err = 0;

	if (w != PROBE_WINDOW_CELL || !st->done)
		return 0;
	for (i = 0; i < EC_COUNT && !err; i++)
		err = emit_one(s, ec_names[i], &st->r[i]);
	err = err ?: sink_metric(s, EXITCOST_CLOCK_OVERHEAD, st->clock_overhead, "ns");
	return err ? probe_error(p, -EIO, "cannot store exitcost metrics") : 0;
}

static void exitcost_close(struct probe *p)
{
	free(p->priv);
	p->priv = NULL;
}

const struct probe_ops probe_exitcost = {
	.version = PROBE_OPS_VERSION,
	.name = EXITCOST_PROBE,
	.measures = "user-space exit-cost micro-benchmarks once per cell: cpuid, cross-CPU "
		    "futex ping-pong, 50 us sleep (median, p99, count)",
	.windows = PROBE_WINDOW_CELL,
	.side = PROBE_INSTANCE,
	.open = exitcost_open,
	.emit = exitcost_emit,
	.close = exitcost_close,
};
