// SPDX-License-Identifier: MIT
/*
 * fig-idle-policy.c - data of the idle-policy figure: one x position per
 * warm cell of the run (bench/idle-cells.c order: workload, size,
 * threads, policy), with its latency (median and quartiles, ms), halt
 * entries per invocation (idle probe) and CPU burnt (cpu probe, %).
 *
 * Columns: x, label, policy no. (colour), median, p25, p75, mean,
 * halt entries per call (NaN: no idle probe), CPU burnt % (NaN: no cpu probe).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "idle-cells.h"

#define LOGY_SPREAD 20.0

/* Colour per policy: default grey, hlt red, haltpoll orange, poll blue. */
static int policy_no(const char *idle)
{
	if (!strcmp(idle, "hlt"))
		return 1;
	if (!strncmp(idle, "haltpoll", 8))
		return 2;
	if (!strcmp(idle, "poll"))
		return 3;
	return 0;
}

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

static void write_rows(struct figure_ctx *ctx, const struct idle_cell *v, size_t n)
{
	int many_threads = 0, many_sizes = 0, probes = 0;
	double lo = v[0].median_ms, hi = lo;
	char lab[160];
	size_t i;

	for (i = 1; i < n; i++) {
		many_threads |= v[i].threads != v[0].threads;
		many_sizes |= strcmp(v[i].size, v[0].size) != 0;
	}
	fprintf(ctx->data, "# x label policy median p25 p75 mean halt_per_call burnt_pct\n");
	for (i = 0; i < n; i++) {
		label(&v[i], many_threads, many_sizes, lab, sizeof(lab));
		fprintf(ctx->data, "%zu \"%s\" %d %.6g %.6g %.6g %.6g %.6g %.6g\n", i + 1,
			lab, policy_no(v[i].idle), v[i].median_ms, v[i].p25_ms,
			v[i].p75_ms, v[i].mean_ms, or_nan(v[i].halt_per_inv),
			or_nan(v[i].burnt_pct));
		probes += !isnan(v[i].halt_per_inv);
		lo = v[i].median_ms < lo ? v[i].median_ms : lo;
		hi = v[i].median_ms > hi ? v[i].median_ms : hi;
	}
	figure_vars_add(ctx, "logy=%d", lo > 0 && hi / lo > LOGY_SPREAD);
	figure_vars_add(ctx, "ncells=%zu", n);
	figure_vars_add(ctx, "haveidle=%d", probes > 0);
	figure_vars_add(ctx, "run=%lld", (long long)ctx->run_id);
}

/**
 * fig_idle_policy_data() - write the idle-policy data (see the top of this
 * file). Returns 0, -ENODATA when the run has no measured warm cell with
 * the idle probe, or -errno.
 */
int fig_idle_policy_data(struct figure_ctx *ctx)
{
	struct idle_cell *cells = NULL, *v;
	size_t n = 0, i, k = 0;
	int ret = idle_cells_load(ctx->h, ctx->run_id, &cells, &n);

	v = cells;
	for (i = 0; !ret && i < n; i++)   /* keep the cells the idle probe saw */
		if (!isnan(cells[i].halt_per_inv))
			v[k++] = cells[i];
	if (!ret && !k) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no measured warm cell "
			 "with the idle probe (probes = latency, idle, cpu)",
			 (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret)
		write_rows(ctx, v, k);
	free(cells);
	return ret;
}
