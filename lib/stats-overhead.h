/* SPDX-License-Identifier: MIT */
/*
 * stats-overhead.h - the overhead of one side over a baseline for a metric
 * with a direction (stats-overhead.c), so that a positive overhead always
 * means the side is worse: higher is better (a throughput) gives
 * median(base) / median(side) - 1, lower is better (a latency)
 * median(side) / median(base) - 1, each with the percentile bootstrap
 * interval of stats-boot.c.
 */
#ifndef CVMBENCH_STATS_OVERHEAD_H
#define CVMBENCH_STATS_OVERHEAD_H

#include <stddef.h>
#include <stdint.h>

#define STATS_HIGHER_BETTER 1     /* the values of metrics/service-metrics.h's SVC_* */
#define STATS_LOWER_BETTER (-1)

struct stats_overhead {
	double overhead;          /* on the samples themselves; > 0: the side is worse */
	double lo, hi;            /* its percentile bootstrap interval */
	double level;             /* asked for (0: 0.95) */
	unsigned resamples;       /* 0: STATS_BOOT_RESAMPLES */
	uint64_t seed;            /* of the PRNG: reproduces lo, hi */
};

int stats_boot_overhead(const double *base, size_t nb, const double *side, size_t ns,
			int direction, struct stats_overhead *o);

#endif
