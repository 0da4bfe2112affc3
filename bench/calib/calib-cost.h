/* SPDX-License-Identifier: MIT */
/*
 * calib-cost.h - what counting costs (docs/performance.md): the system-call
 * rate of a thread with no counter, with 1 and with 40 filtered counters
 * on raw_syscalls:sys_enter (the added ns per counted event), and the cost
 * of a window's enable, read and disable for K values x T threads.
 */
#ifndef CVMBENCH_CALIB_COST_H
#define CVMBENCH_CALIB_COST_H

#include <stdio.h>

/**
 * calib_cost() - measure and print on @out; @calls system calls per
 * repetition; @no_stream: why the trace-stream method (its tracefs instance
 * is journalled) is not measured, or NULL. Returns 0, or -errno when it
 * cannot count here (@why).
 */
int calib_cost(long calls, const char *no_stream, FILE *out, char *why, size_t whylen);

#endif
