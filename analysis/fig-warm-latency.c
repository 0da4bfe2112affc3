// SPDX-License-Identifier: MIT
/*
 * fig-warm-latency.c - data of the warm-latency figure: one x position per
 * warm cell of the run, with the quantiles of its measured warm-start
 * latencies (harness round trip; lib/stats.c). Cells are ordered by
 * workload, size, threads, runtime (the cell's `runtime`, c or python, so
 * a function's two runtimes stand side by side), then cell id. The label is what differs between
 * the cells: workload, size, threads when they do, plus every other config
 * key that is not the same in all cells (cell-label.c); what they share is
 * in the title (gnuplot variable common). Log scale on y when the largest median is more than 20
 * times the smallest. Values in ms, or in µs when every p95 is under 1 ms
 * (gnuplot variable unit).
 *
 * Columns: x, label, min, p5, p25, median, p75, p95, max, n, workload no.,
 * runtime (0 when every cell has the same runtime, else 1 for c, 2 for
 * python: the gnuplot script hatches the Python boxes; gnuplot variable
 * runtimes is 1 then).
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
	char workload[48], size[8], experiment[64];
	int threads;
	int wl_no;                        /* 1-based workload number, for colour */
	int python;                       /* runtime = python */
	const struct stats_summary *lat;
};

static const char sql_cells[] =
	"SELECT cell_id, workload, size, threads, experiment, "
	"COALESCE((SELECT value FROM cell_param WHERE cell_id = l.cell_id "
	"AND key = 'runtime'), 'c') = 'python' AS python FROM v_cell_latency AS l "
	"WHERE run_id = ?1 AND mode = 'warm' AND NOT service ORDER BY workload, "
	"CASE size WHEN 'test' THEN 0 WHEN 'small' THEN 1 WHEN 'large' THEN 2 "
	"ELSE 3 END, size, threads, python, cell_id";

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
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		c.id = sqlite3_column_int64(st, 0);
		col_copy(c.workload, sizeof(c.workload), st, 1);
		col_copy(c.size, sizeof(c.size), st, 2);
		c.threads = sqlite3_column_int(st, 3);
		col_copy(c.experiment, sizeof(c.experiment), st, 4);
		c.python = sqlite3_column_int(st, 5);
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

/*
 * Which of workload, size, threads (bits 0-2) and runtime (bit 3: not in
 * the label, cell-label.c names it; the boxes' fill) differ between the cells.
 */
static int differing(const struct wl_cell *v, size_t n)
{
	size_t i;
	int d = 0;

	for (i = 1; i < n; i++) {
		d |= strcmp(v[i].workload, v[0].workload) ? 1 : 0;
		d |= strcmp(v[i].size, v[0].size) ? 2 : 0;
		d |= v[i].threads != v[0].threads ? 4 : 0;
		d |= v[i].python != v[0].python ? 8 : 0;
	}
	return d;
}

/* The thread count more than half of the cells have (from three on), or -1. */
static int threads_majority(const struct wl_cell *v, size_t n)
{
	size_t i, k, c;

	for (i = 0; n >= 3 && i < n; i++) {
		for (c = 0, k = 0; k < n; k++)
			c += v[k].threads == v[i].threads;
		if (2 * c > n)
			return v[i].threads;
	}
	return -1;
}

/*
 * The parts of "workload/size/threads=N" that differ (@d), then @extra
 * (the other keys that differ, cell-label.c); the workload alone when
 * nothing differs. gp_data_string() quotes it.
 */
static void label(const struct wl_cell *c, int d, int most, const char *extra,
		  char *buf, size_t len)
{
	char th[24];

	if (c->threads == most)     /* the backdrop, as cell-label.c leaves it out */
		d &= ~4;
	if (c->threads)
		snprintf(th, sizeof(th), "threads=%d", c->threads);
	else
		snprintf(th, sizeof(th), "threads=auto");
	snprintf(buf, len, "%s%s%s%s%s%s", d & 1 ? c->workload : "",
		 d & 2 ? "/" : "", d & 2 ? c->size : "", d & 4 ? "/" : "", d & 4 ? th : "",
		 extra);
	if (buf[0] == '/')
		memmove(buf, buf + 1, strlen(buf));
	if (!buf[0])
		snprintf(buf, len, "%s", c->workload);
}

/* Labels that are the same for two cells get their experiment appended. */
static void label_unique(const struct wl_cell *v, size_t n, char (*lab)[256])
{
	size_t i, k, l;
	char *dup = calloc(n ? n : 1, 1);

	for (i = 0; dup && i < n; i++)
		for (k = i + 1; k < n; k++)
			if (!strcmp(lab[i], lab[k]))
				dup[i] = dup[k] = 1;
	for (i = 0; dup && i < n; i++) {
		l = strlen(lab[i]);
		if (dup[i])
			snprintf(lab[i] + l, 256 - l, " (%s)", v[i].experiment);
	}
	free(dup);
}

/* What all cells share, for the title: "size test, 1 thread". */
static void common(struct figure_ctx *ctx, const struct wl_cell *c, int d)
{
	char buf[160] = "";

	if (!(d & 2))
		snprintf(buf, sizeof(buf), "size %s", c->size);
	if (!(d & 4))
		snprintf(buf + strlen(buf), sizeof(buf) - strlen(buf), "%sthreads %s%.0d",
			 buf[0] ? ", " : "", c->threads ? "" : "auto", c->threads);
	figure_var_str(ctx, "common", buf);
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
	char (*lab)[256] = calloc(n, sizeof(*lab));
	int64_t *ids = calloc(n, sizeof(*ids));
	double k = unit_scale(v, n);
	size_t i, longest = 0;

	if (!extra || !ids || !lab) {
		free(extra);
		free(ids);
		free(lab);
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		ids[i] = v[i].id;
	cell_label_extras(ctx->h, ctx->run_id, ids, n, extra);
	int d = differing(v, n), most = threads_majority(v, n);

	common(ctx, v, d);
	for (i = 0; i < n; i++)
		label(&v[i], d, most, extra[i], lab[i], sizeof(lab[i]));
	label_unique(v, n, lab);
	fprintf(ctx->data, "# x label min p5 p25 median p75 p95 max n workload runtime\n");
	for (i = 0; i < n; i++) {
		const struct stats_summary *s = v[i].lat;

		figure_source(ctx, v[i].id, (long long)s->n, "invocations");
		longest = gp_label_len(lab[i]) > longest ? gp_label_len(lab[i]) : longest;
		fprintf(ctx->data, "%zu ", i + 1);
		gp_data_string(ctx->data, lab[i]);
		fprintf(ctx->data, " %.6g %.6g %.6g %.6g %.6g %.6g %.6g %zu %d %d\n", k * s->min,
			k * s->p5, k * s->p25, k * s->median, k * s->p75, k * s->p95,
			k * s->max, s->n, v[i].wl_no, d & 8 ? 1 + v[i].python : 0);
	}
	write_vars(ctx, v, n, k, longest);
	figure_var_int(ctx, "runtimes", !!(d & 8));
	free(lab);
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
	"warm-latency.gp", fig_warm_latency_data, 0,
};
