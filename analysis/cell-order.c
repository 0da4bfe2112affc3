// SPDX-License-Identifier: MIT
/*
 * cell-order.c - the cells of a run in the config's matrix order, as
 * `run --dry-run` lists them and the run measures them. A cell measured
 * again (run --resume, run --only) has a newer row with a larger id, so
 * ORDER BY id would list it after all the others, and a merged study its
 * shards one after the other. The order is cell.matrix_index, the cell's
 * position in its config's whole matrix, stored by the runner since
 * 009-cell-matrix-index.sql (a shard's cells keep their index in the whole
 * matrix, and merge copies it). Fallback, for rows written before that
 * (NULL, or a database the reader does not migrate, without the column):
 * the run's own config text is expanded again (config_expand()) and each
 * such cell found by its key. The migration cannot fill the old rows (SQL
 * cannot expand a config) and show and report never write, so the
 * fallback stays. A cell neither gives (a config this version cannot read
 * or expand, e.g. more cells than the default --max-cells) comes after
 * those with an index, in the order of its key's first row in the run (the
 * order it was first measured in, which is the matrix order unless --only
 * measured it out of turn).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "cell-order.h"
#include "config.h"
#include "summary.h"

struct ranked {
	cJSON *item;
	const char *key;          /* the item's cell_key ("" without one) */
	long index;               /* in the matrix; -1: not known */
	int64_t first;            /* id of the key's first row in the run */
	int64_t id;
};

/* A key's first row in the run, and its stored matrix index. */
struct first_row {
	char *key;
	int64_t id;
	long index;               /* cell.matrix_index; -1: NULL (an older row) */
};

/*
 * Every key's first row and stored index in one query (one per cell was
 * quadratic: run_id is all the index); without the column (a database
 * before 009, which the readers do not migrate) no index.
 */
static const char sql_first[] =
	"SELECT cell_key, min(id), max(matrix_index) FROM main.cell WHERE run_id = ?1 AND "
	"cell_key IS NOT NULL GROUP BY cell_key";
static const char sql_first_old[] =
	"SELECT cell_key, min(id), NULL FROM main.cell WHERE run_id = ?1 AND "
	"cell_key IS NOT NULL GROUP BY cell_key";
static const char sql_has_index[] =
	"SELECT count(*) FROM pragma_table_info('cell', 'main') WHERE name = 'matrix_index'";

static int by_key(const void *a, const void *b)
{
	return strcmp(((const struct cell *)a)->key, ((const struct cell *)b)->key);
}

static int by_first_key(const void *a, const void *b)
{
	return strcmp(((const struct first_row *)a)->key, ((const struct first_row *)b)->key);
}

static void firsts_free(struct first_row *f, size_t n)
{
	while (n)
		free(f[--n].key);
	free(f);
}

/* Append the row @st holds to @f (@n used, @cap allocated). 0 or -ENOMEM. */
static int firsts_add(struct first_row **f, size_t *n, size_t *cap, sqlite3_stmt *st)
{
	struct first_row *g = *f;

	if (*n == *cap) {
		*cap = *cap ? *cap * 2 : 64;
		g = realloc(*f, *cap * sizeof(*g));
		if (!g)
			return -ENOMEM;
		*f = g;
	}
	g[*n].key = strdup((const char *)sqlite3_column_text(st, 0));
	g[*n].id = sqlite3_column_int64(st, 1);
	g[*n].index = sqlite3_column_type(st, 2) == SQLITE_NULL ? -1 :
		      (long)sqlite3_column_int64(st, 2);
	return g[*n].key ? (++*n, 0) : -ENOMEM;
}

/* Whether the cell table has the column matrix_index: 1, 0, or -EIO. */
static int has_index(sqlite3 *h)
{
	sqlite3_stmt *st;
	int ret = -EIO;

	if (analysis_prepare(h, sql_has_index, 0, &st))
		return -EIO;
	if (analysis_step(st) == SQLITE_ROW)
		ret = sqlite3_column_int(st, 0) > 0;
	sqlite3_finalize(st);
	return ret;
}

