// SPDX-License-Identifier: MIT
/*
 * tests/unit/shard-balance.c - the cost-balanced split of run --shard I/N
 * --balance (shard-balance.c) on crafted costs: every cell in exactly one
 * shard; where the modulo split is bad (10,1,10,1 in 2 shards: 20 vs 2)
 * the balanced one is even (11, 11), never worse than modulo on random
 * costs, and within LPT's bound (4/3 of the optimum, by brute force on
 * small sets; mean load plus the largest cell); ties broken by matrix index
 * and shard number, so the same costs give the same split every time; an
 * unknown cost is the median of the known ones.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shard-balance.h"
#include "tap.h"

#define MAXN 64

/* The split of @cost into @n shards is a partition: each cell in one shard of 0..n-1. */
static int partition_ok(const int *shard_of, size_t ncells, int n)
{
	size_t i;

	for (i = 0; i < ncells; i++)
		if (shard_of[i] < 0 || shard_of[i] >= n)
			return 0;
	return 1;
}

static int64_t modulo_max(const int64_t *cost, size_t ncells, int n)
{
	int mod[MAXN];
	int64_t load[MAXN];
	size_t i;

	for (i = 0; i < ncells; i++)
		mod[i] = (int)(i % (size_t)n);
	return shard_loads(cost, mod, ncells, n, load);
}

static void crafted(void)
{
	const int64_t cost[] = { 10, 1, 10, 1 };
	int64_t load[2], max, mod;
	int of[4], again[4];

	tap_ok(!shard_balance(cost, 4, 2, of) && partition_ok(of, 4, 2),
	       "10,1,10,1 in 2 shards: a partition");
	max = shard_loads(cost, of, 4, 2, load);
	mod = modulo_max(cost, 4, 2);
	tap_ok(max == 11 && load[0] == 11 && load[1] == 11 && mod == 20,
	       "10,1,10,1: balanced loads %lld and %lld, the modulo split's largest %lld",
	       (long long)load[0], (long long)load[1], (long long)mod);
	tap_ok(of[0] == 0 && of[2] == 1 && of[1] == 0 && of[3] == 1,
	       "ties: the 10s (index 0, then 2) to shards 1 and 2, then the 1s (index 1, "
	       "then 3) to shards 1 and 2 (%d %d %d %d)", of[0], of[1], of[2], of[3]);
	shard_balance(cost, 4, 2, again);
	tap_ok(!memcmp(of, again, sizeof(of)), "the same costs give the same split");
}

static void equal_costs(void)
{
	const int64_t cost[] = { 5, 5, 5, 5, 5, 5, 5 };
	int of[7], i, ok = 1;

	shard_balance(cost, 7, 3, of);
	for (i = 0; i < 7; i++)
		ok &= of[i] == i % 3;
	tap_ok(ok, "equal costs: ties by index and shard give the round robin of modulo");
}

/* The smallest largest shard of any split of @cost (brute force, small sets). */
static int64_t optimum(const int64_t *cost, size_t ncells, int n)
{
	int of[MAXN] = { 0 };
	int64_t load[8], best = INT64_MAX, max;
	size_t i;

	for (;;) {
		max = shard_loads(cost, of, ncells, n, load);
		best = max < best ? max : best;
		for (i = 0; i < ncells && ++of[i] == n; i++)
			of[i] = 0;
		if (i == ncells)
			return best;
	}
}

/*
 * Random costs: a partition; the largest shard within list scheduling's
 * bound (mean + largest cell), within LPT's 4/3 of the optimum (brute force
 * on small sets) and never above the modulo split's.
 */
static void random_costs(void)
{
	int64_t cost[MAXN], load[8], total, big, max;
	int of[MAXN], round, n, ok = 1, bound = 1, opt = 1, worse = 0, better = 0;
	size_t ncells, i;

	srand(17);
	for (round = 0; round < 600; round++) {
		ncells = 1 + (size_t)(rand() % (round < 300 ? 9 : MAXN));
		n = 1 + rand() % (round < 300 ? 3 : 8);
		for (i = 0, total = 0, big = 0; i < ncells; i++) {
			cost[i] = rand() % (round % 2 ? 1000000 : 4);
			total += cost[i];
			big = cost[i] > big ? cost[i] : big;
		}
		ok &= !shard_balance(cost, ncells, n, of) && partition_ok(of, ncells, n);
		max = shard_loads(cost, of, ncells, n, load);
		bound &= max * n <= total + n * big;
		if (round < 300)
			opt &= 3 * max <= 4 * optimum(cost, ncells, n);
		worse += max > modulo_max(cost, ncells, n);
		better += max < modulo_max(cost, ncells, n);
	}
	tap_ok(ok, "600 random cost sets: every split a partition");
	tap_ok(bound, "the largest shard at most the mean load plus the largest cell");
	tap_ok(opt, "on 300 small sets the largest shard within 4/3 of the optimum (brute force)");
	tap_ok(!worse, "never a larger shard than the modulo split's (%d worse, %d smaller)",
	       worse, better);
}

static void unknown(void)
{
	int64_t cost[] = { -1, 30, 10, -1, 20 }, even[] = { 10, -1, 40 }, none[] = { -1, -1 };
	int64_t m;
	size_t k;
	int of[2];

	tap_ok(!shard_cost_fill(cost, 5, &m, &k) && k == 3 && m == 20 && cost[0] == 20 &&
	       cost[3] == 20 && cost[1] == 30, "unknown costs get the median of the known (20)");
	tap_ok(!shard_cost_fill(even, 3, &m, &k) && k == 2 && m == 25 && even[1] == 25,
	       "of an even count: the mean of the middle two (25)");
	tap_ok(!shard_cost_fill(none, 2, &m, &k) && k == 0 && m == -1 && none[0] == -1,
	       "none known: nothing changes, the caller says so");
	tap_ok(shard_balance(none, 2, 2, of) == -EINVAL && shard_balance(cost, 5, 0, of) == -EINVAL,
	       "a negative cost or no shard: -EINVAL");
}

int main(void)
{
	tap_plan(13);
	crafted();
	equal_costs();
	random_costs();
	unknown();
	return tap_done();
}
