// SPDX-License-Identifier: MIT
/*
 * stats-paired.c - the median of paired differences and its interval
 * (stats-paired.h). The interval is the sign-test one, [d(j), d(n+1-j)] of
 * the sorted differences (stats_median_ci): distribution-free, exact
 * coverage for any continuous distribution of the differences, no
 * resampling and so no seed; the pairs must be independent of each other,
 * which alternating their order cancels drift for.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"
#include "stats-paired.h"

/**
 * stats_paired_median() - fill @p with the median of @on[i] - @off[i]
 * (@n pairs), its confidence interval at @level and whether that excludes
 * zero. Returns 0; -EDOM when @n is too small for @level (the interval
 * is then [min, max] and @p->coverage says what it covers), -EINVAL for
 * no pairs, -ENOMEM.
 */
int stats_paired_median(const double *on, const double *off, size_t n, double level,
			struct stats_paired *p)
{
	double *d;
	size_t i;
	int ret;

	p->n = n;
	p->median = p->lo = p->hi = p->coverage = NAN;
	p->resolved = 0;
	if (!n)
		return -EINVAL;
	d = malloc(n * sizeof(*d));
	if (!d)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		d[i] = on[i] - off[i];
	stats_sort(d, n);
	p->median = stats_median(d, n);
	ret = stats_median_ci(d, n, level, &p->lo, &p->hi, &p->coverage);
	p->resolved = p->lo > 0 || p->hi < 0;
	free(d);
	return ret;
}
