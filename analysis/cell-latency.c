// SPDX-License-Identifier: MIT
/*
 * cell-latency.c - read the measured invocations of a run cell by cell (from
 * the v_invocation_measured view) and summarize each cell's latency and
 * function time with lib/stats.c: SQLite has no percentile function.
 */
#include <errno.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-latency.h"
#include "log.h"

/* A growable sample of doubles. */
struct sample {
	double *v;
	size_t n, cap;
};

static int sample_push(struct sample *s, double x)
{
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;
		double *v = realloc(s->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = x;
	return 0;
}

/* Summarize the samples of @cell_id into a new element of @out. */
static int flush_cell(int64_t cell_id, struct sample *lat, struct sample *fn,
		      struct cell_latency **out, size_t *n)
{
	struct cell_latency *v = realloc(*out, (*n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	*out = v;
	v += (*n)++;
	v->cell_id = cell_id;
	stats_summarize(lat->v, lat->n, &v->lat_ms);
	stats_summarize(fn->v, fn->n, &v->fn_ms);
	lat->n = fn->n = 0;
	return 0;
}

static const char sql_measured[] =
	"SELECT cell_id, latency_ms, fn_ms FROM v_invocation_measured "
	"WHERE run_id = ?1 AND (?2 IS NULL OR start = ?2) ORDER BY cell_id";

static int read_rows(struct sqlite3_stmt *st, struct sample *lat,
		     struct sample *fn, struct cell_latency **out, size_t *n)
{
	int64_t cur = -1, id;
	int rc, ret = 0;

	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW) {
		id = sqlite3_column_int64(st, 0);
		if (id != cur && cur >= 0)
			ret = flush_cell(cur, lat, fn, out, n);
		cur = id;
		if (!ret)
			ret = sample_push(lat, sqlite3_column_double(st, 1));
		if (!ret && sqlite3_column_type(st, 2) != SQLITE_NULL)
			ret = sample_push(fn, sqlite3_column_double(st, 2));
	}
	if (!ret && rc != SQLITE_DONE && rc != SQLITE_ROW)
		ret = -EIO;
	if (!ret && cur >= 0)
		ret = flush_cell(cur, lat, fn, out, n);
	return ret;
}

/**
 * latency_load() - summaries of every cell of @run_id that has measured,
 * successful invocations, in cell id order. @start limits them to "warm"
 * or "cold" starts (NULL: both). *@out is malloc'ed (free() it). Returns 0
 * or -errno (reported).
 */
int latency_load(struct sqlite3 *h, int64_t run_id, const char *start,
		 struct cell_latency **out, size_t *n)
{
	struct sample lat = { 0 }, fn = { 0 };
	struct sqlite3_stmt *st;
	int ret;

	*out = NULL;
	*n = 0;
	if (analysis_prepare(h, sql_measured, run_id, &st))
		return -EINVAL;
	if (start)
		sqlite3_bind_text(st, 2, start, -1, SQLITE_STATIC);
	ret = read_rows(st, &lat, &fn, out, n);
	if (ret && ret != -EIO)         /* -EIO: reported by analysis_step() */
		pr_err("reading invocations: out of memory");
	sqlite3_finalize(st);
	free(lat.v);
	free(fn.v);
	if (ret) {
		free(*out);
		*out = NULL;
		*n = 0;
	}
	return ret;
}

/**
 * latency_find() - the summary of @cell_id in @v (sorted by cell id, as
 * latency_load() returns it), or NULL when the cell has no measurement.
 */
const struct cell_latency *latency_find(const struct cell_latency *v, size_t n,
					int64_t cell_id)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (v[mid].cell_id == cell_id)
			return &v[mid];
		if (v[mid].cell_id < cell_id)
			lo = mid + 1;
		else
			hi = mid;
	}
	return NULL;
}
