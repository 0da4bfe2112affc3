// SPDX-License-Identifier: MIT
/*
 * fig-warm-latency.c - data of the warm-latency figure: one x position per
 * warm cell of the run, with the quantiles of its measured warm-start
 * latencies (harness round trip; bench/lib/stats.c). Cells are ordered by
 * workload, size, threads, then cell id. The label is workload/size/
 * threads plus every other config key that is not the same in all cells
 * (cell-label.c). Log scale on y when the largest median is more than 20
 * times the smallest. Values in ms, or in µs when every p95 is under 1 ms
 * (gnuplot variable unit).
 *
 * Columns: x, label, min, p5, p25, median, p75, p95, max, n, workload no.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-label.h"
#include "figures.h"
#include "cell-latency.h"
#include "gp-string.h"
#include "log.h"

#define LOGY_SPREAD 20.0

struct wl_cell {
	int64_t id;
	char workload[48], size[8];
	int threads;
	int wl_no;                        /* 1-based workload number, for colour */
	const struct stats_summary *lat;
};

static const char sql_cells[] =
	"SELECT cell_id, workload, size, threads FROM v_cell_latency "
	"WHERE run_id = ?1 AND mode = 'warm' ORDER BY workload, "
	"CASE size WHEN 'test' THEN 0 WHEN 'small' THEN 1 WHEN 'large' THEN 2 "
	"ELSE 3 END, size, threads, cell_id";

static void col_copy(char *dst, size_t len, struct sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", s ? s : "");
}

/* The warm cells of the run that have measured warm starts, in order. */
static int load_cells(struct figure_ctx *ctx, const struct cell_latency *lat,
		      size_t nlat, struct wl_cell **out, size_t *n)
{
	const struct cell_latency *l;
	struct sqlite3_stmt *st;
	struct wl_cell c = { 0 }, *v;
	int rc;

	if (analysis_prepare(ctx->h, sql_cells, ctx->run_id, &st))
		return -EINVAL;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		c.id = sqlite3_column_int64(st, 0);
		col_copy(c.workload, sizeof(c.workload), st, 1);
		col_copy(c.size, sizeof(c.size), st, 2);
		c.threads = sqlite3_column_int(st, 3);
		l = latency_find(lat, nlat, c.id);
		if (!l || !l->lat_ms.n)
			continue;
		c.lat = &l->lat_ms;
		c.wl_no = *n && !strcmp((*out)[*n - 1].workload, c.workload) ?
			  (*out)[*n - 1].wl_no : (*n ? (*out)[*n - 1].wl_no + 1 : 1);
		v = realloc(*out, (*n + 1) * sizeof(*v));
		if (!v)
			break;
		*out = v;
		v[(*n)++] = c;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* "workload/size/Nt" + @extra (gp_data_string() quotes it). */
static void label(const struct wl_cell *c, const char *extra, char *buf,
		  size_t len)
{
	char th[16];

	if (c->threads)
		snprintf(th, sizeof(th), "%dt", c->threads);
	else
		snprintf(th, sizeof(th), "auto-t");
	snprintf(buf, len, "%s/%s/%s%s", c->workload, c->size, th, extra);
}

/* 1000 (µs) when every p95 is under 1 ms, else 1 (ms). */
static double unit_scale(const struct wl_cell *v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].lat->p95 >= 1.0)
			return 1;
	return 1000;
}

static void write_vars(struct figure_ctx *ctx, const struct wl_cell *v,
		       size_t n, double k, size_t longest)
{
	double lo = v[0].lat->median, hi = lo;
	size_t i;

	for (i = 1; i < n; i++) {
		lo = v[i].lat->median < lo ? v[i].lat->median : lo;
		hi = v[i].lat->median > hi ? v[i].lat->median : hi;
	}
	figure_var_int(ctx, "logy", lo > 0 && hi / lo > LOGY_SPREAD);
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "run", ctx->run_id);
	figure_var_str(ctx, "unit", k > 1 ? "µs" : "ms");
	figure_var_int(ctx, "maxlabel", (long long)longest);
}

static int write_rows(struct figure_ctx *ctx, const struct wl_cell *v, size_t n)
{
	char (*extra)[CELL_LABEL_MAX] = calloc(n, sizeof(*extra));
	int64_t *ids = calloc(n, sizeof(*ids));
	double k = unit_scale(v, n);
	size_t i, longest = 0;
	char lab[256];

	if (!extra || !ids) {
		free(extra);
		free(ids);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ids[i] = v[i].id;
	cell_label_extras(ctx->h, ctx->run_id, ids, n, extra);
	fprintf(ctx->data, "# x label min p5 p25 median p75 p95 max n workload\n");
	for (i = 0; i < n; i++) {
		const struct stats_summary *s = v[i].lat;

		label(&v[i], extra[i], lab, sizeof(lab));
		longest = strlen(lab) > longest ? strlen(lab) : longest;
		fprintf(ctx->data, "%zu ", i + 1);
		gp_data_string(ctx->data, lab);
		fprintf(ctx->data, " %.6g %.6g %.6g %.6g %.6g %.6g %.6g %zu %d\n", k * s->min,
			k * s->p5, k * s->p25, k * s->median, k * s->p75, k * s->p95,
			k * s->max, s->n, v[i].wl_no);
	}
	write_vars(ctx, v, n, k, longest);
	free(extra);
	free(ids);
	return 0;
}

/**
 * fig_warm_latency_data() - write the warm-latency data (see the top of
 * this file) to @ctx->data. Returns 0, -ENODATA when the run has no
 * measured warm start, or -errno.
 */
int fig_warm_latency_data(struct figure_ctx *ctx)
{
	struct cell_latency *lat = NULL;
	struct wl_cell *cells = NULL;
	size_t nlat = 0, n = 0;
	int ret;

	ret = latency_load(ctx->h, ctx->run_id, "warm", &lat, &nlat);
	if (!ret)
		ret = load_cells(ctx, lat, nlat, &cells, &n);
	if (!ret && !n) {
		snprintf(ctx->why, sizeof(ctx->why),
			 "run %lld has no successful measured warm invocation",
			 (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret)
		ret = write_rows(ctx, cells, n);
	free(cells);
	free(lat);
	return ret;
}

const struct figure figure_warm_latency = {
	"warm-latency",
	"warm-start latency per cell: median, 25-75 % box, 5-95 % whiskers",
	"warm-latency.gp", fig_warm_latency_data,
};
