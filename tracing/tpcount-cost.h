/* SPDX-License-Identifier: MIT */
/*
 * tpcount-cost.h - what the counting engine (tpcount.h) costs a counted
 * thread per event, measured on the calling thread with system calls,
 * whose count is known: getpid calls timed with no counter and with
 * counters on raw_syscalls:sys_enter, every count checked. Used by
 * `cvmbench calibrate cost` (through tpcount-abab.h) and by the vmexit
 * probe (through tpcount-shape.h), which stores the cost of its own method
 * and counters with its rows (docs/performance.md).
 */
#ifndef CVMBENCH_TPCOUNT_COST_H
#define CVMBENCH_TPCOUNT_COST_H

#include <stddef.h>

#include "tpcount.h"

/** tpcount_cost_median() - the median of @v[@n] (sorts @v). */
double tpcount_cost_median(double *v, int n);
/**
 * tpcount_cost_calls() - ns per getpid call of this thread, median of
 * @reps repetitions of @calls; with @tc, its counters are read into @s
 * after each repetition (a trace-stream buffer holds one), the reads' ns
 * summed into *@rd_ns, a failed read into *@ret.
 */
double tpcount_cost_calls(long calls, int reps, struct tpcount *tc, struct tpcount_snap *s,
			  double *rd_ns, int *ret);
/**
 * tpcount_cost_event() - ns per getpid call with the counters of @spec
 * (opened with @flags, on raw_syscalls:sys_enter, value 0 getpid's) on
 * this thread into *@ns, the ns a read costs per counted event into
 * *@rd_ns; -EIO when the count was short (@why).
 */
int tpcount_cost_event(const struct tpcount_spec *spec, unsigned int flags, long calls,
		       int reps, double *ns, double *rd_ns, char *why, size_t whylen);

#endif
