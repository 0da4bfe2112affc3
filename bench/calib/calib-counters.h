/* SPDX-License-Identifier: MIT */
/*
 * calib-counters.h - the counting engine's calibration (tpcount.h): two
 * threads make known numbers of getpid() and getppid() calls in each
 * window, while the main thread makes calls of its own; their system-call
 * entries are counted per thread and per call number, and every count
 * must equal what was asked: the other thread's and the main thread's
 * calls excluded, each window apart.
 */
#ifndef CVMBENCH_CALIB_COUNTERS_H
#define CVMBENCH_CALIB_COUNTERS_H

#include <stdio.h>

struct calib_counters_opts {
	long calls;               /* getpid calls of thread 1 in window 0 */
	int windows;
	const char *no_stream;    /* why the trace-stream method is not checked, or NULL */
};

/**
 * calib_counters() - run the calibration, print requested against counted
 * on @out (one line per window, thread and call). Returns 0 when every
 * count is exact, 1 on a mismatch, or -errno when it cannot count here
 * (the reason in @why: not root, no tracefs, no syscall events, perf
 * refused).
 */
int calib_counters(const struct calib_counters_opts *o, FILE *out, char *why,
		   size_t whylen);

#endif
