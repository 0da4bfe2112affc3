// SPDX-License-Identifier: MIT
/*
 * run-plan.c - which run a `cvmbench run` writes into and which cells it
 * measures. A run's matrix is the config's cells of its shard (--shard I/N:
 * the cells whose 0-based index is I-1 modulo N, or shard I of the split
 * balanced by cost, --balance, shard-split.c), or the --only cells it
 * began with. --resume continues the latest run of the same shard: its
 * cells already ok are kept, every other cell of its matrix is measured
 * again (a cell cut off mid-way from its start: the old row is superseded,
 * db-resume.h). --only KEY re-runs those cells into the latest run whose
 * config and matrix hold them, else into a new run of just them. A resume
 * against another config, or another machine, is refused by name.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config.h"
#include "config-diff.h"
#include "db-resume.h"
#include "log.h"
#include "run-plan.h"
#include "runner-opts.h"
#include "version.h"

enum { ST_NONE, ST_OK, ST_SKIPPED, ST_FAILED, ST_CUT };

/**
 * run_plan_in_shard() - whether cell @c is of the shard --shard asks for:
 * by the balanced split (--balance) or its index modulo N.
 */
int run_plan_in_shard(const struct runner_opts *o, const struct cell *c)
{
	if (!o->shard_n)
		return 1;
	if (o->shard_of)
		return o->shard_of[c->index] == o->shard_i - 1;
	return c->index % o->shard_n == o->shard_i - 1;
}

/* Whether @key is an element of the comma list @list. */
static int in_list(const char *list, const char *key)
{
	size_t l = strlen(key);
	const char *p;

	for (p = list; p && *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] == ',')) {
		if (strcspn(p, ",") == l && !strncmp(p, key, l))
			return 1;
	}
	return 0;
}

static int only_has(const struct runner_opts *o, const char *key)
{
	int i;

	for (i = 0; i < o->nonly; i++)
		if (!strcmp(o->only[i], key))
			return 1;
	return 0;
}

/* The --only keys as "a,b" (DB_FACT_ONLY of a new run), or NULL. */
static char *only_join(const struct runner_opts *o)
{
	size_t len = 1;
	char *s;
	int i;

	for (i = 0; i < o->nonly; i++)
		len += strlen(o->only[i]) + 1;
	s = calloc(1, len);
	for (i = 0; s && i < o->nonly; i++) {
		if (i)
			strcat(s, ",");
		strcat(s, o->only[i]);
	}
	return s;
}

struct state_ctx {
	const struct cell *cells;
	size_t n;
	unsigned char *state;
};

static void on_row(void *ctx, const char *key, const char *status)
{
	struct state_ctx *s = ctx;
	size_t i;

	for (i = 0; i < s->n; i++)
		if (!strcmp(s->cells[i].key, key))
			break;
	if (i == s->n || !status)
		return;
	s->state[i] = !strcmp(status, "ok") ? ST_OK : !strcmp(status, "skipped") ? ST_SKIPPED :
		      !strcmp(status, "failed") ? ST_FAILED : ST_CUT;
}

/* The current status of each cell of run @run_id into p->state. */
static int read_states(struct db *db, int64_t run_id, struct run_plan *p,
		       const struct cell *cells)
{
	struct state_ctx s = { cells, p->n, p->state };

	memset(p->state, ST_NONE, p->n);
	return db_run_cells(db, run_id, on_row, &s);
}

/* 1: @prev's config is @cfg's (text, or key by key); 0: not (@why names keys). */
static int same_config(const struct db_prev_run *prev, const struct config *cfg,
		       char *why, size_t len)
{
	return config_diff_text(prev->config_text, cfg, why, len);
}

static int same_host(const struct db_prev_run *prev)
{
	char host[256] = "";

	gethostname(host, sizeof(host) - 1);
	return prev->hostname && !strcmp(prev->hostname, host);
}

