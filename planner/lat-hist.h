/* SPDX-License-Identifier: MIT */
/*
 * lat-hist.h - latencies of any number of invocations in fixed memory:
 * nanoseconds in log buckets (64 per power of two, so a quantile is within
 * 1.6 % of the true value), exact below 128 ns.
 */
#ifndef CVMBENCH_LAT_HIST_H
#define CVMBENCH_LAT_HIST_H

#include <stdint.h>

#define LAT_HIST_BUCKETS (128 + 57 * 64)

struct lat_hist {
	uint64_t n;
	uint64_t count[LAT_HIST_BUCKETS];
};

/** lat_hist_add() - count one latency of @seconds (>= 0). */
void lat_hist_add(struct lat_hist *h, double seconds);
/** lat_hist_quantile() - the @q quantile (0..1) in seconds; NaN when empty. */
double lat_hist_quantile(const struct lat_hist *h, double q);

#endif
