// SPDX-License-Identifier: MIT
/* lat-hist.c - latency quantiles in fixed memory (lat-hist.h). */
#include <math.h>

#include "lat-hist.h"

static unsigned bucket_of(uint64_t ns)
{
	unsigned e;

	if (ns < 128)
		return (unsigned)ns;
	e = 63u - (unsigned)__builtin_clzll(ns);
	return 128 + (e - 7) * 64 + (unsigned)((ns >> (e - 6)) & 63);
}

/* The middle of bucket @b in ns. */
static double bucket_mid(unsigned b)
{
	unsigned e, sub;

	if (b < 128)
		return b;
	e = (b - 128) / 64 + 7;
	sub = (b - 128) % 64;
	return ldexp(64 + sub + 0.5, (int)e - 6);
}

void lat_hist_add(struct lat_hist *h, double seconds)
{
	double ns = seconds * 1e9;

	h->count[bucket_of(ns < 1.8e19 ? (uint64_t)ns : UINT64_MAX / 2)]++;
	h->n++;
}

double lat_hist_quantile(const struct lat_hist *h, double q)
{
	uint64_t want, seen = 0;
	unsigned b;

	if (!h->n)
		return NAN;
	want = (uint64_t)ceil(q * (double)h->n);
	if (want < 1)
		want = 1;
	for (b = 0; b < LAT_HIST_BUCKETS; b++) {
		seen += h->count[b];
		if (seen >= want)
			return bucket_mid(b) / 1e9;
	}
	return bucket_mid(LAT_HIST_BUCKETS - 1) / 1e9;
}
