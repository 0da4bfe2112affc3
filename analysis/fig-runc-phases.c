// SPDX-License-Identifier: MIT
/*
 * fig-runc-phases.c - data of the runc-phases figure: one stacked bar per
 * cell with traced container starts (runtime and variant), each segment
 * the mean time per start of one phase of docs/probes/runc.md, in ms; the
 * segments of a bar add up to the mean start, fork to last exit.
 *
 * Columns: label with N (the starts of the cell), then one column per phase in the probe's order (the
 * first row names them).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include <sqlite3.h>

#include "fig-runc.h"
#include "figures.h"
#include "gp-string.h"
#include "runc-metrics.h"

#define PHASE_NAME(id, name) name,
static const char *const phases[] = { RUNC_PHASES(PHASE_NAME) };
#undef PHASE_NAME
#define NPHASES ((int)(sizeof(phases) / sizeof(phases[0])))

static int write_row(struct figure_ctx *ctx, const struct runc_cell *c)
{
	double ms[NPHASES] = { 0 };
	char tick[200];
	sqlite3_stmt *st;
	int i;

	if (sqlite3_prepare_v2(ctx->h, "SELECT r.seq, sum(r.duration_ns) FROM runc_phase r "
			       "JOIN runc_start s ON s.id = r.start_id WHERE s.cell_id = ? "
			       "GROUP BY r.seq", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, c->id);
	while (sqlite3_step(st) == SQLITE_ROW) {
		i = sqlite3_column_int(st, 0);
		if (i >= 0 && i < NPHASES)
			ms[i] = sqlite3_column_double(st, 1) / 1e6;
	}
	sqlite3_finalize(st);
	figure_source(ctx, c->id, (long long)c->nstarts, "container starts");
	gp_data_string(ctx->data, runc_cell_tick(c, tick, sizeof(tick)));
	for (i = 0; i < NPHASES; i++)
		fprintf(ctx->data, " %.4f", c->nstarts ? ms[i] / (double)c->nstarts : 0);
	fprintf(ctx->data, "\n");
	return 0;
}

/**
 * fig_runc_phases_data() - write the runc-phases data (see the top of this
 * file). Returns 0, -ENODATA when the run traced no container start, or
 * -errno.
 */
int fig_runc_phases_data(struct figure_ctx *ctx)
{
	struct runc_cell *cells = NULL;
	size_t n = 0, i;
	int ret = runc_cells_load(ctx->h, ctx->run_id, NULL, &cells, &n);

	n = ret ? 0 : runc_cells_measured(cells, n);
	if (!ret && !n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no container start traced "
			 "by the runc probe (backend runc/crun, mode cold, probes runc)",
			 (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret) {
		fprintf(ctx->data, "label");
		for (i = 0; i < NPHASES; i++)
			fprintf(ctx->data, " %s", phases[i]);
		fprintf(ctx->data, "\n");
	}
	for (i = 0; !ret && i < n; i++)
		ret = write_row(ctx, &cells[i]);
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "run", ctx->run_id);
	free(cells);
	return ret;
}

const struct figure figure_runc_phases = {
	"runc-phases",
	"container cold start (runc, crun) by phase, stacked, per runtime and variant",
	"runc-phases.gp", fig_runc_phases_data,
};
