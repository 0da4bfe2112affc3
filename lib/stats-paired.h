/* SPDX-License-Identifier: MIT */
/*
 * stats-paired.h - the median difference of paired rounds (on - off, each
 * pair measured back to back) with the distribution-free confidence
 * interval of that median (stats_median_ci), and whether the interval
 * tells it from zero. Used by `calibrate cost` (docs/performance.md).
 */
#ifndef CVMBENCH_STATS_PAIRED_H
#define CVMBENCH_STATS_PAIRED_H

#include <stddef.h>

struct stats_paired {
	size_t n;                 /* pairs */
	double median;            /* of the differences on[i] - off[i] */
	double lo, hi;            /* its interval (order statistics of the differences) */
	double coverage;          /* the interval's exact coverage */
	int resolved;             /* the interval excludes 0: lo > 0 or hi < 0 */
};

int stats_paired_median(const double *on, const double *off, size_t n, double level,
			struct stats_paired *p);

#endif
