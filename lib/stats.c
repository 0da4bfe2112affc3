// SPDX-License-Identifier: MIT
/*
 * stats.c - quantiles, mean, standard deviation and the order-statistic
 * confidence interval of the median. Quantiles follow numpy.quantile's
 * default method ("linear": h = (n - 1) q, interpolate between the
 * neighbours of h), so numbers can be checked against numpy.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "stats.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/**
 * stats_sort() - sort @x (@n values) in ascending order, in place.
 */
void stats_sort(double *x, size_t n)
{
	if (n > 1)
		qsort(x, n, sizeof(*x), cmp_double);
}

/**
 * stats_quantile() - the @q quantile (0 <= q <= 1) of @sorted, with linear
 * interpolation between order statistics as numpy.quantile does by
 * default. Returns NAN for an empty sample.
 */
double stats_quantile(const double *sorted, size_t n, double q)
{
	double h, lo;
	size_t i;

	if (!n)
		return NAN;
	if (q <= 0)
		return sorted[0];
	if (q >= 1)
		return sorted[n - 1];
	h = (double)(n - 1) * q;
	lo = floor(h);
	i = (size_t)lo;
	if (i + 1 >= n)
		return sorted[n - 1];
	return sorted[i] + (h - lo) * (sorted[i + 1] - sorted[i]);
}

/**
 * stats_median() - the median of @sorted (mean of the two middle values
 * when @n is even). NAN for an empty sample.
 */
double stats_median(const double *sorted, size_t n)
{
	return stats_quantile(sorted, n, 0.5);
}

/**
 * stats_mean() - arithmetic mean of @x; NAN for an empty sample.
 */
double stats_mean(const double *x, size_t n)
{
	double sum = 0;
	size_t i;

	if (!n)
		return NAN;
	for (i = 0; i < n; i++)
		sum += x[i];
	return sum / (double)n;
}

/**
 * stats_stddev() - sample standard deviation of @x (divisor n - 1, as
 * numpy.std(x, ddof=1)); 0 for one value, NAN for none. Two-pass, so large
 * offsets (nanosecond latencies) do not cancel.
 */
double stats_stddev(const double *x, size_t n)
{
	double m, ss = 0;
	size_t i;

	if (!n)
		return NAN;
	if (n == 1)
		return 0;
	m = stats_mean(x, n);
	for (i = 0; i < n; i++)
		ss += (x[i] - m) * (x[i] - m);
	return sqrt(ss / (double)(n - 1));
}

/* P(B = k) for B ~ Binomial(n, 1/2), in log space so large n is fine. */
static double binom_half_pmf(size_t n, size_t k)
{
	return exp(lgamma((double)n + 1) - lgamma((double)k + 1) -
		   lgamma((double)(n - k) + 1) - (double)n * M_LN2);
}

/**
 * stats_median_ci() - distribution-free confidence interval of the median:
 * [x(j), x(n+1-j)] (1-based order statistics) with the largest j whose
 * coverage 1 - 2 P(B <= j-1), B ~ Binomial(n, 1/2), is still >= @level.
 * @coverage receives that exact coverage. When no such j exists (n < 6
 * for 95 %), the interval is [min, max], @coverage is its (lower) coverage
 * and -EDOM is returned; -EINVAL for an empty sample. Returns 0 otherwise.
 */
int stats_median_ci(const double *sorted, size_t n, double level,
		    double *lo, double *hi, double *coverage)
{
	double tail = 0, alpha = (1 - level) / 2, p;
	size_t j = 0;

	if (!n) {
		*lo = *hi = *coverage = NAN;
		return -EINVAL;
	}
	/* Grow j while P(B <= j) stays within the tail: x(j+1) still fits. */
	while (j < n / 2) {
		p = binom_half_pmf(n, j);
		if (tail + p > alpha)
			break;
		tail += p;
		j++;
	}
	if (!j) {
		*lo = sorted[0];
		*hi = sorted[n - 1];
		*coverage = 1 - 2 * binom_half_pmf(n, 0);
		return -EDOM;
	}
	*lo = sorted[j - 1];
	*hi = sorted[n - j];
	*coverage = 1 - 2 * tail;
	return 0;
}

/**
 * stats_summarize() - sort @x in place and fill @s with its quantiles,
 * mean, standard deviation and the 95 % CI of the median. An empty sample
 * gives n = 0 and NANs.
 */
void stats_summarize(double *x, size_t n, struct stats_summary *s)
{
	stats_sort(x, n);
	s->n = n;
	s->min = stats_quantile(x, n, 0);
	s->p5 = stats_quantile(x, n, 0.05);
	s->p25 = stats_quantile(x, n, 0.25);
	s->median = stats_median(x, n);
	s->p75 = stats_quantile(x, n, 0.75);
	s->p95 = stats_quantile(x, n, 0.95);
	s->p99 = stats_quantile(x, n, 0.99);
	s->max = stats_quantile(x, n, 1);
	s->mean = stats_mean(x, n);
	s->stddev = stats_stddev(x, n);
	stats_median_ci(x, n, 0.95, &s->ci_lo, &s->ci_hi, &s->ci_level);
}

/**
 * stats_cov() - coefficient of variation of @x: sample standard deviation
 * over the mean (numpy: x.std(ddof=1) / x.mean()). NAN for fewer than two
 * values or a mean that is not positive.
 */
double stats_cov(const double *x, size_t n)
{
	double m;

	if (n < 2)
		return NAN;
	m = stats_mean(x, n);
	return m > 0 ? stats_stddev(x, n) / m : NAN;
}
