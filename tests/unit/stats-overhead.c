// SPDX-License-Identifier: MIT
/*
 * tests/unit/stats-overhead.c - the overhead of a metric with a direction
 * (lib/stats-overhead.c), TAP output. The known answers are worked out by
 * hand, not by the code's formula: a CVM whose throughput is 20 % lower
 * (0.8 of the regular one) is 1/0.8 - 1 = +25 % worse; one whose latency is
 * 20 % higher is +20 % worse; one that is faster has a negative overhead.
 * The interval is checked by simulation: lognormal windows (sigma 0.1, the
 * spread of repeated benchmark runs) whose true medians are known, so the
 * true overhead is known; over 400 seeded trials the 95 % interval must
 * hold it in 90 - 98.5 % (n = 20 windows a side, and n = 5: few repeats,
 * whose resampled medians take few values and give wide intervals) and a
 * 50 % interval must not reach that, so the check can fail. The counts
 * printed are those docs/compare.md quotes.
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats-boot.h"
#include "stats-overhead.h"
#include "stats-rng.h"
#include "tap.h"

#define N_TESTS 9

static int near(double a, double b)
{
	return fabs(a - b) < 1e-12;
}

/* 100 windows: 1000 .. 1099 per second on the regular side, @f times that on the CVM. */
static void scaled(double *base, double *cvm, double f)
{
	int i;

	for (i = 0; i < 100; i++) {
		base[i] = 1000 + i;
		cvm[i] = f * (1000 + i);
	}
}

static void check_known(void)
{
	struct stats_overhead o = { .seed = 1, .resamples = 1000 };
	double base[100], cvm[100];

	int ret;

	scaled(base, cvm, 0.8);
	ret = stats_boot_overhead(base, 100, cvm, 100, STATS_HIGHER_BETTER, &o);
	tap_ok(!ret && near(o.overhead, 0.25) && o.lo < 0.25 && o.hi > 0.25 && o.hi - o.lo < 0.1,
	       "throughput 20 %% lower on the CVM: overhead +25 %% (%.4f [%.4f, %.4f])",
	       o.overhead, o.lo, o.hi);
	scaled(base, cvm, 1.2);
	o = (struct stats_overhead){ .seed = 1, .resamples = 1000 };
	ret = stats_boot_overhead(base, 100, cvm, 100, STATS_LOWER_BETTER, &o);
	tap_ok(!ret && near(o.overhead, 0.2) && o.lo < 0.2 && o.hi > 0.2,
	       "latency 20 %% higher on the CVM: overhead +20 %% (%.4f [%.4f, %.4f])",
	       o.overhead, o.lo, o.hi);
	o = (struct stats_overhead){ .seed = 1 };
	ret = stats_boot_overhead(base, 100, cvm, 100, STATS_HIGHER_BETTER, &o);
	tap_ok(!ret && near(o.overhead, 1 / 1.2 - 1) && o.hi < 0 && o.resamples == STATS_BOOT_RESAMPLES &&
	       o.level == 0.95,
	       "a CVM with 20 %% more throughput is better: %.4f < 0, interval below 0; "
	       "defaults filled in", o.overhead);
	scaled(base, cvm, 1.0);
	o = (struct stats_overhead){ .seed = 1 };
	ret = stats_boot_overhead(base, 100, cvm, 100, STATS_LOWER_BETTER, &o);
	tap_ok(!ret && o.overhead == 0 && o.lo <= 0 && o.hi >= 0, "the same values: 0, interval holds 0");
}

static void check_refused(void)
{
	double zero[3] = { 0, 0, 0 }, one[3] = { 1, 1, 1 };
	struct stats_overhead o = { .seed = 1 };

	tap_ok(stats_boot_overhead(one, 3, one, 3, 0, &o) == -EINVAL && isnan(o.overhead),
	       "a metric without a direction (SVC_INFO) has no overhead");
	tap_ok(stats_boot_overhead(zero, 3, one, 3, STATS_LOWER_BETTER, &o) == -EINVAL &&
	       stats_boot_overhead(one, 3, zero, 3, STATS_HIGHER_BETTER, &o) == -EINVAL &&
	       stats_boot_overhead(one, 0, one, 3, STATS_LOWER_BETTER, &o) == -EINVAL &&
	       isnan(o.lo), "a denominator median of 0, or an empty side: no overhead (NAN)");
}

static void lognormal(struct stats_rng *g, double *x, int n, double median)
{
	int i;

	for (i = 0; i < n; i++)
		x[i] = median * exp(0.1 * stats_rng_normal(g));
}

/*
 * How many of @trials intervals at @level hold the true overhead: throughput
 * 1000/s regular, 800/s on the CVM (+25 %), @n windows a side.
 */
static int covered(int trials, int n, double level)
{
	double *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	struct stats_rng g;
	int t, hits = 0;

	stats_rng_seed(&g, 4242);
	for (t = 0; a && b && t < trials; t++) {
		struct stats_overhead o = { .seed = (uint64_t)t + 1, .resamples = 500,
					    .level = level };

		lognormal(&g, a, n, 1000);
		lognormal(&g, b, n, 800);
		if (!stats_boot_overhead(a, n, b, n, STATS_HIGHER_BETTER, &o) &&
		    o.lo <= 0.25 && o.hi >= 0.25)
			hits++;
	}
	free(a);
	free(b);
	return hits;
}

int main(void)
{
	int hits, small;

	tap_plan(N_TESTS);
	check_known();
	check_refused();
	hits = covered(400, 20, 0.95);
	tap_ok(hits >= 360 && hits <= 394, "n = 20 windows a side: the 95 %% interval holds "
	       "the true +25 %% in %d of 400 trials (90 - 98.5 %%)", hits);
	tap_ok(covered(400, 20, 0.50) < 360, "a 50 %% interval does not (the check can fail)");
	small = covered(400, 5, 0.95);
	tap_ok(small >= 360 && small <= 394, "n = 5 windows a side: the 95 %% interval holds "
	       "it in %d of 400 trials (90 - 98.5 %%)", small);
	return tap_done();
}
