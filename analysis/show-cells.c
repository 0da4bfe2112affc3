// SPDX-License-Identifier: MIT
/*
 * show-cells.c - the cells table of `cvmbench show`: one row per cell with
 * the settings that tell the cells of the run apart as columns (every
 * dimension of the matrix, from cell_param, whose value is not the same in
 * all the run's cells; and `repeat` when repeats > 1), then status, N,
 * median with its 95 % interval and achieved coverage (as `compare` prints
 * it), p99, the function's own median and the cell's fidelity flags; a
 * legend under the table says what each status and column means. Its
 * text is as a terminal shows it (TEXT_TERM; the caller rewrites @run
 * with analysis_json_term()).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "config.h"
#include "show-cells.h"
#include "stats.h"
#include "summary.h"
#include "text-safe.h"

#define SHOW_MAX_COLS 24

struct show_col {
	char key[64];
	char **vals;              /* per cell, NULL: the cell lacks the key */
	int width;
};

struct show_cols {
	struct show_col c[SHOW_MAX_COLS];
	int n;
	size_t ncells;
};

static const char sql_params[] =
	"SELECT p.cell_id, p.key, p.value FROM cell_param AS p "
	"JOIN cell AS c ON c.id = p.cell_id WHERE c.run_id = ?1 ORDER BY p.key, p.cell_id";

/* A dimension of the matrix that tells cells apart (not a count of calls). */
static int is_setting(const char *key)
{
	const struct config_key *k;

	if (!strcmp(key, "repeat"))
		return 1;
	if (!strcmp(key, "invocations") || !strcmp(key, "warmup"))
		return 0;
	k = config_key_find(key);
	return k && k->matrix && !strcmp(k->name, key);
}

/* A cell's id and its row in the table (the cells come in matrix order). */
struct cell_pos {
	int64_t id;
	size_t row;
};

static int by_id(const void *a, const void *b)
{
	const struct cell_pos *x = a, *y = b;

	return (x->id > y->id) - (x->id < y->id);
}

/* The row of cell @id in @ids (sorted by id), or -1. */
static long cell_index(const struct cell_pos *ids, size_t n, int64_t id)
{
	struct cell_pos key = { id, 0 };
	const struct cell_pos *hit = n ? bsearch(&key, ids, n, sizeof(*ids), by_id) : NULL;

	return hit ? (long)hit->row : -1;
}

/* Keep column @col when its values differ between the cells, else free it. */
static void col_close(struct show_cols *s, struct show_col *col)
{
	size_t i;
	int differ = 0, l;

	for (i = 1; i < s->ncells; i++)
		differ |= !col->vals[i] != !col->vals[0] ||
			  (col->vals[i] && strcmp(col->vals[i], col->vals[0]));
	if (differ && s->n < SHOW_MAX_COLS - 1) {
		col->width = (int)strlen(col->key);
		for (i = 0; i < s->ncells; i++) {
			l = col->vals[i] ? (int)strlen(col->vals[i]) : 1;
			col->width = l > col->width ? l : col->width;
		}
		s->n++;
		return;
	}
	for (i = 0; i < s->ncells; i++)
		free(col->vals[i]);
	free(col->vals);
	col->vals = NULL;
}

static int read_cols(sqlite3_stmt *st, const struct cell_pos *ids, struct show_cols *s)
{
	struct show_col *col = NULL;
	const char *k;
	long i;

	while (analysis_step(st) == SQLITE_ROW) {
		k = (const char *)sqlite3_column_text(st, 1);
		if (!k || !is_setting(k))
			continue;
		if (!col || strcmp(col->key, k)) {
			if (col)
				col_close(s, col);
			col = &s->c[s->n];
			snprintf(col->key, sizeof(col->key), "%s", k);
			col->vals = calloc(s->ncells, sizeof(*col->vals));
			if (!col->vals)
				return -ENOMEM;
		}
		i = cell_index(ids, s->ncells, sqlite3_column_int64(st, 0));
		if (i >= 0 && !col->vals[i])
			col->vals[i] = text_dup((const char *)sqlite3_column_text(st, 2),
					       TEXT_TERM, 0);
	}
	if (col)
		col_close(s, col);
	return 0;
}

static void cols_free(struct show_cols *s)
{
	int j;
	size_t i;

	for (j = 0; j < s->n; j++) {
		for (i = 0; i < s->ncells; i++)
			free(s->c[j].vals[i]);
		free(s->c[j].vals);
	}
}

static int width_of(const cJSON *cells, const char *name, int min)
{
	const cJSON *c;
	int w = min, l;

	cJSON_ArrayForEach(c, cells) {
		l = (int)strlen(summary_str(c, name, "-"));
		w = l > w ? l : w;
	}
	return w;
}

/* "median [lo, hi] coverage%" of the latency, as compare prints a side. */
static const char *median_ci(const cJSON *lat, char *buf, size_t len)
{
	double m = summary_num(lat, "median"), lo = summary_num(lat, "ci_lo"),
	       hi = summary_num(lat, "ci_hi"), cov = summary_num(lat, "ci_level");

	if (isnan(m))
		return "-";
	if (isnan(lo) || isnan(hi) || isnan(cov))
		snprintf(buf, len, "%.4g", m);
	else
		snprintf(buf, len, "%.4g [%.4g, %.4g] %.1f%%", m, lo, hi, 100 * cov);
	return buf;
}

