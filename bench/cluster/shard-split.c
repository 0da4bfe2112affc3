// SPDX-License-Identifier: MIT
/*
 * shard-split.c - the cost-balanced split of `run --shard I/N --balance DB`:
 * each cell's cost is its measured wall time (the start and end of its
 * row) in the latest run of DB of the same config (the same text, or the
 * same keys and values: config_diff_text()) that measured it ok, matched
 * by cell key; a cell no such run measured costs the median of the known
 * ones; the cells then go to shards by longest processing time first
 * (shard-balance.c). The split is a pure function of the config and DB's
 * contents, so every shard computes the same one on its own. DB is only
 * read; it must not be the run's own --db (which the run changes as it
 * goes, and with it the split a --resume would compute). A DB with no ok
 * cell of this config is refused by name (exit 2): a balanced split asked
 * for is never silently replaced by another.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "config.h"
#include "config-diff.h"
#include "db.h"
#include "db-cost.h"
#include "log.h"
#include "runner.h"
#include "shard-balance.h"
#include "shard-split.h"

struct cost_ctx {
	struct db *db;
	const struct config *cfg;
	const struct cell **by_key;   /* the cells sorted by key */
	size_t n;
	int64_t *cost;                /* per cell index, µs; -1: not known */
	size_t runs;                  /* runs of the same config */
	int err;
};

static int key_cmp(const void *a, const void *b)
{
	return strcmp((*(const struct cell *const *)a)->key, (*(const struct cell *const *)b)->key);
}

static void on_cell(void *ctx, const char *key, int64_t wall_us)
{
	struct cost_ctx *c = ctx;
	struct cell probe;
	const struct cell *p = &probe, **hit;

	if (!key)
		return;
	snprintf(probe.key, sizeof(probe.key), "%s", key);
	hit = bsearch(&p, c->by_key, c->n, sizeof(*c->by_key), key_cmp);
	if (hit)
		c->cost[(*hit)->index] = wall_us;   /* runs in id order: the latest wins */
}

static void on_run(void *ctx, int64_t run_id, const char *config_text)
{
	struct cost_ctx *c = ctx;
	char why[256];

	if (c->err || !config_diff_text(config_text, c->cfg, why, sizeof(why)))
		return;
	c->runs++;
	c->err = db_run_ok_cells(c->db, run_id, on_cell, c);
}

/* Each cell's measured cost in @path into @cost (-1: not known); the runs that matched. */
static int read_costs(const char *path, const struct config *cfg, const struct cell *cells,
		      size_t n, int64_t *cost, size_t *runs)
{
	struct cost_ctx c = { .cfg = cfg, .n = n, .cost = cost };
	char err[1024];
	size_t i;
	int ret;

	c.by_key = malloc((n + 1) * sizeof(*c.by_key));
	if (!c.by_key)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		c.by_key[i] = &cells[i];
		cost[i] = -1;
	}
	qsort(c.by_key, n, sizeof(*c.by_key), key_cmp);
	ret = db_open(&c.db, path, DB_READONLY, err, sizeof(err));
	if (ret) {
		pr_err("--balance: %s", err);
		free(c.by_key);
		return -EINVAL;
	}
	ret = db_runs_each(c.db, on_run, &c) ?: c.err;
	db_close(c.db);
	free(c.by_key);
	*runs = c.runs;
	return ret;
}

/* --balance must not be the run's own database; -EINVAL (said why) when it is. */
static int other_db(const struct runner_opts *o)
{
	struct stat a, b;

	if (stat(o->balance_db, &a) || stat(o->db_path, &b) || a.st_dev != b.st_dev ||
	    a.st_ino != b.st_ino)
		return 0;
	pr_err("--balance %s is the run's own --db: the costs must come from another database "
	       "(one that no shard writes), e.g. an earlier run's, or the merge of its shards",
	       o->balance_db);
	return -EINVAL;
}

/* Say what the split is: the costs known, this shard's expected time. */
static void report(const struct runner_opts *o, const int64_t *cost, const int *shard_of,
		   size_t n, size_t known, int64_t median)
{
	int64_t *load = calloc((size_t)o->shard_n, sizeof(*load)), max, mod_max;
	int *mod = malloc((n + 1) * sizeof(*mod));
	size_t i, mine = 0;

	for (i = 0; load && mod && i < n; i++) {
		mod[i] = (int)(i % (size_t)o->shard_n);
		mine += shard_of[i] == o->shard_i - 1;
	}
	if (load && mod) {
		mod_max = shard_loads(cost, mod, n, o->shard_n, load);
		max = shard_loads(cost, shard_of, n, o->shard_n, load);
		pr_info("--balance %s: the wall time of %zu of %zu cells known%s%.3f s%s; shard "
			"%d/%d: %zu cells, %.3f s expected; the largest shard %.3f s (modulo split: "
			"%.3f s)", o->balance_db, known, n, known < n ? " (the others: the median, " :
			" (median ", median / 1e6, ")", o->shard_i, o->shard_n, mine,
			load[o->shard_i - 1] / 1e6, max / 1e6, mod_max / 1e6);
	}
	free(load);
	free(mod);
}

/**
 * shard_split() - the shard (0-based) of each of the @n cells of @cfg into
 * @shard_of[n], balanced by their cost in @o->balance_db (top of this
 * file), for --shard @o->shard_i/@o->shard_n. Returns 0; -EINVAL when the
 * database cannot be read or holds no ok cell of this config, or is the
 * run's own (said why: exit 2); -ENOMEM or -EIO.
 */
int shard_split(const struct runner_opts *o, const struct config *cfg,
		const struct cell *cells, size_t n, int *shard_of)
{
	int64_t *cost = malloc((n + 1) * sizeof(*cost)), median;
	size_t runs = 0, known = 0;
	int ret = cost ? other_db(o) : -ENOMEM;

	if (!ret)
		ret = read_costs(o->balance_db, cfg, cells, n, cost, &runs);
	if (!ret)
		ret = shard_cost_fill(cost, n, &median, &known);
	if (!ret && !known) {
		pr_err("--balance %s: %s of %s (the same config) to take the cells' cost from: "
		       "give a database with a finished earlier run of it, or leave --balance "
		       "out (the modulo split)", o->balance_db,
		       runs ? "no cell ended ok in the runs" : "no run", o->config_path);
		ret = -EINVAL;
	}
	if (!ret)
		ret = shard_balance(cost, n, o->shard_n, shard_of);
	if (!ret)
		report(o, cost, shard_of, n, known, median);
	free(cost);
	return ret;
}
