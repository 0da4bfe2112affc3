// SPDX-License-Identifier: MIT
/*
 * fig-runc-sweep.c - data of the study's Fig. 8 a-d: container cold start
 * (fork of the runtime to the reply of the first call, per start, from
 * the runc probe) against one runc dimension - cpus, cpu-quota, corunner
 * or parallel - one line per runtime and other setting (gnuplot `index`
 * blocks, each headed by a row holding its title, read as columnheader).
 *
 * Columns: x, median, p25, p75 (ms), mean lock-blocked ms per start,
 * mean total ms per start (with teardown), N (the starts of the point).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fig-runc.h"
#include "figures.h"
#include "gp-string.h"

static int by_series(const void *pa, const void *pb)
{
	const struct runc_cell *a = pa, *b = pb;
	int r = strcmp(a->series, b->series);

	return r ? r : (a->x > b->x) - (a->x < b->x);
}

static size_t write_blocks(struct figure_ctx *ctx, struct runc_cell *v, size_t n)
{
	size_t i, j, k, blocks = 0;

	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(v[i].series, v[j].series); j++)
			;
		if (j - i < 2)
			continue;
		gp_data_string(ctx->data, v[i].series);
		fprintf(ctx->data, " median p25 p75 blocked total n\n");
		for (k = i; k < j; k++)
			fprintf(ctx->data, "%g %.4f %.4f %.4f %.4f %.4f %zu\n", v[k].x, v[k].median_ms,
				v[k].p25_ms, v[k].p75_ms, v[k].blocked_ms, v[k].total_ms,
				v[k].nstarts);
		fprintf(ctx->data, "\n\n");
		blocks++;
	}
	figure_var_int(ctx, "nblocks", (long long)blocks);
	return blocks;
}

/* @key's values from @xmin up (cpus = 0 means all CPUs: not a point). */
static int sweep_data(struct figure_ctx *ctx, const char *key, double xmin,
		      const char *xlabel)
{
	struct runc_cell *cells = NULL;
	size_t n = 0, i, k = 0;
	int ret = runc_cells_load(ctx->h, ctx->run_id, key, &cells, &n);

	for (i = 0; !ret && i < n; i++)
		if (cells[i].x >= xmin && cells[i].nstarts)
			cells[k++] = cells[i];
	if (!ret && k)   /* qsort(NULL, 0, ...) is undefined (UBSan) */
		qsort(cells, k, sizeof(*cells), by_series);
	figure_var_str(ctx, "xlabel", xlabel);
	figure_var_int(ctx, "run", ctx->run_id);
	if (!ret && !write_blocks(ctx, cells, k)) {
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
	return sweep_data(ctx, "cpus", 1, "CPUs the runtime may use");
}

/** fig_runc_quota_data() - Fig. 8b: cold start against cpu-quota. */
int fig_runc_quota_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "cpu-quota", 0, "CPU quota of the runtime (% of a period)");
}

/** fig_runc_corunner_data() - Fig. 8c: cold start against co-runner threads. */
int fig_runc_corunner_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "corunner", 0, "CPU-bound co-runner threads");
}

/** fig_runc_parallel_data() - Fig. 8d: per-start cold start against parallel starts. */
int fig_runc_parallel_data(struct figure_ctx *ctx)
{
	return sweep_data(ctx, "parallel", 0, "simultaneous starts");
}

const struct figure figure_runc_cpus = {
	"runc-cpus", "Fig. 8a: container cold start against the CPUs of the runtime",
	"runc-sweep.gp", fig_runc_cpus_data,
};

const struct figure figure_runc_quota = {
	"runc-quota", "Fig. 8b: container cold start against the runtime's CPU quota",
	"runc-sweep.gp", fig_runc_quota_data,
};

const struct figure figure_runc_corunner = {
	"runc-corunner", "Fig. 8c: container cold start next to CPU-bound threads",
	"runc-sweep.gp", fig_runc_corunner_data,
};

const struct figure figure_runc_parallel = {
	"runc-parallel", "Fig. 8d: container cold start per start, K starts at once",
	"runc-sweep.gp", fig_runc_parallel_data,
};
