// SPDX-License-Identifier: MIT
/*
 * fig-idle-policy.c - data of the idle-policy figure: one x position per
 * idle cell of the run (a warm cell with the idle or cpu probe, or with VM
 * exits under an idle policy it set, and measured latency), one data block
 * (series) per VM type (idle-cells.h: native, container, regular, model,
 * sev-snp, tdx, in that order; a gap of one x between blocks), within it
 * analysis/idle-cells.c order: workload, size, threads, policy. Each with
 * its latency (median and quartiles, ms), halt entries per invocation
 * (idle probe, in the guest), CPU burnt (cpu probe, %) and the host's VM
 * exits of the cell window (vmexit probe, idle-exits.c). The policy is
 * drawn under its own name and colour (spin is spin, never poll); the VM
 * type leads the label when the run has more than one.
 *
 * A block starts with the comment "# VM type: NAME". Columns: x, label,
 * colour (0xRRGGBB), median, p25, p75, mean, halt entries per call (NaN: no
 * idle probe), CPU burnt % (NaN: no cpu probe), the label of the halt panel
 * (with "[source]" of the entries when cells got them from different
 * sources, idle.entries_source), N (measured invocations), VM exits, HLT
 * exits, HLT % of exits, HLT % of exit-handling time (each NaN: not counted).
 * Variables: logy, ncells, xmax (the last x), nvmtypes, run, havehalt
 * (0|1), haltsource (the one source, else ''), haltnote (why no halt
 * entries), haveexits (0|1: some cell has VM exits).
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
		  int many_types, char *buf, size_t len)
{
	int l = snprintf(buf, len, "%s%s%s", many_types ? c->vmtype : "",
			 many_types ? ": " : "", c->workload);

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

/* Cell @c at @x as a data row. */
static void write_row(struct figure_ctx *ctx, const struct idle_cell *c, size_t x,
		      const char *lab, int mixed)
{
	figure_source(ctx, c->id, (long long)c->n, "invocations");
	fprintf(ctx->data, "%zu ", x);
	gp_data_string(ctx->data, lab);
	fprintf(ctx->data, " %u %.6g %.6g %.6g %.6g %.6g %.6g", idle_policy_rgb(c->idle),
		c->median_ms, c->p25_ms, c->p75_ms, c->mean_ms, or_nan(c->halt_per_inv),
		or_nan(c->burnt_pct));
	halt_label(ctx->data, c, lab, mixed);
	fprintf(ctx->data, " %zu %.6g %.6g %.6g %.6g\n", c->n, or_nan(c->exits),
		or_nan(c->hlt_exits), or_nan(c->hlt_pct), or_nan(c->hlt_time_pct));
}

static void write_rows(struct figure_ctx *ctx, const struct idle_cell *v, size_t n)
{
	int many_threads = 0, many_sizes = 0, mixed = !idle_common_source(v, n);
	int many_types = idle_vmtypes(v, n) > 1, exits = 0;
	double lo = v[0].median_ms, hi = lo;
	size_t i, x = 0;
	char lab[200];

	for (i = 1; i < n; i++) {
		many_threads |= v[i].threads != v[0].threads;
		many_sizes |= strcmp(v[i].size, v[0].size) != 0;
	}
	fprintf(ctx->data, "# x label colour median p25 p75 mean halt_per_call burnt_pct "
		"halt_label n exits hlt_exits hlt_pct hlt_time_pct\n");
	for (i = 0; i < n; i++) {
		if (!i || strcmp(v[i].vmtype, v[i - 1].vmtype)) {
			fprintf(ctx->data, "%s# VM type: %s\n", i ? "\n\n" : "", v[i].vmtype);
			x += i ? 2 : 1;
		} else {
			x++;
		}
		label(&v[i], many_threads, many_sizes, many_types, lab, sizeof(lab));
		write_row(ctx, &v[i], x, lab, mixed);
		exits |= !isnan(v[i].exits);
		lo = v[i].median_ms < lo ? v[i].median_ms : lo;
		hi = v[i].median_ms > hi ? v[i].median_ms : hi;
	}
	figure_var_int(ctx, "logy", lo > 0 && hi / lo > LOGY_SPREAD);
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "xmax", (long long)x);
	figure_var_int(ctx, "nvmtypes", idle_vmtypes(v, n));
	figure_var_int(ctx, "haveexits", exits);
	figure_var_int(ctx, "run", ctx->run_id);
	idle_halt_vars(ctx, v, n);
}

/* Whether @a's VM type comes before @b's (native .. tdx, then by name). */
static int type_before(const struct idle_cell *a, const struct idle_cell *b)
{
	return a->vmrank != b->vmrank ? a->vmrank < b->vmrank :
	       strcmp(a->vmtype, b->vmtype) < 0;
}

/* @v's cells into @out grouped by VM type, each group in @v's order. */
static void group_by_type(const struct idle_cell *v, size_t n, struct idle_cell *out,
			  char *taken)
{
	size_t i, m, k = 0;

	while (k < n) {
		for (m = n, i = 0; i < n; i++)
			if (!taken[i] && (m == n || type_before(&v[i], &v[m])))
				m = i;
		for (i = m; i < n; i++)
			if (!taken[i] && !strcmp(v[i].vmtype, v[m].vmtype)) {
				taken[i] = 1;
				out[k++] = v[i];
			}
	}
}

/**
 * fig_idle_policy_data() - write the idle-policy data (see the top of this
 * file). Returns 0, -ENODATA when the run has no idle cell, or -errno.
 */
int fig_idle_policy_data(struct figure_ctx *ctx)
{
	struct idle_cell *cells = NULL, *v = NULL;
	size_t n = 0, i, k = 0;
	int ret = idle_cells_load(ctx->h, ctx->run_id, &cells, &n);
	char *taken = NULL;

	for (i = 0; !ret && i < n; i++)   /* keep the cells of idle experiments */
		if (idle_cell_of_policy(&cells[i]))
			cells[k++] = cells[i];
	if (!ret && !k) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no measured warm cell "
			 "with the idle or cpu probe (probes = latency, idle, cpu)",
			 (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret && (!(v = malloc(k * sizeof(*v))) || !(taken = calloc(k, 1))))
		ret = -ENOMEM;
	if (!ret) {
		group_by_type(cells, k, v, taken);
		write_rows(ctx, v, k);
	}
	free(taken);
	free(v);
	free(cells);
	return ret;
}

const struct figure figure_idle_policy = {
	"idle-policy",
	"Table III: latency, halt entries per call and VM exits per VM type and guest idle policy",
	"idle-policy.gp", fig_idle_policy_data, 0,
};
