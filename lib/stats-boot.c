// SPDX-License-Identifier: MIT
/*
 * stats-boot.c - percentile bootstrap of the ratio of two medians. Each
 * resample draws, with replacement, as many values as each side has from
 * that side alone (the sides are independent samples: invocations of the
 * regular and of the confidential cell), takes the ratio of their medians,
 * and the interval is the (1-level)/2 and (1+level)/2 quantiles of those
 * ratios (linear interpolation, stats_quantile). The PRNG is stats-rng.c, seeded
 * by the caller's seed, so the interval is reproducible from (seed,
 * resamples), which `compare` stores and prints.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats-rng.h"
#include "stats.h"
#include "stats-boot.h"

/* The median of @n values drawn with replacement from @x; @tmp holds @n. */
static double resampled_median(struct stats_rng *g, const double *x, size_t n, double *tmp)
{
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = x[stats_rng_below(g, n)];
	stats_sort(tmp, n);
	return stats_median(tmp, n);
}

static double median_of(const double *x, size_t n, double *tmp)
{
	size_t i;

	for (i = 0; i < n; i++)
		tmp[i] = x[i];
	stats_sort(tmp, n);
	return stats_median(tmp, n);
}

/**
 * stats_boot_median_ratio() - median(@other) / median(@base) and its
 * bootstrap interval at @r->level from @r->resamples resamples with PRNG
 * seed @r->seed (the caller sets those three; 0 resamples or level take
 * STATS_BOOT_RESAMPLES and 0.95). Fills @r->ratio, @r->lo, @r->hi.
 * Returns 0; -EINVAL when a side is empty or its median is not positive
 * (a ratio of latencies needs both), -ENOMEM.
 */
int stats_boot_median_ratio(const double *base, size_t nb, const double *other,
			    size_t no, struct stats_ratio *r)
{
	double *tmp, *ratios, mb;
	struct stats_rng g;
	unsigned i;

	r->ratio = r->lo = r->hi = NAN;
	if (!r->resamples)
		r->resamples = STATS_BOOT_RESAMPLES;
	if (!(r->level > 0 && r->level < 1))
		r->level = 0.95;
	if (!nb || !no)
		return -EINVAL;
	tmp = malloc((nb > no ? nb : no) * sizeof(*tmp));
	ratios = malloc(r->resamples * sizeof(*ratios));
	if (!tmp || !ratios) {
		free(tmp);
		free(ratios);
		return -ENOMEM;
	}
	mb = median_of(base, nb, tmp);
	r->ratio = mb > 0 ? median_of(other, no, tmp) / mb : NAN;
	stats_rng_seed(&g, r->seed);
	for (i = 0; i < r->resamples; i++) {
		mb = resampled_median(&g, base, nb, tmp);
		ratios[i] = resampled_median(&g, other, no, tmp) / mb;
	}
	stats_sort(ratios, r->resamples);
	r->lo = stats_quantile(ratios, r->resamples, (1 - r->level) / 2);
	r->hi = stats_quantile(ratios, r->resamples, (1 + r->level) / 2);
	free(tmp);
	free(ratios);
	return isnan(r->ratio) || isnan(r->lo) || isnan(r->hi) ? -EINVAL : 0;
}
