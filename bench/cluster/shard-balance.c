// SPDX-License-Identifier: MIT
/*
 * shard-balance.c - split the cells of a matrix into N shards of about
 * equal expected cost (run --shard I/N --balance DB): longest processing
 * time first. The cells are taken by cost, largest first (equal costs: the
 * lower matrix index first), and each goes to the shard with the least
 * cost so far (equal loads: the lower shard). Should the modulo split
 * (index I-1 modulo N, as without --balance) have a smaller largest shard
 * by the same costs, as LPT can miss the optimum (2,3,2,3,2 in two), that
 * one is taken: never a worse split than modulo. A cell whose cost is not
 * known costs the median of the known ones. Costs are whole microseconds,
 * so every sum is exact: the split is a pure function of the costs, and
 * every shard, on any node, computes the same one. No I/O here.
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "shard-balance.h"

static int by_value(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/**
 * shard_cost_fill() - give each unknown cost (< 0) of @cost[@n] the median
 * of the known ones (of an even count, the mean of the two middle ones,
 * rounded down) into @median (-1: none known); their count into @nknown.
 * With none known nothing changes. Returns 0 or -ENOMEM.
 */
int shard_cost_fill(int64_t *cost, size_t n, int64_t *median, size_t *nknown)
{
	int64_t *known = malloc((n + 1) * sizeof(*known)), m;
	size_t k = 0, i;

	*median = -1;
	*nknown = 0;
	if (!known)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (cost[i] >= 0)
			known[k++] = cost[i];
	if (k) {
		qsort(known, k, sizeof(*known), by_value);
		m = k % 2 ? known[k / 2] :
		    known[k / 2 - 1] + (known[k / 2] - known[k / 2 - 1]) / 2;
		for (i = 0; i < n; i++)
			cost[i] = cost[i] < 0 ? m : cost[i];
		*median = m;
	}
	free(known);
	*nknown = k;
	return 0;
}

struct load {
	int64_t sum;
	int shard;
};

static int lighter(const struct load *a, const struct load *b)
{
	return a->sum != b->sum ? a->sum < b->sum : a->shard < b->shard;
}

/* Sift the heap's root down: the least-loaded shard (then the lowest) on top. */
static void sift_down(struct load *h, size_t n, size_t i)
{
	struct load t;
	size_t c;

	while ((c = 2 * i + 1) < n) {
		if (c + 1 < n && lighter(&h[c + 1], &h[c]))
			c++;
		if (!lighter(&h[c], &h[i]))
			return;
		t = h[i];
		h[i] = h[c];
		h[c] = t;
		i = c;
	}
}

/* Largest cost first; equal costs in matrix order. */
static int by_cost_desc(const void *a, const void *b, void *ctx)
{
	const int64_t *cost = ctx;
	size_t x = *(const size_t *)a, y = *(const size_t *)b;

	if (cost[x] != cost[y])
		return cost[x] > cost[y] ? -1 : 1;
	return (x > y) - (x < y);
}

/* Longest processing time first into @shard_of; 0 or -ENOMEM. */
static int lpt(const int64_t *cost, size_t n, int nshards, int *shard_of)
{
	size_t *order = malloc((n + 1) * sizeof(*order)), i;
	struct load *heap = calloc((size_t)nshards, sizeof(*heap));

	if (!order || !heap) {
		free(order);
		free(heap);
		return -ENOMEM;
	}
	for (i = 0; i < (size_t)nshards; i++)
		heap[i].shard = (int)i;   /* all 0: already a heap, in shard order */
	for (i = 0; i < n; i++)
		order[i] = i;
	qsort_r(order, n, sizeof(*order), by_cost_desc, (void *)cost);
	for (i = 0; i < n; i++) {
		shard_of[order[i]] = heap[0].shard;
		heap[0].sum += cost[order[i]];
		sift_down(heap, (size_t)nshards, 0);
	}
	free(order);
	free(heap);
	return 0;
}

/**
 * shard_balance() - assign each of the @n cells, of @cost[i] microseconds
 * (all >= 0: shard_cost_fill() first), to one of @nshards shards, into
 * @shard_of[i] (0-based), as described at the top of this file. Returns 0,
 * -EINVAL (a negative cost, or @nshards < 1) or -ENOMEM.
 */
int shard_balance(const int64_t *cost, size_t n, int nshards, int *shard_of)
{
	int64_t *load = calloc((size_t)(nshards > 0 ? nshards : 1), sizeof(*load)), max;
	int *mod = malloc((n + 1) * sizeof(*mod));
	int ret = nshards < 1 ? -EINVAL : 0;
	size_t i;

	for (i = 0; !ret && i < n; i++)
		ret = cost[i] < 0 ? -EINVAL : 0;
	if (!ret && (!load || !mod))
		ret = -ENOMEM;
	if (!ret)
		ret = lpt(cost, n, nshards, shard_of);
	for (i = 0; !ret && i < n; i++)
		mod[i] = (int)(i % (size_t)nshards);
	if (!ret) {
		max = shard_loads(cost, shard_of, n, nshards, load);
		if (shard_loads(cost, mod, n, nshards, load) < max)
			memcpy(shard_of, mod, n * sizeof(*mod));
	}
	free(load);
	free(mod);
	return ret;
}

/**
 * shard_loads() - the cost of each of @nshards shards of the split
 * @shard_of into @load[nshards]; returns the largest.
 */
int64_t shard_loads(const int64_t *cost, const int *shard_of, size_t n, int nshards,
		    int64_t *load)
{
	int64_t max = 0;
	size_t i;
	int s;

	memset(load, 0, (size_t)nshards * sizeof(*load));
	for (i = 0; i < n; i++)
		load[shard_of[i]] += cost[i];
	for (s = 0; s < nshards; s++)
		max = load[s] > max ? load[s] : max;
	return max;
}
