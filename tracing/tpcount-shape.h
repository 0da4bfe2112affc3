/* SPDX-License-Identifier: MIT */
/*
 * tpcount-shape.h - what counting costs a thread per event when it is
 * counted the way the vmexit probe counts (method and number of values),
 * measured now on the calling thread in interleaved counter-off /
 * counter-on pairs of getpid rounds (tpcount-abab.h): the median of the
 * pairs' differences with its interval, plus the read's share per event.
 * Kept for the rest of the process per method and number of values.
 */
#ifndef CVMBENCH_TPCOUNT_SHAPE_H
#define CVMBENCH_TPCOUNT_SHAPE_H

#include <stddef.h>

#include "tpcount.h"

/* ns one counted event costs: median and its interval over @pairs pairs */
struct tpcount_shape_cost {
	double ns, lo, hi;        /* the read's share per event included in all three */
	double coverage;          /* the interval's exact coverage */
	size_t pairs;
	int resolved;             /* the pairs' interval (before the read's share) excludes 0 */
};

/**
 * tpcount_shape_cost() - the cost into @c of one event to a thread counted
 * by method @m with @k values (perf-filter: @k counters, each event passes
 * them all; trace-stream: the reader's ns per event included; bpf: the
 * vmexit probe's program, by process, a condition and the rest counted
 * too): 11 pairs of 20000 getpid calls (2500 for trace-stream, whose buffer
 * must hold a round), about 0.1-0.5 s once per process and shape. Returns
 * 0, or -errno with @why.
 */
int tpcount_shape_cost(enum tpcount_method m, size_t k, struct tpcount_shape_cost *c,
		       char *why, size_t whylen);

#endif
