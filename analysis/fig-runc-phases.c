// SPDX-License-Identifier: MIT
/*
 * fig-runc-phases.c - data of the runc-phases figure: one stacked bar per
 * cell with traced container starts (runtime and variant), each segment
 * the mean time per start of one phase of docs/probes/runc.md, in ms; the
 * segments of a bar add up to the mean start, fork to last exit.
 *
 * Columns: label with N (the starts of the cell), then one column per phase
 * in the order drawn (the first row names them): the start's chronology -
 * the runtime, its state and cgroup, init and the namespaces, mounts and
 * seccomp it sets up - then the waits (sched-wait, lock-wait, blocked),
 * the container's exec to its reply, teardown, and other last. Phases are
 * read by name (runc_phase.seq is the probe's numbering, which appends new
 * phases); a name not drawn is added to other. The order is
 * RUNC_PHASES_DRAWN of metrics/runc-metrics.h.
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
#include "runc-metrics.h"

#define PHASE_ID(id, name) id,
enum { RUNC_PHASES(PHASE_ID) NPROBE };
#undef PHASE_ID
#define PHASE_NAME(id, name) [id] = name,
static const char *const names[NPROBE] = { RUNC_PHASES(PHASE_NAME) };
#undef PHASE_NAME
#define PHASE_DRAWN(id) id,
static const int drawn[] = { RUNC_PHASES_DRAWN(PHASE_DRAWN) };
#undef PHASE_DRAWN
#define NPHASES ((int)(sizeof(drawn) / sizeof(drawn[0])))

/* The column of phase @name; other's for a name not drawn. */
static int phase_col(const char *name)
{
	int i;

	for (i = 0; i < NPHASES && strcmp(names[drawn[i]], name ? name : ""); i++)
		;
	if (i < NPHASES)
		return i;
	for (i = 0; drawn[i] != RT_OTHER; i++)
		;
	return i;
}

/* Every phase the probe names is drawn once (a new one must be placed). */
static int phases_placed(struct figure_ctx *ctx)
{
	int i, seen[NPROBE] = { 0 };

	for (i = 0; i < NPHASES; i++)
		seen[drawn[i]]++;
	for (i = 0; i < NPROBE; i++)
		if (seen[i] != 1) {
			snprintf(ctx->why, sizeof(ctx->why), "phase %s of the runc probe is "
				 "drawn %d times (RUNC_PHASES_DRAWN, metrics/runc-metrics.h)",
				 names[i], seen[i]);
			return -EINVAL;
		}
	return 0;
}

static int write_row(struct figure_ctx *ctx, const struct runc_cell *c)
{
	double ms[NPHASES] = { 0 };
	char tick[200];
	sqlite3_stmt *st;
	int i;

	if (analysis_prepare(ctx->h, "SELECT r.phase, sum(r.duration_ns) FROM runc_phase r "
			     "JOIN runc_start s ON s.id = r.start_id WHERE s.cell_id = ? "
			     "GROUP BY r.phase", c->id, &st))
		return -EIO;
	while (analysis_step(st) == SQLITE_ROW) {
		i = phase_col((const char *)sqlite3_column_text(st, 0));
		ms[i] += sqlite3_column_double(st, 1) / 1e6;
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
	size_t n = 0, i, longest = 0;
	char tick[200];
	int ret = phases_placed(ctx);

	if (ret)
		return ret;
	ret = runc_cells_load(ctx->h, ctx->run_id, NULL, &cells, &n);

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
			fprintf(ctx->data, " %s", names[drawn[i]]);
		fprintf(ctx->data, "\n");
	}
	for (i = 0; !ret && i < n; i++) {
		ret = write_row(ctx, &cells[i]);
		if (gp_label_len(runc_cell_tick(&cells[i], tick, sizeof(tick))) > longest)
			longest = gp_label_len(tick);   /* as drawn: gp-string cuts long labels */
	}
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "nphases", NPHASES);
	figure_var_int(ctx, "longest", (long long)longest);
	figure_var_int(ctx, "run", ctx->run_id);
	free(cells);
	return ret;
}

const struct figure figure_runc_phases = {
	"runc-phases",
	"container cold start (runc, crun) by phase, stacked, per runtime and variant",
	"runc-phases.gp", fig_runc_phases_data, 0,
};
