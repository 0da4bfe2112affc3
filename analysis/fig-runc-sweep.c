// SPDX-License-Identifier: MIT
/*
 * fig-runc-sweep.c - data of the study's Fig. 8 a-d: container cold start
 * (fork of the runtime to the reply of the first call, per start, from
 * the runc probe) against one runc dimension - cpus, cpu-quota, corunner
 * or parallel - one line per runtime and other setting (gnuplot `index`
 * blocks, each headed by a row holding its title, read as columnheader).
 *
 * Columns: x, median, p25, p75 (ms), mean lock-blocked ms per start,
 * mean total ms per start (with teardown), N (the starts of the point),
 * the x tick label. Every swept key is an integer: ticks only at the
 * values measured. cpus = 0 means all CPUs: drawn at the machine's CPU
 * count as the run recorded it (topology.online_cpus, env-topology.c),
 * ticked "N (all)"; left out when the run did not record it. A line
 * joins the points only from three points on (`maxpts`): two points are
 * two points, not a trend. A point at the key's default measured by
 * another experiment than the line's other points (quick-runc-cold's
 * plain runc start as the baseline of quick-runc-cpus) is marked as such:
 * column 9 is 1, ringed in the figure, and the key says which experiment
 * (variable baseline: "ringed: baseline from quick-runc-cold").
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "fig-runc.h"
#include "figures.h"
#include "analysis.h"
#include "gp-string.h"

static int by_series(const void *pa, const void *pb)
{
	const struct runc_cell *a = pa, *b = pb;
	int r = strcmp(a->series, b->series);

	return r ? r : (a->x > b->x) - (a->x < b->x);
}

/* The x tick of @c: its value, "N (all)" for cpus = 0 drawn at N. */
static void tick(const struct runc_cell *c, char *buf, size_t len)
{
	if (c->all)
		snprintf(buf, len, "%g (all)", c->x);
	else
		snprintf(buf, len, "%g", c->x);
}

/* The experiment of cell @id into @buf ("" if unknown). */
static void cell_experiment(struct figure_ctx *ctx, int64_t id, char *buf, size_t len)
{
	sqlite3_stmt *st;

	buf[0] = '\0';
	if (analysis_prepare(ctx->h, "SELECT experiment FROM cell WHERE id = ?", id, &st))
		return;
	if (analysis_step(st) == SQLITE_ROW)
		snprintf(buf, len, "%s", (const char *)sqlite3_column_text(st, 0) ?: "");
	sqlite3_finalize(st);
}

/*
 * Whether point @k of the line [@i, @j) is at the default @def (or "all")
 * and was measured by another experiment than the line's first point off
 * the default; that experiment is appended to @from (", "-joined, once).
 */
static int other_baseline(struct figure_ctx *ctx, const struct runc_cell *v,
			  size_t i, size_t j, size_t k, double def, char *from, size_t len)
{
	char own[128] = "", exp[128];
	size_t m, l = strlen(from);

	if (!v[k].all && v[k].x != def)
		return 0;
	for (m = i; m < j && !own[0]; m++)
		if (!v[m].all && v[m].x != def)
			cell_experiment(ctx, v[m].id, own, sizeof(own));
	cell_experiment(ctx, v[k].id, exp, sizeof(exp));
	if (!own[0] || !exp[0] || !strcmp(own, exp))
		return 0;
	if (!strstr(from, exp) && l + strlen(exp) + 3 < len)
		snprintf(from + l, len - l, "%s%s", l ? ", " : "", exp);
	return 1;
}

/* The key's text for the ringed points, as a quoted gnuplot string. */
static void baseline_var(struct figure_ctx *ctx, const char *from)
{
	char text[600];

	snprintf(text, sizeof(text), "%s%s", from[0] ? "ringed: baseline from " : "", from);
	figure_var_str(ctx, "baseline", text);
}