/* Whether run @prev can take the --only cells: same config, host, and in its matrix. */
static int only_fits(const struct db_prev_run *prev, const struct runner_opts *o,
		     const struct config *cfg)
{
	char why[2048];
	int i;

	if (!same_config(prev, cfg, why, sizeof(why)) || !same_host(prev))
		return 0;
	for (i = 0; prev->only && i < o->nonly; i++)
		if (!in_list(prev->only, o->only[i]))
			return 0;
	return 1;
}

/* The cell keys of a run that are not in the matrix of this config (and shard). */
struct foreign {
	const struct runner_opts *o;
	const struct cell *cells;
	size_t n, count;
	char keys[512];
};

static void foreign_cell(void *ctx, const char *key, const char *status)
{
	struct foreign *f = ctx;
	size_t i, l = strlen(f->keys);

	(void)status;
	for (i = 0; i < f->n; i++)
		if (!strcmp(f->cells[i].key, key) && run_plan_in_shard(f->o, &f->cells[i]))
			return;
	if (f->count++ < 8 && l + strlen(key) + 3 < sizeof(f->keys))
		snprintf(f->keys + l, sizeof(f->keys) - l, "%s%s", l ? ", " : "", key);
}

/* --resume: refuse a run of another version whose cells are not this matrix's (exit 2). */
static int resume_cells_check(struct db *db, const struct db_prev_run *prev,
			      const struct runner_opts *o, const struct cell *cells, size_t n)
{
	struct foreign f = { .o = o, .cells = cells, .n = n };

	if (!prev->version || strcmp(prev->version, cvmbench_version)) {
		pr_err("%s: cannot resume run %lld: it was measured by cvmbench %s, this is %s "
		       "(cells of one run are measured by one version; use another --db)",
		       o->db_path, (long long)prev->id, prev->version ? prev->version : "?",
		       cvmbench_version);
		return -EINVAL;
	}
	if (db_run_cells(db, prev->id, foreign_cell, &f))
		return -EIO;
	if (f.count) {
		pr_err("%s: cannot resume run %lld: it holds %zu cell%s not in the matrix of %s%s: "
		       "%s%s", o->db_path, (long long)prev->id, f.count, f.count == 1 ? "" : "s",
		       o->config_path, o->shard_n ? " (this shard)" : "", f.keys,
		       f.count > 8 ? ", ..." : "");
		return -EINVAL;
	}
	return 0;
}

/* --resume: refuse a run of another config or machine (exit 2), by name. */
static int resume_check(const struct db_prev_run *prev, const struct runner_opts *o,
			const struct config *cfg)
{
	char why[2048];

	if (!same_config(prev, cfg, why, sizeof(why))) {
		pr_err("%s: cannot resume run %lld: its config differs from %s in: %s "
		       "(the run's value vs %s's; use another --db)", o->db_path,
		       (long long)prev->id, o->config_path, why, o->config_path);
		return -EINVAL;
	}
	if (!same_host(prev)) {
		pr_err("%s: cannot resume run %lld: it was measured on host '%s', not this "
		       "one (a run is one machine's; use another --db)", o->db_path,
		       (long long)prev->id, prev->hostname ? prev->hostname : "?");
		return -EINVAL;
	}
	return 0;
}

/* The matrix and the cells to measure when continuing run @prev. */
static int plan_continue(struct db *db, struct run_plan *p, const struct db_prev_run *prev,
			 const struct runner_opts *o, const struct cell *cells)
{
	size_t i;
	int ret;

	p->run_id = prev->id;
	ret = read_states(db, p->run_id, p, cells);
	if (ret)
		return ret;
	for (i = 0; i < p->n; i++) {
		p->matrix[i] = run_plan_in_shard(o, &cells[i]) &&
			       (!prev->only || in_list(prev->only, cells[i].key));
		/* --only: those cells (with --resume: those not ok yet) */
		p->todo[i] = p->matrix[i] && (!o->nonly || only_has(o, cells[i].key)) &&
			     (!o->resume || p->state[i] != ST_OK);
	}
	return 0;
}