/* Each key's first row of run @run_id, sorted by key. 0, -ENOMEM or -EIO. */
static int firsts_of(sqlite3 *h, int64_t run_id, struct first_row **f, size_t *n)
{
	int ret = 0, rc, indexed = has_index(h);
	size_t cap = 0;
	sqlite3_stmt *st;

	*f = NULL;
	*n = 0;
	if (indexed < 0 ||
	    analysis_prepare(h, indexed ? sql_first : sql_first_old, run_id, &st))
		return -EIO;
	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW)
		ret = firsts_add(f, n, &cap, st);
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;
	sqlite3_finalize(st);
	if (ret) {
		firsts_free(*f, *n);
		*f = NULL;
		*n = 0;
		return ret;
	}
	if (*n)
		qsort(*f, *n, sizeof(**f), by_first_key);
	return 0;
}

static int by_rank(const void *a, const void *b)
{
	const struct ranked *x = a, *y = b;

	if ((x->index < 0) != (y->index < 0))
		return x->index < 0 ? 1 : -1;
	if (x->index != y->index)
		return x->index < y->index ? -1 : 1;
	if (x->first != y->first)
		return x->first < y->first ? -1 : 1;
	return (x->id > y->id) - (x->id < y->id);
}

/* The cells of run @run_id's config text, sorted by key (their index kept). */
static int matrix_of(sqlite3 *h, int64_t run_id, struct cell **cells, size_t *n)
{
	struct config *cfg = NULL;
	sqlite3_stmt *st;
	char err[1600];
	int ret = -ENOENT;

	*cells = NULL;
	*n = 0;
	if (analysis_prepare(h, "SELECT config_text FROM run WHERE id = ?1", run_id, &st))
		return -EIO;
	if (analysis_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    !config_load_string("(config of the run)", (const char *)sqlite3_column_text(st, 0),
				&cfg, err, sizeof(err)))
		ret = config_expand(cfg, cells, n, err, sizeof(err));
	sqlite3_finalize(st);
	config_free(cfg);
	if (!ret)
		qsort(*cells, *n, sizeof(**cells), by_key);
	return ret;
}

/* Rank @r by its key's first row and stored index in @f; 1 when it has no index. */
static int rank_stored(struct ranked *r, const struct first_row *f, size_t nf)
{
	const cJSON *k = cJSON_GetObjectItem(r->item, "cell_key");
	struct first_row probe, *hit;

	r->key = cJSON_IsString(k) ? k->valuestring : "";
	r->id = summary_id(r->item, "cell_id");
	probe.key = (char *)r->key;
	hit = nf ? bsearch(&probe, f, nf, sizeof(*f), by_first_key) : NULL;
	r->first = hit ? hit->id : r->id;
	r->index = hit ? hit->index : -1;
	return r->index < 0;
}

/* The fallback: the @n cells of @r without a stored index, by the run's config expanded. */
static void rank_expanded(sqlite3 *h, int64_t run_id, struct ranked *r, size_t n)
{
	struct cell *matrix = NULL, probe, *hit;
	size_t nm = 0, i;

	if (matrix_of(h, run_id, &matrix, &nm))
		return;
	for (i = 0; i < n; i++) {
		if (r[i].index >= 0)
			continue;
		snprintf(probe.key, sizeof(probe.key), "%s", r[i].key);
		hit = nm ? bsearch(&probe, matrix, nm, sizeof(*matrix), by_key) : NULL;
		r[i].index = hit ? hit->index : -1;
	}
	config_cells_free(matrix, nm);
}

/**
 * cell_order_sort() - put the cells of run @run_id in @cells (a JSON array
 * of objects with "cell_key" and "cell_id") in the matrix order described
 * at the top of this file. Returns 0, -ENOMEM or -EIO (a query failed: the
 * array is left as it was).
 */
int cell_order_sort(struct sqlite3 *h, int64_t run_id, struct cJSON *cells)
{
	size_t n = (size_t)cJSON_GetArraySize(cells), i = 0, missing = 0;
	struct ranked *r = calloc(n + 1, sizeof(*r));
	struct first_row *f;
	size_t nf;
	cJSON *c;
	int ret;

	if (!r)
		return -ENOMEM;
	ret = firsts_of(h, run_id, &f, &nf);
	if (ret) {
		free(r);
		return ret;
	}
	cJSON_ArrayForEach(c, cells) {
		r[i].item = c;
		missing += rank_stored(&r[i++], f, nf);
	}
	if (missing)
		rank_expanded(h, run_id, r, n);
	firsts_free(f, nf);
	qsort(r, n, sizeof(*r), by_rank);
	for (i = 0; i < n; i++)
		cJSON_DetachItemViaPointer(cells, r[i].item);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(cells, r[i].item);
	free(r);
	return 0;
}
