// SPDX-License-Identifier: MIT
/*
 * cell-order.c - the cells of a run in the config's matrix order, as
 * `run --dry-run` lists them and the run measures them. The cell table
 * holds no index in the matrix, and a cell measured again (run --resume,
 * run --only) has a newer row with a larger id, so ORDER BY id would list
 * it after all the others, and a merged study its shards one after the
 * other. The order comes from the run's own config text, expanded again
 * (config_expand()) and each cell found by its key. A cell the expansion
 * has not (a config this version cannot read or expand, e.g. more cells
 * than the default --max-cells) comes after those it has, in the order of
 * its key's first row in the run (the order it was first measured in,
 * which is the matrix order unless --only measured it out of turn).
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

struct ranked {
	cJSON *item;
	long index;               /* in the matrix; -1: not found there */
	int64_t first;            /* id of the key's first row in the run */
	int64_t id;
};

/* A key's first row in the run. */
struct first_row {
	char *key;
	int64_t id;
};

/* Every key's first row in one query (one per cell was quadratic: run_id is all the index). */
static const char sql_first[] =
	"SELECT cell_key, min(id) FROM main.cell WHERE run_id = ?1 AND cell_key IS NOT NULL "
	"GROUP BY cell_key";

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
	return g[*n].key ? (++*n, 0) : -ENOMEM;
}

/* Each key's first row of run @run_id, sorted by key. 0, -ENOMEM or -EIO. */
static int firsts_of(sqlite3 *h, int64_t run_id, struct first_row **f, size_t *n)
{
	size_t cap = 0;
	sqlite3_stmt *st;
	int ret = 0, rc;

	*f = NULL;
	*n = 0;
	if (analysis_prepare(h, sql_first, run_id, &st))
		return -EIO;
	while (!ret && (rc = sqlite3_step(st)) == SQLITE_ROW)
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
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0) &&
	    !config_load_string("(config of the run)", (const char *)sqlite3_column_text(st, 0),
				&cfg, err, sizeof(err)))
		ret = config_expand(cfg, cells, n, err, sizeof(err));
	sqlite3_finalize(st);
	config_free(cfg);
	if (!ret)
		qsort(*cells, *n, sizeof(**cells), by_key);
	return ret;
}

/* Rank @r: its cell's index in @cells (sorted by key), its key's first row in @f. */
static void rank(struct ranked *r, const struct cell *cells, size_t n,
		 const struct first_row *f, size_t nf)
{
	const cJSON *k = cJSON_GetObjectItem(r->item, "cell_key");
	const cJSON *id = cJSON_GetObjectItem(r->item, "cell_id");
	const char *key = cJSON_IsString(k) ? k->valuestring : "";
	struct first_row fprobe = { (char *)key, 0 }, *fhit;
	struct cell probe, *hit;

	snprintf(probe.key, sizeof(probe.key), "%s", key);
	hit = n ? bsearch(&probe, cells, n, sizeof(*cells), by_key) : NULL;
	r->index = hit ? hit->index : -1;
	r->id = cJSON_IsNumber(id) ? (int64_t)id->valuedouble : 0;
	fhit = nf ? bsearch(&fprobe, f, nf, sizeof(*f), by_first_key) : NULL;
	r->first = fhit ? fhit->id : r->id;
}

/**
 * cell_order_sort() - put the cells of run @run_id in @cells (a JSON array
 * of objects with "cell_key" and "cell_id") in the matrix order described
 * at the top of this file. Returns 0, -ENOMEM or -EIO (a query failed: the
 * array is left as it was).
 */
int cell_order_sort(struct sqlite3 *h, int64_t run_id, struct cJSON *cells)
{
	size_t n = (size_t)cJSON_GetArraySize(cells), nm = 0, i = 0;
	struct ranked *r = calloc(n + 1, sizeof(*r));
	struct cell *matrix = NULL;
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
	if (n)
		matrix_of(h, run_id, &matrix, &nm);
	cJSON_ArrayForEach(c, cells) {
		r[i].item = c;
		rank(&r[i++], matrix, nm, f, nf);
	}
	firsts_free(f, nf);
	config_cells_free(matrix, nm);
	qsort(r, n, sizeof(*r), by_rank);
	for (i = 0; i < n; i++)
		cJSON_DetachItemViaPointer(cells, r[i].item);
	for (i = 0; i < n; i++)
		cJSON_AddItemToArray(cells, r[i].item);
	free(r);
	return 0;
}
