// SPDX-License-Identifier: MIT
/*
 * stats-rng.c - xoshiro256** (Blackman and Vigna, 2018) seeded by splitmix64,
 * as the reference implementations at prng.di.unimi.it. Deterministic:
 * the bootstrap's seed, stored and printed, reproduces its interval.
 */
#include <math.h>

#include "stats-rng.h"

static uint64_t splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static uint64_t rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

void stats_rng_seed(struct stats_rng *r, uint64_t seed)
{
	int i;

	for (i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

uint64_t stats_rng_next(struct stats_rng *r)
{
	uint64_t *s = r->s, out = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return out;
}

uint64_t stats_rng_below(struct stats_rng *r, uint64_t n)
{
	unsigned __int128 m;
	uint64_t lo, t;

	if (!n)
		return 0;
	m = (unsigned __int128)stats_rng_next(r) * n;
	lo = (uint64_t)m;
	if (lo < n) {
		t = -n % n;
		while (lo < t) {
			m = (unsigned __int128)stats_rng_next(r) * n;
			lo = (uint64_t)m;
		}
	}
	return (uint64_t)(m >> 64);
}

double stats_rng_uniform(struct stats_rng *r)
{
	return (double)(stats_rng_next(r) >> 11) * 0x1.0p-53;
}

double stats_rng_normal(struct stats_rng *r)
{
	double u = 1.0 - stats_rng_uniform(r), v = stats_rng_uniform(r);

	return sqrt(-2.0 * log(u)) * cos(2.0 * M_PI * v);
}
