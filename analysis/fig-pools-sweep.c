// SPDX-License-Identifier: MIT
/*
 * fig-pools-sweep.c - `plot pools-sweep`: p50 and p99 of container cold
 * starts (runc_start.cold_start_ns, fork of the runtime to the first
 * reply, from the runc probe; the measured calls' starts) against the
 * starts made at once (`parallel`, 1 to 24 in configs/pools.ini), one line
 * per variant: the cell's experiment and runtime (pools-plain runc,
 * pools-cgroup crun, ...). Percentiles are nearest-rank, as
 * docs/experiments/pools.sql prints them. One gnuplot `index` block per
 * variant with at least one point, headed by its title:
 *   1 parallel  2 p50 ms  3 p99 ms  4 N (starts of the point)
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"
#include "stats.h"

static const char *const CELLS_SQL =
	"SELECT c.id, c.experiment || ' ' || c.backend, CAST(p.value AS INTEGER) "
	"FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'parallel' "
	"WHERE c.run_id = ?1 AND EXISTS (SELECT 1 FROM runc_start s WHERE s.cell_id = c.id "
	"AND s.cold_start_ns IS NOT NULL) ORDER BY c.experiment, c.backend, 3, c.id";

static const char *const STARTS_SQL =
	"SELECT s.cold_start_ns / 1e6 FROM runc_start s WHERE s.cell_id = ?1 AND "
	"s.cold_start_ns IS NOT NULL AND NOT EXISTS (SELECT 1 FROM invocation i WHERE "
	"i.id = s.invocation_id AND i.phase <> 'measured')";

/* Nearest-rank percentile @q (0..1] of @v[0..@n), sorted. */
static double nearest_rank(const double *v, size_t n, double q)
{
	size_t k = (size_t)ceil(q * (double)n - 1e-9);

	return v[k ? k - 1 : 0];
}

/*
 * One point of cell @id at @x, "x p50 p99 N", after its block's title
 * @series when it is the block's first (*@blocks counts them; @last is
 * the series of the last block begun). Nothing without starts.
 */
static int point(struct figure_ctx *ctx, long long id, int x, const char *series,
		 char *last, size_t len, int *blocks)
{
	sqlite3_stmt *st;
	double *v = NULL, *p;
	size_t n = 0, cap = 0;

	if (analysis_prepare(ctx->h, STARTS_SQL, id, &st))
		return -EIO;
	while (analysis_step(st) == SQLITE_ROW) {
		if (n == cap) {
			cap = cap ? 2 * cap : 64;
			p = realloc(v, cap * sizeof(*v));
			if (!p)
				break;
			v = p;
		}
		v[n++] = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	if (n && strcmp(series, last)) {
		fprintf(ctx->data, "%s", *blocks ? "\n\n" : "");
		gp_data_string(ctx->data, series);
		fprintf(ctx->data, " p50 p99 n\n");
		snprintf(last, len, "%s", series);
		(*blocks)++;
	}
	if (n) {
		stats_sort(v, n);
		fprintf(ctx->data, "%d %.4f %.4f %zu\n", x, nearest_rank(v, n, 0.5),
			nearest_rank(v, n, 0.99), n);
		figure_source(ctx, id, (long long)n, "container starts");
	}
	free(v);
	return 0;
}

/**
 * fig_pools_sweep_data() - write the pools-sweep data (see the top of this
 * file). 0, -ENODATA when no cell of the run has traced starts, or -errno.
 */
int fig_pools_sweep_data(struct figure_ctx *ctx)
{
	char last[320] = "";
	sqlite3_stmt *st;
	int blocks = 0, ret = 0;

	if (analysis_prepare(ctx->h, CELLS_SQL, ctx->run_id, &st))
		return -EIO;
	while (!ret && analysis_step(st) == SQLITE_ROW)
		ret = point(ctx, sqlite3_column_int64(st, 0), sqlite3_column_int(st, 2),
			    (const char *)sqlite3_column_text(st, 1) ?: "?", last, sizeof(last),
			    &blocks);
	sqlite3_finalize(st);
	if (ret < 0)
		return ret;
	figure_var_int(ctx, "nblocks", blocks);
	figure_var_int(ctx, "run", ctx->run_id);
	if (!blocks) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no container start traced "
			 "by the runc probe (backend = runc or crun, mode = cold, probes = runc)",
			 (long long)ctx->run_id);
		return -ENODATA;
	}
	return 0;
}

const struct figure figure_pools_sweep = {
	"pools-sweep", "p50 and p99 of container cold starts against starts at once, "
	"per variant (configs/pools.ini)", "pools-sweep.gp", fig_pools_sweep_data, 0,
};
