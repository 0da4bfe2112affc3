/* SPDX-License-Identifier: MIT */
/*
 * stats-boot.h - the bootstrap confidence interval of a ratio of medians
 * (stats-boot.c): the one used by `compare` and the overhead figure.
 */
#ifndef CVMBENCH_STATS_BOOT_H
#define CVMBENCH_STATS_BOOT_H

#include <stddef.h>
#include <stdint.h>

#define STATS_BOOT_RESAMPLES 2000
#define STATS_BOOT_SEED 20261201ULL

/* A ratio median(other) / median(base) with its bootstrap interval. */
struct stats_ratio {
	double ratio;             /* on the samples themselves */
	double lo, hi;            /* percentile bootstrap interval */
	double level;             /* asked for, e.g. 0.95 */
	unsigned resamples;       /* resamples drawn */
	uint64_t seed;            /* of the PRNG (stats-rng.h): reproduces lo, hi */
};

int stats_boot_median_ratio(const double *base, size_t nb, const double *other,
			    size_t no, struct stats_ratio *r);

#endif
