/* SPDX-License-Identifier: MIT */
/*
 * stats-rng.h - a small deterministic PRNG of our own for the statistics
 * (bootstrap resampling, simulated samples in tests): xoshiro256** seeded
 * through splitmix64, so one 64-bit seed gives the same stream on every
 * machine and libc. Not workloads/rng.c: bench/lib includes only bench/lib
 * (tests/layering.t), and an interval printed with its seed must stay
 * reproducible when a workload's generator changes.
 */
#ifndef CVMBENCH_STATS_RNG_H
#define CVMBENCH_STATS_RNG_H

#include <stdint.h>

struct stats_rng {
	uint64_t s[4];
};

/** stats_rng_seed() - seed @r from @seed (expanded by splitmix64). */
void stats_rng_seed(struct stats_rng *r, uint64_t seed);
/** stats_rng_next() - the next 64 random bits of @r (xoshiro256**). */
uint64_t stats_rng_next(struct stats_rng *r);
/** stats_rng_below() - uniform in 0 .. @n - 1, unbiased (Lemire); 0 when @n is 0. */
uint64_t stats_rng_below(struct stats_rng *r, uint64_t n);
/** stats_rng_uniform() - uniform in [0, 1), 53 random bits. */
double stats_rng_uniform(struct stats_rng *r);
/** stats_rng_normal() - a standard normal deviate (Box-Muller). */
double stats_rng_normal(struct stats_rng *r);

#endif
