// SPDX-License-Identifier: MIT
/*
 * tests/unit/stats-boot.c - the PRNG (lib/rng.c), the coefficient of
 * variation and the bootstrap interval of a ratio of medians
 * (lib/stats-boot.c). TAP output.
 *
 * The PRNG's first outputs were computed by a separate Python
 * implementation of splitmix64 and xoshiro256** (written from the published
 * algorithms; its splitmix64 gives the published first output
 * 6457827717110365317 for seed 1234567):
 *   seed 20261201: 4459680557555419115 13811539781512816784 9451410305657432870
 *   seed 0:        11091344671253066420 13793997310169335082 1900383378846508768
 * The interval's coverage is checked by simulation: lognormal samples whose
 * true median ratio is known; a 95 % interval must cover it in 93 - 98.5 %
 * of 400 seeded trials: at least 93 % as the issue asks, and not nearly
 * always, which an interval far too wide would. (Measured over 2000 trials
 * at n = 100 it covers 96 %: the percentile bootstrap of a median is a
 * little conservative.) A 50 % interval must miss the window, so the
 * check can fail.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

#include "stats-rng.h"
#include "stats.h"
#include "stats-boot.h"
#include "tap.h"

#define N_TESTS 9

static void check_rng(void)
{
	static const uint64_t want[2][3] = {
		{ 4459680557555419115ULL, 13811539781512816784ULL, 9451410305657432870ULL },
		{ 11091344671253066420ULL, 13793997310169335082ULL, 1900383378846508768ULL },
	};
	static const uint64_t seeds[2] = { 20261201ULL, 0 };
	struct stats_rng g;
	int i, j, good = 1;

	for (i = 0; i < 2; i++) {
		stats_rng_seed(&g, seeds[i]);
		for (j = 0; j < 3; j++)
			good &= stats_rng_next(&g) == want[i][j];
	}
	tap_ok(good, "xoshiro256** seeded by splitmix64 matches the Python reference");
}

/* stats_rng_below(6): each face 1/6 of 600000 draws, chi-square under 20.5 (5 df, p 0.001). */
static void check_below(void)
{
	long count[6] = { 0 };
	double chi = 0, e = 100000;
	struct stats_rng g;
	int i, inrange = 1;

	stats_rng_seed(&g, 7);
	for (i = 0; i < 600000; i++) {
		uint64_t k = stats_rng_below(&g, 6);

		inrange &= k < 6;
		if (k < 6)
			count[k]++;
	}
	for (i = 0; i < 6; i++)
		chi += (count[i] - e) * (count[i] - e) / e;
	tap_ok(inrange && chi < 20.5, "stats_rng_below(6) is uniform (chi-square %.2f)", chi);
}

static void check_cov(void)
{
	static const double x[4] = { 4.0, 1.0, 3.0, 2.0 };

	/* numpy: np.std([4,1,3,2], ddof=1) / 2.5 = 0.5163977794943222 */
	tap_ok(fabs(stats_cov(x, 4) - 0.5163977794943222) < 1e-12 &&
	       isnan(stats_cov(x, 1)), "coefficient of variation matches numpy; NAN for n = 1");
}

/* 1000..1099 ns against the same times 1.25: the ratio is exactly 1.25. */
static void check_fixture(void)
{
	double a[100], b[100];
	struct stats_ratio r = { .seed = 1, .resamples = 1000, .level = 0.95 }, r2;
	int i;

	for (i = 0; i < 100; i++) {
		a[i] = 1000 + i;
		b[i] = 1.25 * (1000 + i);
	}
	stats_boot_median_ratio(a, 100, b, 100, &r);
	tap_ok(fabs(r.ratio - 1.25) < 1e-12 && r.lo < 1.25 && r.hi > 1.25 &&
	       r.lo > 1.15 && r.hi < 1.35,
	       "1000..1099 vs x1.25: ratio 1.25, interval [%.4f, %.4f] around it", r.lo, r.hi);
	r2 = (struct stats_ratio){ .seed = 1, .resamples = 1000, .level = 0.95 };
	stats_boot_median_ratio(a, 100, b, 100, &r2);
	tap_ok(r2.lo == r.lo && r2.hi == r.hi, "the same seed gives the same interval");
	r2 = (struct stats_ratio){ .seed = 2, .resamples = 1000, .level = 0.95 };
	stats_boot_median_ratio(a, 100, b, 100, &r2);
	tap_ok(r2.lo != r.lo || r2.hi != r.hi, "another seed gives another interval");
	r2 = (struct stats_ratio){ .seed = 3 };
	stats_boot_median_ratio(a, 100, a, 100, &r2);
	tap_ok(r2.ratio == 1 && r2.lo <= 1 && r2.hi >= 1 && r2.resamples == STATS_BOOT_RESAMPLES &&
	       r2.level == 0.95, "a self-comparison's interval contains 1 (defaults taken)");
}

static void lognormal(struct stats_rng *g, double *x, int n, double scale)
{
	int i;

	for (i = 0; i < n; i++)
		x[i] = scale * 1e6 * exp(0.5 * stats_rng_normal(g));
}

/* How many of @trials intervals cover the true ratio 1.25 (n per side). */
static int covered(int trials, int n, double level)
{
	double *a = malloc(n * sizeof(*a)), *b = malloc(n * sizeof(*b));
	struct stats_rng g;
	int t, hits = 0;

	stats_rng_seed(&g, 42);
	for (t = 0; t < trials; t++) {
		struct stats_ratio r = { .seed = (uint64_t)t + 1, .resamples = 500,
					 .level = level };

		lognormal(&g, a, n, 1.0);
		lognormal(&g, b, n, 1.25);
		if (!stats_boot_median_ratio(a, n, b, n, &r) && r.lo <= 1.25 && r.hi >= 1.25)
			hits++;
	}
	free(a);
	free(b);
	return hits;
}

int main(void)
{
	int hits;

	tap_plan(N_TESTS);
	check_rng();
	check_below();
	check_cov();
	check_fixture();
	hits = covered(400, 100, 0.95);
	tap_ok(hits >= 372 && hits <= 394,
	       "95 %% interval covers the true ratio in %d of 400 lognormal trials (93-98.5 %%)",
	       hits);
	/* The check can fail: a 50 % interval must not reach 93 %. */
	hits = covered(400, 100, 0.50);
	tap_ok(hits < 372, "a 50 %% interval covers in %d of 400 (the check tells them apart)",
	       hits);
	return tap_done();
}
