/* SPDX-License-Identifier: MIT */
/*
 * shard-split.h - the cost-balanced split of `run --shard I/N --balance DB`:
 * the cells' wall time in an earlier run of the same config, then longest
 * processing time first (shard-balance.h).
 */
#ifndef CVMBENCH_SHARD_SPLIT_H
#define CVMBENCH_SHARD_SPLIT_H

#include <stddef.h>

struct runner_opts;
struct config;
struct cell;

int shard_split(const struct runner_opts *o, const struct config *cfg,
		const struct cell *cells, size_t n, int *shard_of);

#endif
