/* SPDX-License-Identifier: MIT */
/*
 * clock.h - the one monotonic clock of the harness, its probes and its
 * analysis: CLOCK_MONOTONIC in nanoseconds. The functions behind the wall
 * have their own (workloads/wlclock.h); nothing else calls clock_gettime
 * for a duration (tests/system/source-rules.t).
 */
#ifndef CVMBENCH_CLOCK_H
#define CVMBENCH_CLOCK_H

#include <time.h>

/**
 * clock_now_ns() - CLOCK_MONOTONIC now, in nanoseconds (since boot; never
 * goes back, does not count suspend). Differences of two are durations.
 */
static inline long long clock_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/**
 * clock_thread_cpu_ns() - the CPU time the calling thread has used, ns
 * (CLOCK_THREAD_CPUTIME_ID): a background thread's own cost.
 */
static inline long long clock_thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

#endif