static size_t write_blocks(struct figure_ctx *ctx, struct runc_cell *v, size_t n,
			   double def)
{
	size_t i, j, k, blocks = 0, maxpts = 0;
	char t[48], from[512] = "";

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[i].series, v[j].series); j++)
			;
		if (j - i < 2)
			continue;
		maxpts = j - i > maxpts ? j - i : maxpts;
		gp_data_string(ctx->data, v[i].series);
		fprintf(ctx->data, " median p25 p75 blocked total n tick baseline\n");
		for (k = i; k < j; k++) {
			figure_source(ctx, v[k].id, (long long)v[k].nstarts, "container starts");
			fprintf(ctx->data, "%g %.4f %.4f %.4f %.4f %.4f %zu ", v[k].x, v[k].median_ms,
				v[k].p25_ms, v[k].p75_ms, v[k].blocked_ms, v[k].total_ms,
				v[k].nstarts);
			tick(&v[k], t, sizeof(t));
			gp_data_string(ctx->data, t);
			fprintf(ctx->data, " %d\n", other_baseline(ctx, v, i, j, k, def,
								     from, sizeof(from)));
		}
		fprintf(ctx->data, "\n\n");
		blocks++;
	}
	figure_var_int(ctx, "nblocks", (long long)blocks);
	figure_var_int(ctx, "maxpts", (long long)maxpts);
	baseline_var(ctx, from);
	return blocks;
}

/* The CPUs the run's machine had online (env-topology.c); 0 if not recorded. */
static int online_cpus(struct figure_ctx *ctx)
{
	sqlite3_stmt *st;
	int n = 0;

	if (analysis_prepare(ctx->h, "SELECT CAST(value AS INTEGER) FROM environment WHERE "
			     "run_id = ?1 AND key = 'topology.online_cpus'", ctx->run_id, &st))
		return 0;
	if (analysis_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n > 0 ? n : 0;
}

/* Keep the cells with starts at a value of the key; cpus = 0 at @all_x. */
static size_t keep_points(struct runc_cell *cells, size_t n, int all_x)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		cells[i].all = all_x >= 0 && cells[i].x == 0;
		if (cells[i].all && all_x > 0)
			cells[i].x = all_x;
		if (cells[i].x < 0 || (cells[i].all && !all_x) || !cells[i].nstarts)
			continue;
		cells[k++] = cells[i];
	}
	if (k)   /* qsort(NULL, 0, ...) is undefined (UBSan) */
		qsort(cells, k, sizeof(*cells), by_series);
	return k;
}

/*
 * @key's values; @has_all: 0 of cpus means all CPUs (online_cpus());
 * @def: the key's default (config-keys.c), the baseline of the sweep.
 */
static int sweep_data(struct figure_ctx *ctx, const char *key, int has_all, double def,
		      const char *xlabel)
{
	struct runc_cell *cells = NULL;
	size_t n = 0, k = 0;
	int ret = runc_cells_load(ctx->h, ctx->run_id, key, &cells, &n);

	if (!ret)
		k = keep_points(cells, n, has_all ? online_cpus(ctx) : -1);
	figure_var_str(ctx, "xlabel", xlabel);
	figure_var_int(ctx, "run", ctx->run_id);
	if (!ret && !write_blocks(ctx, cells, k, def)) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no runtime measured at two "
			 "or more values of %s with the runc probe", (long long)ctx->run_id, key);
		ret = -ENODATA;
	}
	free(cells);
	return ret;
}

/** fig_runc_cpus_data() - Fig. 8a: cold start against cpus. */
int fig_runc_cpus_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "cpus", 1, 0, "CPUs the runtime may use");
}

/** fig_runc_quota_data() - Fig. 8b: cold start against cpu-quota. */
int fig_runc_quota_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "cpu-quota", 0, 100, "CPU quota of the runtime (% of a period)");
}

/** fig_runc_corunner_data() - Fig. 8c: cold start against co-runner threads. */
int fig_runc_corunner_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "corunner", 0, 0, "CPU-bound co-runner threads");
}

/** fig_runc_parallel_data() - Fig. 8d: per-start cold start against parallel starts. */
int fig_runc_parallel_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "parallel", 0, 1, "simultaneous starts");
}

const struct figure figure_runc_cpus = {
	"runc-cpus", "Fig. 8a: container cold start against the CPUs of the runtime",
	"runc-sweep.gp", fig_runc_cpus_data, 0,
};

const struct figure figure_runc_quota = {
	"runc-quota", "Fig. 8b: container cold start against the runtime's CPU quota",
	"runc-sweep.gp", fig_runc_quota_data, 0,
};

const struct figure figure_runc_corunner = {
	"runc-corunner", "Fig. 8c: container cold start next to CPU-bound threads",
	"runc-sweep.gp", fig_runc_corunner_data, 0,
};

const struct figure figure_runc_parallel = {
	"runc-parallel", "Fig. 8d: container cold start per start, K starts at once",
	"runc-sweep.gp", fig_runc_parallel_data, 0,
};
