// SPDX-License-Identifier: MIT
/*
 * tests/unit/stats.c - lib/stats.c against numbers computed by numpy
 * (1.24, default quantile method "linear") and, for the median CI, by exact
 * binomial sums in Python. TAP output.
 *
 * Reference values were made with /usr/bin/python3 and:
 *   import numpy as np
 *   for x in (A, B, C, D):
 *       a = np.array(x)
 *       [float(np.quantile(a, q)) for q in (0, .05, .25, .5, .75, .95, .99, 1)]
 *       float(a.mean()), float(a.std(ddof=1))
 * and the median CI with:
 *   def ci(x, level=.95):
 *       n = len(x); s = sorted(x); alpha = (1 - level) / 2; tail = 0; j = 0
 *       while j < n // 2:
 *           p = math.comb(n, j) / 2**n
 *           if tail + p > alpha: break
 *           tail += p; j += 1
 *       return (s[j-1], s[n-j], 1 - 2*tail) if j else None
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "stats.h"
#include "tap.h"

#define N_TESTS 13

static void ok(int cond, const char *what)
{
	tap_ok(cond, "%s", what);
}

static int close_to(double got, double want)
{
	if (isnan(want))
		return isnan(got);
	return fabs(got - want) <= 1e-12 * fmax(1.0, fabs(want));
}

static const double qs[8] = { 0, 0.05, 0.25, 0.5, 0.75, 0.95, 0.99, 1 };

struct sample {
	const char *name;
	double x[20];
	size_t n;
	double q[8];              /* numpy.quantile at qs[] */
	double mean, sd;          /* numpy mean, std(ddof=1) */
};

static const struct sample samples[] = {
	{ "A (11 values)",
	  { 3.1, 0.4, 7.25, 1.0, 2.5, 9.9, 4.75, 0.05, 6.0, 5.5, 2.5 }, 11,
	  { 0.05, 0.225, 1.75, 3.1, 5.75, 8.575, 9.635000000000002, 9.9 },
	  3.9045454545454548, 3.0815137956412384 },
	{ "B (20 values, one outlier)",
	  { 12.0, 15.5, 11.2, 13.8, 250.0, 12.4, 11.9, 14.1, 12.2, 13.0,
	    12.7, 11.5, 16.3, 12.9, 13.3, 12.1, 14.8, 11.8, 12.6, 13.1 }, 20,
	  { 11.2, 11.485, 12.075, 12.8, 13.875, 27.985000000000166,
	    205.5969999999997, 250.0 },
	  24.860000000000003, 53.00910944555215 },
	{ "C (4 values, even median)", { 4.0, 1.0, 3.0, 2.0 }, 4,
	  { 1.0, 1.15, 1.75, 2.5, 3.25, 3.8499999999999996, 3.9699999999999998,
	    4.0 },
	  2.5, 1.2909944487358056 },
	{ "D (1 value)", { 42.0 }, 1,
	  { 42, 42, 42, 42, 42, 42, 42, 42 }, 42.0, 0 },
};

static void check_sample(const struct sample *s)
{
	double x[20];
	char what[128];
	int good = 1;
	size_t i;

	memcpy(x, s->x, sizeof(x));
	stats_sort(x, s->n);
	for (i = 0; i < 8; i++)
		good &= close_to(stats_quantile(x, s->n, qs[i]), s->q[i]);
	snprintf(what, sizeof(what), "quantiles of %s match numpy", s->name);
	ok(good, what);
	good = close_to(stats_mean(s->x, s->n), s->mean) &&
	       close_to(stats_stddev(s->x, s->n), s->sd);
	snprintf(what, sizeof(what), "mean and stddev of %s match numpy", s->name);
	ok(good, what);
}

static void check_ci(void)
{
	double x[20], lo, hi, cov;
	int r;

	memcpy(x, samples[0].x, sizeof(x));
	stats_sort(x, 11);
	r = stats_median_ci(x, 11, 0.95, &lo, &hi, &cov);
	ok(!r && lo == 0.4 && hi == 7.25 && close_to(cov, 0.98828125),
	   "median CI of A is [0.4, 7.25], coverage 0.98828125");
	memcpy(x, samples[1].x, sizeof(x));
	stats_sort(x, 20);
	r = stats_median_ci(x, 20, 0.95, &lo, &hi, &cov);
	ok(!r && lo == 12.1 && hi == 13.8 && close_to(cov, 0.9586105346679688),
	   "median CI of B is [12.1, 13.8], coverage 0.9586105346679688");
	r = stats_median_ci(x, 5, 0.95, &lo, &hi, &cov);
	ok(r == -EDOM && lo == x[0] && hi == x[4],
	   "n = 5 has no 95 % CI: -EDOM and [min, max]");
}

/* n = 1000, x(i) = i: the CI is [x(469), x(532)] (1-based), coverage 0.9537. */
static void check_ci_large(void)
{
	size_t n = 1000, i;
	double *x = malloc(n * sizeof(*x)), lo, hi, cov;
	int r;

	for (i = 0; i < n; i++)
		x[i] = (double)(i + 1);
	r = stats_median_ci(x, n, 0.95, &lo, &hi, &cov);
	ok(!r && lo == 469 && hi == 532 && fabs(cov - 0.9537088026395019) < 1e-9,
	   "median CI for n = 1000 is [x(469), x(532)]");
	free(x);
}

int main(void)
{
	struct stats_summary s;
	size_t i;

	tap_plan(N_TESTS);
	for (i = 0; i < sizeof(samples) / sizeof(samples[0]); i++)
		check_sample(&samples[i]);
	check_ci();
	check_ci_large();
	stats_summarize(NULL, 0, &s);
	ok(s.n == 0 && isnan(s.median) && isnan(s.mean),
	   "empty sample summarizes to n = 0 and NANs");
	return tap_done();
}
