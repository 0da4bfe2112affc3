// SPDX-License-Identifier: MIT
/*
 * fig-seed-memory.c - data of the seed-memory figure: per workload, seed
 * layer and VM type (seed-groups.h) of the run's children of seeds (table
 * seed_memory: cells with a seed-layer), the mean per child after the cell's calls
 * (rows called = 1; rows from before 016-seed-memory.sql: those at the
 * cell's most children), in kB, of:
 *
 *   PSS                 its proportional set size
 *   USS                 mapped by it only (Private_Clean + Private_Dirty)
 *   written by it       Private_Dirty: what one more child costs
 *   on the seed's frames  its pages still on the seed's page frames
 *                       (NaN where not measured: no CAP_SYS_ADMIN)
 *
 * and the seed's own PSS beside them (docs/experiments/seed-tree.md,
 * "Reading USS").
 *
 * Columns: label, the four above, the seed's PSS, children alive (mean),
 * samples (child rows), cells.
 */
#include "figures.h"
#include "seed-groups.h"

static const char *const val_names[] = {
	"PSS", "USS", "written by the child (Private_Dirty)", "on the seed's frames",
	"the seed's own PSS", "children",
};

static const char sql_cells[] =
	"SELECT " SEED_GROUP_COLUMNS ", "
	"sum(m.pss_kb), count(m.pss_kb), sum(m.uss_kb), count(m.uss_kb), "
	"sum(m.private_dirty_kb), count(m.private_dirty_kb), "
	"sum(m.seed_shared_kb), count(m.seed_shared_kb), "
	"sum(m.seed_pss_kb), count(m.seed_pss_kb), sum(m.children), count(m.children) "
	"FROM seed_memory m JOIN cell c ON c.id = m.cell_id WHERE c.run_id = ?1 AND "
	"(m.called = 1 OR (m.called IS NULL AND m.children = (SELECT max(x.children) "
	"FROM seed_memory x WHERE x.cell_id = m.cell_id))) "
	"GROUP BY c.id ORDER BY " SEED_GROUP_ORDER;

/**
 * fig_seed_memory_data() - write the seed-memory data (see the top of this
 * file). Returns 0, -ENODATA when the run has no child of a seed sampled
 * after its calls, or -errno.
 */
int fig_seed_memory_data(struct figure_ctx *ctx)
{
	static const struct seed_figure f = {
		"seed_memory", sql_cells, 6, val_names, 0, "samples", "children sampled",
		"child of a seed sampled after its calls (a seed-layer and warm instances)",
	};

	return seed_figure_data(ctx, &f);
}

const struct figure figure_seed_memory = {
	"seed-memory",
	"memory per child of a seed after its calls: PSS, USS, what it wrote, kB on the "
	"seed's frames, per workload, seed layer and VM type (cells with a seed-layer)",
	"seed-memory.gp", fig_seed_memory_data, 0,
};
