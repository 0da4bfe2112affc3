/* SPDX-License-Identifier: MIT */
/*
 * shard-balance.h - a split of the matrix into shards of about equal
 * expected cost (longest processing time first), a pure function of the
 * cells' costs (run --shard I/N --balance DB).
 */
#ifndef CVMBENCH_SHARD_BALANCE_H
#define CVMBENCH_SHARD_BALANCE_H

#include <stddef.h>
#include <stdint.h>

int shard_cost_fill(int64_t *cost, size_t n, int64_t *median, size_t *nknown);
int shard_balance(const int64_t *cost, size_t n, int nshards, int *shard_of);
int64_t shard_loads(const int64_t *cost, const int *shard_of, size_t n, int nshards,
		    int64_t *load);

#endif
