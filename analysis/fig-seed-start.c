// SPDX-License-Identifier: MIT
/*
 * fig-seed-start.c - data of the seed-start figure: one stacked bar per
 * workload, seed layer and VM type (seed-groups.h) of the run's children
 * forked from seeds (table seed_start: cells with a seed-layer), each segment the
 * mean over its children, in ms, of what the child reported:
 *
 *   fork         just before fork() in the seed to the child's first instant
 *   rest of init what the layer left the child to initialise
 *   first call   the first call's fn_ns
 *
 * so a bar adds up to the mean start of a child from its fork request to
 * the end of its first call's function time (the harness's own round trip
 * and the protocol are not in it: docs/experiments/seed-tree.md).
 *
 * Columns: label, the three segments, total, starts, cells.
 */
#include "figures.h"
#include "seed-groups.h"

static const char *const seg_names[] = { "fork", "rest of init", "first call" };

static const char sql_cells[] =
	"SELECT " SEED_GROUP_COLUMNS ", "
	"sum(s.fork_ns) / 1e6, count(s.fork_ns), sum(s.init_ns) / 1e6, count(s.init_ns), "
	"sum(s.first_call_ns) / 1e6, count(s.first_call_ns) "
	"FROM seed_start s JOIN cell c ON c.id = s.cell_id WHERE c.run_id = ?1 "
	"GROUP BY c.id ORDER BY " SEED_GROUP_ORDER;

/**
 * fig_seed_start_data() - write the seed-start data (see the top of this
 * file). Returns 0, -ENODATA when the run has no child of a seed, or -errno.
 */
int fig_seed_start_data(struct figure_ctx *ctx)
{
	static const struct seed_figure f = {
		"seed_start", sql_cells, 3, seg_names, 1, "starts", "starts from a seed",
		"start forked from a seed (a cell with a seed-layer)",
	};

	return seed_figure_data(ctx, &f);
}

const struct figure figure_seed_start = {
	"seed-start",
	"start of a child forked from a seed: fork, rest of init, first call, stacked, per "
	"workload, seed layer and VM type (cells with a seed-layer)",
	"seed-start.gp", fig_seed_start_data, 0,
};
