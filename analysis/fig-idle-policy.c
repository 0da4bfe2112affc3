// SPDX-License-Identifier: MIT
/*
 * fig-idle-policy.c - data of the idle-policy figure: one x position per
 * idle cell of the run (a warm cell with the idle or cpu probe and
 * measured latency; analysis/idle-cells.c order: workload, size, threads,
 * policy), with its latency (median and quartiles, ms), halt entries per
 * invocation (idle probe) and CPU burnt (cpu probe, %). The policy is
 * drawn under its own name and colour (spin is spin, never poll).
 *
 * Columns: x, label, colour (0xRRGGBB), median, p25, p75, mean,
 * halt entries per call (NaN: no idle probe), CPU burnt % (NaN: no cpu probe),
 * the label of the halt panel (with "[source]" of the entries when cells
 * got them from different sources, idle.entries_source), N (measured invocations).
 * Variables: logy, ncells, run, havehalt (0|1), haltsource (the one
 * source, else ''), haltnote (why no halt entries).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "gp-string.h"
#include "idle-cells.h"

#define LOGY_SPREAD 20.0

static void label(const struct idle_cell *c, int many_threads, int many_sizes,
		  char *buf, size_t len)
{
	int l = snprintf(buf, len, "%s", c->workload);

	if (many_sizes && l < (int)len)
		l += snprintf(buf + l, len - l, "/%s", c->size);
	if (many_threads && l < (int)len) {
		if (c->threads)
			l += snprintf(buf + l, len - l, "/%dt", c->threads);
		else
			l += snprintf(buf + l, len - l, "/auto-t");
	}
	if (l < (int)len)
		snprintf(buf + l, len - l, " %s", c->idle);
}

static double or_nan(double v)
{
	return isnan(v) ? NAN : v;
}

/* Column 10: the label, and "[tracefs]" (its entries' source) when cells differ. */
static void halt_label(FILE *f, const struct idle_cell *c, const char *lab, int mixed)
{
	char buf[240];

	snprintf(buf, sizeof(buf), "%s%s%.*s%s", lab, mixed && c->source[0] ? " [" : "",
		 mixed ? (int)strcspn(c->source, " ") : 0, c->source,
		 mixed && c->source[0] ? "]" : "");
	fputc(' ', f);
	gp_data_string(f, buf);
}

static void write_rows(struct figure_ctx *ctx, const struct idle_cell *v, size_t n)
{
	int many_threads = 0, many_sizes = 0, mixed = !idle_common_source(v, n);
	double lo = v[0].median_ms, hi = lo;
	char lab[160];
	size_t i;

	for (i = 1; i < n; i++) {
		many_threads |= v[i].threads != v[0].threads;
		many_sizes |= strcmp(v[i].size, v[0].size) != 0;
	}
	fprintf(ctx->data, "# x label colour median p25 p75 mean halt_per_call burnt_pct "
		"halt_label n\n");
	for (i = 0; i < n; i++) {
		figure_source(ctx, v[i].id, (long long)v[i].n, "invocations");
		label(&v[i], many_threads, many_sizes, lab, sizeof(lab));
		fprintf(ctx->data, "%zu ", i + 1);
		gp_data_string(ctx->data, lab);
		fprintf(ctx->data, " %u %.6g %.6g %.6g %.6g %.6g %.6g",
			idle_policy_rgb(v[i].idle), v[i].median_ms, v[i].p25_ms,
			v[i].p75_ms, v[i].mean_ms, or_nan(v[i].halt_per_inv),
			or_nan(v[i].burnt_pct));
		halt_label(ctx->data, &v[i], lab, mixed);
		fprintf(ctx->data, " %zu\n", v[i].n);
		lo = v[i].median_ms < lo ? v[i].median_ms : lo;
		hi = v[i].median_ms > hi ? v[i].median_ms : hi;
	}
	figure_var_int(ctx, "logy", lo > 0 && hi / lo > LOGY_SPREAD);
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "run", ctx->run_id);
	idle_halt_vars(ctx, v, n);
}

/**
 * fig_idle_policy_data() - write the idle-policy data (see the top of this
 * file). Returns 0, -ENODATA when the run has no idle cell, or -errno.
 */
int fig_idle_policy_data(struct figure_ctx *ctx)
{
	struct idle_cell *cells = NULL, *v;
	size_t n = 0, i, k = 0;
	int ret = idle_cells_load(ctx->h, ctx->run_id, &cells, &n);

	v = cells;
	for (i = 0; !ret && i < n; i++)   /* keep the cells of idle experiments */
		if (cells[i].idle_probes)
			v[k++] = cells[i];
	if (!ret && !k) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no measured warm cell "
			 "with the idle or cpu probe (probes = latency, idle, cpu)",
			 (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret)
		write_rows(ctx, v, k);
	free(cells);
	return ret;
}

const struct figure figure_idle_policy = {
	"idle-policy",
	"Table III: latency and halt entries per call for each guest idle policy",
	"idle-policy.gp", fig_idle_policy_data, 0,
};
