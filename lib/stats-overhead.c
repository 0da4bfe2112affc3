// SPDX-License-Identifier: MIT
/*
 * stats-overhead.c - the overhead of a side over its baseline for a metric
 * with a direction (stats-overhead.h). It is a ratio of medians minus one,
 * oriented by the direction, with the percentile bootstrap interval of
 * that ratio (stats_boot_median_ratio(): each side resampled from itself,
 * seeded), shifted by one: the interval of r - 1 is that of r - 1.
 */
#include <errno.h>
#include <math.h>

#include "stats-boot.h"
#include "stats-overhead.h"

/**
 * stats_boot_overhead() - the overhead of @side (@ns values) over @base
 * (@nb values) for a metric whose @direction is STATS_HIGHER_BETTER
 * (median(base) / median(side) - 1) or STATS_LOWER_BETTER (median(side) /
 * median(base) - 1), and its bootstrap interval at @o->level from
 * @o->resamples resamples seeded by @o->seed (0 resamples or level: the
 * defaults of stats-boot.h, filled in). Returns 0; -EINVAL for another
 * direction, an empty side or a denominator median that is not positive
 * (the numbers are then NAN); -ENOMEM.
 */
int stats_boot_overhead(const double *base, size_t nb, const double *side, size_t ns,
			int direction, struct stats_overhead *o)
{
	struct stats_ratio r = { .level = o->level, .resamples = o->resamples,
				 .seed = o->seed };
	int ret;

	o->overhead = o->lo = o->hi = NAN;
	if (direction == STATS_HIGHER_BETTER)
		ret = stats_boot_median_ratio(side, ns, base, nb, &r);
	else if (direction == STATS_LOWER_BETTER)
		ret = stats_boot_median_ratio(base, nb, side, ns, &r);
	else
		ret = -EINVAL;
	o->level = r.level ? r.level : 0.95;
	o->resamples = r.resamples ? r.resamples : STATS_BOOT_RESAMPLES;
	if (ret)
		return ret;
	o->overhead = r.ratio - 1;
	o->lo = r.lo - 1;
	o->hi = r.hi - 1;
	return 0;
}
