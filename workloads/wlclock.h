/* SPDX-License-Identifier: MIT */
/*
 * wlclock.h - the one monotonic clock of cvmfn and the workloads (this side
 * of the wall includes nothing of the harness; lib/clock.h is the
 * harness's). CLOCK_MONOTONIC in nanoseconds, or in seconds for the times
 * a workload reports of its own phases.
 */
#ifndef CVMBENCH_WLCLOCK_H
#define CVMBENCH_WLCLOCK_H

#include <time.h>

/** wl_now_ns() - CLOCK_MONOTONIC now, in nanoseconds. */
static inline long long wl_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/** wl_now_s() - the same in seconds, for a workload's own phase times. */
static inline double wl_now_s(void)
{
	return (double)wl_now_ns() * 1e-9;
}

#endif
