// SPDX-License-Identifier: MIT
/*
 * fig-runc-contention.c - data of the study's Fig. 9: per cell with
 * traced starts, the mean time per start its tasks spent between
 * lock:contention_begin and contention_end, split by lock (kernel symbol
 * where /proc/kallsyms names it, else the lock's kind), next to the mean
 * start. Rows: label with N (the starts of the cell), then blocked ms per start for each of the most
 * blocking locks of the run (header row names them), then total ms.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "fig-runc.h"
#include "figures.h"
#include "gp-string.h"

#define NLOCKS 6
/* a lock name whole: cut, it would match no row and draw as 0 */
#define LOCK_NAME_MAX 512

static const char sql_locks[] =
	"SELECT l.lock FROM runc_lock l JOIN runc_start s ON s.id = l.start_id "
	"JOIN cell c ON c.id = s.cell_id WHERE c.run_id = ? GROUP BY l.lock "
	"ORDER BY sum(l.blocked_ns) DESC LIMIT " "6";

static int top_locks(struct figure_ctx *ctx, char (*locks)[LOCK_NAME_MAX], int *n)
{
	sqlite3_stmt *st;

	*n = 0;
	if (analysis_prepare(ctx->h, sql_locks, ctx->run_id, &st))
		return -EIO;
	while (*n < NLOCKS && analysis_step(st) == SQLITE_ROW)
		snprintf(locks[(*n)++], LOCK_NAME_MAX, "%s", (const char *)sqlite3_column_text(st, 0) ?: "?");
	sqlite3_finalize(st);
	return 0;
}

static double lock_ms(struct figure_ctx *ctx, int64_t cell, const char *lock)
{
	sqlite3_stmt *st;
	double v = 0;

	if (analysis_prepare(ctx->h, "SELECT sum(l.blocked_ns) FROM runc_lock l JOIN "
			     "runc_start s ON s.id = l.start_id WHERE s.cell_id = ? AND "
			     "l.lock = ?", cell, &st))
		return 0;
	sqlite3_bind_text(st, 2, lock, -1, SQLITE_STATIC);
	if (analysis_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0) / 1e6;
	sqlite3_finalize(st);
	return v;
}

/**
 * fig_runc_contention_data() - write the runc-contention data (see the
 * top of this file). 0, -ENODATA without traced starts, or -errno.
 */
int fig_runc_contention_data(struct figure_ctx *ctx)
{
	struct runc_cell *cells = NULL;
	char locks[NLOCKS][LOCK_NAME_MAX], tick[200];
	size_t n = 0, i;
	int nl = 0, j, ret = runc_cells_load(ctx->h, ctx->run_id, NULL, &cells, &n);

	n = ret ? 0 : runc_cells_measured(cells, n);
	ret = ret ?: top_locks(ctx, locks, &nl);
	if (!ret && (!n || !nl)) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no traced container start "
			 "with lock contention", (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret) {
		fprintf(ctx->data, "label");
		for (j = 0; j < nl; j++) {
			fputc(' ', ctx->data);
			gp_data_string(ctx->data, locks[j]);
		}
		fprintf(ctx->data, " total\n");
	}
	for (i = 0; !ret && i < n; i++) {
		figure_source(ctx, cells[i].id, (long long)cells[i].nstarts, "container starts");
		gp_data_string(ctx->data, runc_cell_tick(&cells[i], tick, sizeof(tick)));
		for (j = 0; j < nl; j++)
			fprintf(ctx->data, " %.4f", cells[i].nstarts ? lock_ms(ctx, cells[i].id,
				locks[j]) / (double)cells[i].nstarts : 0);
		fprintf(ctx->data, " %.4f\n", cells[i].total_ms);
	}
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "nlocks", nl);
	figure_var_int(ctx, "run", ctx->run_id);
	free(cells);
	return ret;
}

const struct figure figure_runc_contention = {
	"runc-contention", "Fig. 9: time blocked on kernel locks per container start",
	"runc-contention.gp", fig_runc_contention_data, 0,
};
