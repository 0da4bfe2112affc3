/* SPDX-License-Identifier: MIT */
/*
 * calib-cost.h - what counting costs (docs/performance.md): the system-call
 * rate of a thread with no counter and with counters of each method on
 * raw_syscalls:sys_enter, the ns added per counted event as the median of
 * interleaved counter-off / counter-on pairs with its 95 % interval, and
 * the cost of a window's enable, read and disable for K values x T threads.
 */
#ifndef CVMBENCH_CALIB_COST_H
#define CVMBENCH_CALIB_COST_H

#include <stdio.h>

/* a stream variant's rounds are calls / 8: fewer calls would time none */
#define CALIB_COST_MIN_CALLS 8

struct calib_cost_opts {
	long calls;               /* getpid calls per round */
	int pairs;                /* counter-off / counter-on pairs per way of counting */
	const char *no_stream;    /* why the trace-stream method is not measured, or NULL */
};

/**
 * calib_cost() - measure and print on @out as @o says; the trace-stream
 * method's tracefs instance is journalled, @o->no_stream says why not when
 * it cannot be. Returns 0, or -errno when it cannot count here (@why).
 */
int calib_cost(const struct calib_cost_opts *o, FILE *out, char *why, size_t whylen);

#endif