/* A new run: the cells of the shard, or the --only ones. */
static int plan_new(struct run_plan *p, const struct runner_opts *o, const struct cell *cells)
{
	size_t i;

	p->run_id = 0;
	if (o->nonly && !(p->only = only_join(o)))
		return -ENOMEM;
	for (i = 0; i < p->n; i++)
		p->todo[i] = p->matrix[i] = run_plan_in_shard(o, &cells[i]) &&
					    (!o->nonly || only_has(o, cells[i].key));
	return 0;
}

/* An --only cell outside the shard is a usage error. */
static int check_only_shard(const struct runner_opts *o, const struct cell *cells, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (only_has(o, cells[i].key) && !run_plan_in_shard(o, &cells[i])) {
			pr_err("%s: cell %s is not in shard %d/%d", o->config_path,
			       cells[i].key, o->shard_i, o->shard_n);
			return -EINVAL;
		}
	return 0;
}

static void count_plan(struct run_plan *p)
{
	size_t i;

	for (i = 0; i < p->n; i++) {
		p->nmatrix += p->matrix[i];
		p->ntodo += p->todo[i];
	}
}

/**
 * run_plan_make() - decide the run and the cells of this `cvmbench run`
 * (top of this file). Returns 0; -EINVAL when refused (said why: exit 2);
 * -ENOMEM or -EIO.
 */
int run_plan_make(struct db *db, const struct runner_opts *o, const struct config *cfg,
		  const struct cell *cells, size_t n, struct run_plan *p)
{
	struct db_prev_run prev;
	int found = 0, ret;

	memset(p, 0, sizeof(*p));
	p->n = n;
	if (o->shard_n)
		snprintf(p->shard, sizeof(p->shard), "%d/%d", o->shard_i, o->shard_n);
	p->matrix = calloc(n + 1, 1);
	p->todo = calloc(n + 1, 1);
	p->state = calloc(n + 1, 1);
	if (!p->matrix || !p->todo || !p->state)
		return -ENOMEM;
	ret = check_only_shard(o, cells, n);
	if (!ret && (o->resume || o->nonly))
		found = db_run_pick(db, cfg->text, p->shard[0] ? p->shard : NULL, &prev);
	if (ret || found < 0)
		return ret ? ret : found;
	if (found && o->resume)
		ret = resume_check(&prev, o, cfg) ?: resume_cells_check(db, &prev, o, cells, n);
	else if (found && !only_fits(&prev, o, cfg))
		found = 0;
	if (!ret)
		ret = found ? plan_continue(db, p, &prev, o, cells) : plan_new(p, o, cells);
	if (!ret && o->resume && !found)
		pr_info("%s: no run of %s%s%s to resume: starting one", o->db_path,
			o->config_path, p->shard[0] ? " shard " : "", p->shard);
	if (found)
		db_prev_run_free(&prev);
	count_plan(p);
	return ret;
}

/**
 * run_plan_tally() - what run @run_id achieved over its whole matrix:
 * each cell's current row counted by status; a cell of the matrix with no
 * row (never reached) or cut off makes the run interrupted. Returns 0 or -EIO.
 */
int run_plan_tally(struct db *db, int64_t run_id, struct run_plan *p,
		   const struct cell *cells, struct run_tally *t)
{
	size_t i;
	int ret = read_states(db, run_id, p, cells);

	memset(t, 0, sizeof(*t));
	for (i = 0; !ret && i < p->n; i++) {
		if (!p->matrix[i])
			continue;
		t->ok += p->state[i] == ST_OK;
		t->skipped += p->state[i] == ST_SKIPPED;
		t->failed += p->state[i] == ST_FAILED;
		t->interrupted |= p->state[i] == ST_CUT || p->state[i] == ST_NONE;
	}
	return ret;
}

/** run_plan_free() - free what run_plan_make() allocated. */
void run_plan_free(struct run_plan *p)
{
	free(p->matrix);
	free(p->todo);
	free(p->state);
	free(p->only);
	memset(p, 0, sizeof(*p));
}
