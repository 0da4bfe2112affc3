/* SPDX-License-Identifier: MIT */
/*
 * stats.h - order statistics for the analysis side: quantiles with linear
 * interpolation (numpy's default, "type 7"), mean, sample standard
 * deviation and a distribution-free confidence interval of the median.
 */
#ifndef CVMBENCH_STATS_H
#define CVMBENCH_STATS_H

#include <stddef.h>

/* What the analysis commands print and plot for one sample. */
struct stats_summary {
	size_t n;
	double min, p5, p25, median, p75, p95, p99, max;
	double mean, stddev;
	double ci_lo, ci_hi;      /* 95 % CI of the median */
	double ci_level;          /* its exact coverage; < 0.95 when n < 6 */
};

void stats_sort(double *x, size_t n);
double stats_quantile(const double *sorted, size_t n, double q);
double stats_median(const double *sorted, size_t n);
double stats_mean(const double *x, size_t n);
double stats_stddev(const double *x, size_t n);
int stats_median_ci(const double *sorted, size_t n, double level,
		    double *lo, double *hi, double *coverage);
void stats_summarize(double *x, size_t n, struct stats_summary *s);
double stats_cov(const double *x, size_t n);

/* A p99 is shown only from this many samples on ("-" below). */
#define STATS_P99_MIN_N 100
/* A sample whose coefficient of variation is above this is flagged noisy. */
#define STATS_NOISY_COV 0.10

#endif