/* The fidelity flags of cell @key, "flag_a,flag_b", or "-". */
static const char *cell_flags(const cJSON *flags, const char *key, char *buf, size_t len)
{
	const cJSON *f;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(f, flags)
		if (!strcmp(summary_str(f, "cell_key", ""), key) && used < len)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "", summary_str(f, "name", "?"));
	return buf[0] ? buf : "-";
}

static void print_head(FILE *out, const struct show_cols *s, int kw, int mw)
{
	int j;

	fprintf(out, "cells:\n  %-*s", kw, "KEY");
	for (j = 0; j < s->n; j++)
		fprintf(out, " %-*s", s->c[j].width, s->c[j].key);
	fprintf(out, " %-11s %5s %-*s %9s %10s %s\n", "STATUS", "N", mw,
		"MEDIAN_MS [95% CI] COVERAGE", "P99_MS", "FN_MED_MS", "FLAGS");
}

static void print_rows(FILE *out, const cJSON *run, const struct show_cols *s, int kw)
{
	const cJSON *cells = cJSON_GetObjectItem(run, "cells"), *c;
	char med[96], p99[32], fn[32], fl[256];
	int j, mw = 27;
	size_t i = 0;

	cJSON_ArrayForEach(c, cells) {
		median_ci(cJSON_GetObjectItem(c, "latency_ms"), med, sizeof(med));
		mw = (int)strlen(med) > mw ? (int)strlen(med) : mw;
	}
	print_head(out, s, kw, mw);
	cJSON_ArrayForEach(c, cells) {
		fprintf(out, "  %-*s", kw, summary_str(c, "cell_key", "-"));
		for (j = 0; j < s->n; j++)
			fprintf(out, " %-*s", s->c[j].width,
				s->c[j].vals[i] ? s->c[j].vals[i] : "-");
		fprintf(out, " %-11s %5.0f %-*s %9s %10s %s\n", summary_str(c, "status", "-"),
			summary_num(c, "n_measured"), mw,
			median_ci(cJSON_GetObjectItem(c, "latency_ms"), med, sizeof(med)),
			summary_ms(cJSON_GetObjectItem(c, "latency_ms"), "p99", p99, sizeof(p99)),
			summary_ms(cJSON_GetObjectItem(c, "fn_ms"), "median", fn, sizeof(fn)),
			cell_flags(cJSON_GetObjectItem(run, "flags"),
				   summary_str(c, "cell_key", ""), fl, sizeof(fl)));
		i++;
	}
}

static void print_legend(FILE *out, const struct show_cols *s)
{
	fprintf(out, "  columns: %s; N: measured calls that succeeded\n",
		s->n ? "the settings whose value differs between the run's cells (- : the "
		"cell has no such key)" : "no setting differs between the run's cells");
	fprintf(out, "  status: ok measured; skipped not measured here (reason under skips); "
		"failed measuring failed (errors); interrupted stopped by a signal or a "
		"crash; running still being measured\n");
	fprintf(out, "  MEDIAN_MS [95%% CI] COVERAGE: median round trip, its distribution-free "
		"interval (order statistics) and the coverage it achieves (below 95 %% "
		"for N < 6: then [min, max])\n");
	fprintf(out, "  P99_MS: given from %d calls on (- : fewer; it would be one of the "
		"largest few); FN_MED_MS: the function's own median time; FLAGS: fidelity "
		"flags, explained under flags\n", STATS_P99_MIN_N);
}

/**
 * show_cells_print() - print the cells of @run (the "run" object of
 * summary_build(), run id @run_id) to @out as described at the top of this
 * file. Returns 0 or -errno (a query failed: reported).
 */
int show_cells_print(struct sqlite3 *h, int64_t run_id, const struct cJSON *run, FILE *out)
{
	const cJSON *cells = cJSON_GetObjectItem(run, "cells");
	struct show_cols s = { .ncells = (size_t)cJSON_GetArraySize(cells) };
	struct cell_pos *ids = calloc(s.ncells + 1, sizeof(*ids));
	const cJSON *c;
	sqlite3_stmt *st;
	size_t i = 0;
	int ret;

	if (!ids)
		return -ENOMEM;
	cJSON_ArrayForEach(c, cells) {
		ids[i].id = summary_id(c, "cell_id");
		ids[i].row = i;
		i++;
	}
	qsort(ids, s.ncells, sizeof(*ids), by_id);
	if (analysis_prepare(h, sql_params, run_id, &st)) {
		free(ids);
		return -EINVAL;
	}
	ret = s.ncells ? read_cols(st, ids, &s) : 0;
	sqlite3_finalize(st);
	free(ids);
	if (!ret) {
		print_rows(out, run, &s, width_of(cells, "cell_key", 4));
		print_legend(out, &s);
	}
	cols_free(&s);
	return ret;
}
