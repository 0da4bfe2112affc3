// SPDX-License-Identifier: MIT
/*
 * sim-feed.c - traces into simulators (sim-feed.h). A minute's arrivals
 * are sorted by a bucket sort (as many buckets as arrivals, a few per
 * bucket, insertion-sorted): linear time, so the feed keeps up with the
 * simulator. The counts are held a row per function; they are read
 * BLOCK_MIN minutes at a time into a column per minute, so reading a
 * minute costs a cache line per function every BLOCK_MIN minutes, not
 * every minute.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "sim-feed.h"
#include "stats-rng.h"

#define BLOCK_MIN 16
#define PREFETCH_AHEAD 8              /* arrivals: a cache miss's time of simulation */

struct arrival {
	double t, exec;
	uint32_t fn;
};

struct minute_buf {
	struct arrival *a, *sorted;
	uint32_t *start;
	size_t cap, capb;
	uint32_t *cols;               /* BLOCK_MIN columns of fns.n counts from minute col0 */
	size_t sum[BLOCK_MIN];        /* each column's sum: the minute's arrivals */
	unsigned col0;
};

static int buf_room(struct minute_buf *b, size_t n, size_t nb)
{
	if (n > b->cap) {
		n = n > b->cap + b->cap / 2 ? n : b->cap + b->cap / 2;
		free(b->a);
		free(b->sorted);
		b->a = malloc(n * sizeof(*b->a));
		b->sorted = malloc(n * sizeof(*b->sorted));
		b->cap = n;
	}
	if (nb + 1 > b->capb) {
		free(b->start);
		b->start = malloc((nb + 1) * sizeof(*b->start));
		b->capb = nb + 1;
	}
	return b->a && b->sorted && b->start ? 0 : -ENOMEM;
}

/* Sort @n arrivals of the minute starting at @t0 into b->sorted. */
static void bucket_sort(struct minute_buf *b, size_t n, size_t nb, double t0)
{
	double scale = (double)nb / 60.0;
	size_t i, k;

	memset(b->start, 0, (nb + 1) * sizeof(*b->start));
	for (i = 0; i < n; i++) {
		k = (size_t)((b->a[i].t - t0) * scale);
		b->start[(k < nb ? k : nb - 1) + 1]++;
	}
	for (k = 0; k < nb; k++)
		b->start[k + 1] += b->start[k];
	for (i = 0; i < n; i++) {
		k = (size_t)((b->a[i].t - t0) * scale);
		b->sorted[b->start[k < nb ? k : nb - 1]++] = b->a[i];
	}
	for (i = 1; i < n; i++) {          /* nearly sorted: insertion sort finishes it */
		struct arrival x = b->sorted[i];

		for (k = i; k && b->sorted[k - 1].t > x.t; k--)
			b->sorted[k] = b->sorted[k - 1];
		b->sorted[k] = x;
	}
}

/* The counts of minutes @m0 .. @m0 + BLOCK_MIN - 1 into b->cols. */
static void block_load(const struct trace19 *t, struct minute_buf *b, unsigned m0)
{
	unsigned j, nm = t->minutes - m0 < BLOCK_MIN ? t->minutes - m0 : BLOCK_MIN;
	size_t f;

	memset(b->sum, 0, sizeof(b->sum));
	for (f = 0; f < t->fns.n; f++)
		for (j = 0; j < nm; j++) {
			b->cols[j * t->fns.n + f] = t->counts[f * t->minutes + m0 + j];
			b->sum[j] += t->counts[f * t->minutes + m0 + j];
		}
	b->col0 = m0;
}

/* The arrivals of minute @m of every function into b->a; their number. */
static size_t minute_arrivals(const struct trace19 *t, struct minute_buf *b, unsigned m,
			      enum sim_spread spread, struct stats_rng *r)
{
	const uint32_t *col = b->cols + (size_t)(m - b->col0) * t->fns.n;
	double t0 = 60.0 * m;
	size_t f, n = 0;
	unsigned k, c;

	for (f = 0; f < t->fns.n; f++) {
		c = col[f];
		for (k = 0; k < c; k++, n++) {
			b->a[n].fn = (uint32_t)f;
			b->a[n].t = t0 + 60.0 * (spread == SPREAD_UNIFORM ? (k + 0.5) / c
						 : stats_rng_uniform(r));
			b->a[n].exec = t->exec_ms ? trace19_exec_draw(t, f, stats_rng_uniform(r)) : 0;
		}
	}
	return n;
}

int sim_feed19(const struct trace19 *t, struct sim *const *sims, size_t nsim,
	       enum sim_spread spread, uint64_t seed)
{
	struct minute_buf b = { 0 };
	struct stats_rng r;
	size_t nb, n, i, j;
	unsigned m;
	int ret = 0;

	stats_rng_seed(&r, seed);
	b.cols = malloc((t->fns.n ? t->fns.n : 1) * BLOCK_MIN * sizeof(*b.cols));
	if (!b.cols)
		ret = -ENOMEM;
	for (m = 0; !ret && m < t->minutes; m++) {
		if (m % BLOCK_MIN == 0)
			block_load(t, &b, m);
		/* buckets: the minute's arrivals to a power of two (the order is the same for any) */
		n = b.sum[m - b.col0];
		for (nb = 1; nb < n; nb <<= 1)
			;
		ret = buf_room(&b, n ? n : 1, nb);
		if (ret)
			break;
		n = minute_arrivals(t, &b, m, spread, &r);
		bucket_sort(&b, n, nb, 60.0 * m);
		for (j = 0; j < nsim; j++)
			for (i = 0; i < n; i++) {
				if (i + PREFETCH_AHEAD < n)
					sim_prefetch(sims[j], b.sorted[i + PREFETCH_AHEAD].fn);
				sim_arrive(sims[j], b.sorted[i].fn, b.sorted[i].t, b.sorted[i].exec);
			}
	}
	free(b.a);
	free(b.sorted);
	free(b.start);
	free(b.cols);
	return ret;
}

struct feed21 {
	struct sim *const *sims;
	size_t nsim;
};

static int arrive21(void *ctx, uint32_t fn, double start, double duration)
{
	const struct feed21 *f = ctx;
	size_t j;

	for (j = 0; j < f->nsim; j++)
		sim_arrive(f->sims[j], fn, start, duration);
	return 0;
}

int sim_feed21(struct trace21 *t, struct sim *const *sims, size_t nsim)
{
	struct feed21 f = { sims, nsim };

	return trace21_replay(t, arrive21, &f);
}
