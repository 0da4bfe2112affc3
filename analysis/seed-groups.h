/* SPDX-License-Identifier: MIT */
/*
 * seed-groups.h - the cells with a seed-layer grouped for the seed figures
 * (fig-seed-start.c, fig-seed-memory.c): one group per workload, seed
 * layer (cell_param seed-layer) and VM type (cell-series.h
 * CELL_SERIES_VMTYPE, but native on a machine that is a VM), in the order workload, VM type, bare, runtime, warm.
 * A figure gives the query of its per-cell sums; the groups hold, per
 * value, the sum and the count of the rows that had it, so a group's mean
 * is over its rows, not over its cells' means.
 */
#ifndef CVMBENCH_SEED_GROUPS_H
#define CVMBENCH_SEED_GROUPS_H

#include <stddef.h>

#include "cell-series.h"

struct figure_ctx;

#define SEED_GROUP_VALUES 6

/*
 * The leading columns of a figure's per-cell query over a cell row `c`,
 * then GROUP BY c.id and ORDER BY SEED_GROUP_ORDER: cell id, workload,
 * layer, VM type, its rank, rows; then a (sum, count) pair per value.
 */
#define SEED_GROUP_LAYER "COALESCE(" CELL_SERIES_PARAM("seed-layer") ", 'none')"
/*
 * A seed on the machine itself (backend zygote) is `native` even where the
 * machine is a VM (hypervisor.present = yes): these figures compare it with
 * seeds in VMs of the cell's own, which CELL_SERIES_HV would merge it with.
 * A seed in a container is named by its runtime (runc, crun), and a Python
 * seed (runtime = python) gets " python" after it: neither is drawn in one
 * bar with another.
 */
#define SEED_GROUP_BASE_VT \
	"(" CELL_SERIES_VMTYPE(CELL_SERIES_OWNVM, CELL_SERIES_CONF, "'no'", "c.backend") ")"
#define SEED_GROUP_PYTHON "(COALESCE(" CELL_SERIES_PARAM("runtime") ", 'c') = 'python')"
#define SEED_GROUP_VT \
	"(CASE " SEED_GROUP_BASE_VT " WHEN 'container' THEN c.backend ELSE " \
	SEED_GROUP_BASE_VT " END || CASE WHEN " SEED_GROUP_PYTHON " THEN ' python' " \
	"ELSE '' END)"
#define SEED_GROUP_COLUMNS \
	"c.id, c.workload, " SEED_GROUP_LAYER " AS seed_layer, " SEED_GROUP_VT ", " \
	"(" CELL_SERIES_VMRANK(SEED_GROUP_BASE_VT) ") * 2 + " SEED_GROUP_PYTHON ", count(*)"
#define SEED_GROUP_ORDER \
	"2, 5, CASE seed_layer WHEN 'bare' THEN 0 WHEN 'runtime' THEN 1 " \
	"WHEN 'warm' THEN 2 ELSE 3 END, 3, 1"

struct seed_group {
	char workload[64], layer[16], vmtype[32];
	double sum[SEED_GROUP_VALUES];
	long long count[SEED_GROUP_VALUES];
	long long rows;
	int cells;
};

/*
 * One seed figure: where its rows are and its data file's columns: the
 * group's label, the mean of each value (NaN: no row had it), their total
 * when @total, then the rows and cells of the group.
 */
struct seed_figure {
	const char *table;        /* the table it draws from */
	const char *sql;          /* per-cell sums, as for seed_groups_load() */
	int nvalues;
	const char *const *names; /* a column header per value */
	int total;
	const char *rows_name;    /* the rows' column header: "starts" */
	const char *unit;         /* what its rows are, for figure_source() */
	const char *nodata;       /* "run N has no <this>": why there is nothing */
};

/**
 * seed_figure_data() - a seed figure's data: its groups in the columns
 * struct seed_figure says, the variables ngroups and run set. 0, -ENODATA (ctx->why from
 * @f->nodata) or -errno.
 */
int seed_figure_data(struct figure_ctx *ctx, const struct seed_figure *f);

#endif
