/* SPDX-License-Identifier: MIT */
/*
 * rng.h - deterministic generator for model weights and inputs
 * (xoshiro256** seeded with splitmix64). Same seed, same bytes, anywhere.
 */
#ifndef CVMFN_RNG_H
#define CVMFN_RNG_H

#include <stddef.h>
#include <stdint.h>

struct rng {
	uint64_t s[4];
};

void rng_seed(struct rng *r, uint64_t seed);
/** rng_seed_stream() - an independent stream for (@seed, @stream). */
void rng_seed_stream(struct rng *r, uint64_t seed, uint64_t stream);
uint64_t rng_next(struct rng *r);
/** rng_below() - uniform in [0, n). */
uint64_t rng_below(struct rng *r, uint64_t n);
/** rng_unit() - uniform double in [0, 1). */
double rng_unit(struct rng *r);
/** rng_normal() - standard normal (Box-Muller). */
double rng_normal(struct rng *r);
void rng_bytes(struct rng *r, void *buf, size_t len);

#endif
