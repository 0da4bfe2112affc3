// SPDX-License-Identifier: MIT
/*
 * tests/unit/stats-paired.c - the median of paired differences and its
 * interval (lib/stats-paired.c), the figure `calibrate cost` prints per way
 * of counting. A hand-worked sample first: differences -3 1 2 5 7 9, median
 * 3.5; for n = 6 only j = 1 keeps P(B <= j - 1) = 1/64 within 2.5 %
 * (B ~ Binomial(6, 1/2); 7/64 for j = 2 does not), so the 95 % interval is
 * [-3, 9], coverage 62/64, and it contains 0. Then simulated rounds as the
 * calibration takes them: ns per call of about 2 us, normal noise of 250 ns
 * per round, a linear drift, the pair's order alternating, one round in ten
 * hit by a 5 us spike (a preemption): with a true cost of 150 ns per event
 * the 95 % interval of 21 pairs must cover 150 in 93 - 99.5 % of 400 seeded
 * trials (97.3 % is its exact coverage); a 50 % interval must cover it far
 * less often, so the check can fail; with no true cost the sample must be
 * "below the noise" (not resolved) in at least 93 %; with 20 ns of noise a
 * 150 ns cost must be resolved in at least 97 % (not all: the spikes can
 * fall on enough off rounds of a trial to reach the interval's order
 * statistic). TAP output.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

#include "stats-paired.h"
#include "stats-rng.h"
#include "tap.h"

#define PAIRS 21
#define TRIALS 400

static void check_hand(void)
{
	static const double on[6] = { 7, 11, 12, 15, 17, 19 };
	static const double off[6] = { 10, 10, 10, 10, 10, 10 };
	struct stats_paired p;
	int r = stats_paired_median(on, off, 6, 0.95, &p);

	tap_ok(!r && p.n == 6 && p.median == 3.5 && p.lo == -3 && p.hi == 9 &&
	       fabs(p.coverage - 62.0 / 64) < 1e-12 && !p.resolved,
	       "-3 1 2 5 7 9: median 3.5, 95 %% interval [-3, 9] (coverage 62/64), not resolved");
	r = stats_paired_median(on, off, 5, 0.95, &p);
	tap_ok(r == -EDOM && p.lo == -3 && p.hi == 7,
	       "5 pairs: no 95 %% interval, -EDOM and [min, max]");
	tap_ok(stats_paired_median(on, off, 0, 0.95, &p) == -EINVAL, "no pairs: -EINVAL");
}

/* One round's ns per call at round @t: 2 us, drift, noise @sd, a spike now and then. */
static double round_ns(struct stats_rng *g, int t, double sd)
{
	double spike = stats_rng_below(g, 10) ? 0 : 5000;

	return 2000 + 3.0 * t + sd * stats_rng_normal(g) + spike;
}

/* @PAIRS simulated pairs, off and on alternating in order, on paying @truth. */
static void simulate(struct stats_rng *g, double truth, double sd, double *on, double *off)
{
	int i, t = 0;

	for (i = 0; i < PAIRS; i++) {
		if (i % 2 == 0)
			off[i] = round_ns(g, t++, sd);
		on[i] = round_ns(g, t++, sd) + truth;
		if (i % 2)
			off[i] = round_ns(g, t++, sd);
	}
}

/* Of @TRIALS seeded trials: how many intervals at @level cover @truth, how many resolve. */
static void trials(double truth, double sd, double level, int *covered, int *resolved)
{
	double on[PAIRS], off[PAIRS];
	struct stats_paired p;
	struct stats_rng g;
	int k;

	*covered = *resolved = 0;
	stats_rng_seed(&g, 20261201ULL + (uint64_t)truth);
	for (k = 0; k < TRIALS; k++) {
		simulate(&g, truth, sd, on, off);
		stats_paired_median(on, off, PAIRS, level, &p);
		*covered += p.lo <= truth && truth <= p.hi;
		*resolved += p.resolved;
	}
}

static void check_simulated(void)
{
	int cov, res;

	trials(150, 250, 0.95, &cov, &res);
	tap_ok(cov >= TRIALS * 93 / 100 && cov <= TRIALS * 995 / 1000,
	       "150 ns in 250 ns of noise: the 95 %% interval covers it in %d of %d", cov, TRIALS);
	trials(150, 250, 0.5, &cov, &res);
	tap_ok(cov < TRIALS * 80 / 100, "a 50 %% interval covers it in only %d of %d", cov, TRIALS);
	trials(0, 250, 0.95, &cov, &res);
	tap_ok(TRIALS - res >= TRIALS * 93 / 100,
	       "no true cost: below the noise in %d of %d", TRIALS - res, TRIALS);
	trials(150, 20, 0.95, &cov, &res);
	tap_ok(res >= TRIALS * 97 / 100 && cov >= TRIALS * 93 / 100,
	       "150 ns in 20 ns of noise: resolved in %d of %d, covered in %d", res, TRIALS, cov);
}

int main(void)
{
	tap_plan(7);
	check_hand();
	check_simulated();
	return tap_done();
}
