// SPDX-License-Identifier: MIT
/*
 * fig-memory.c - `plot memory-scaling` (old name `memory`, still
 * accepted: figures.c), the study's Fig. 3 a-c: host memory (per cell the
 * summed charge of its VMs' own memory cgroups, else the summed PSS of its
 * instance processes, from the hostmem probe: memory-cells.h) against the
 * VMs per cell (cell_param `vms`; 1 where the key is absent: one VM per
 * cell), one line per workload and memory variant: "ksm on", "ksm off",
 * "model" (confidential = model; its KSM setting beside it when it is not
 * off). Cells without either are left out and counted (variable `nodata`);
 * hostsrc and srcnote say which source the cells drew (memory_src_vars).
 * One gnuplot block per line, headed by its title:
 *   vms, mean MiB, min MiB, max MiB, N (cells at that point), source
 *   (memcg, pss or memcg+pss: of the point's cells)
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "gp-string.h"
#include "memory-cells.h"

static const char *const SQL =
	"WITH " MEMORY_CELLS_CTE " "
	"SELECT wl, variant, vms, avg(host) / 1024.0, min(host) / 1024.0,"
	" max(host) / 1024.0, count(host), sum(host IS NULL), " MEMORY_SOURCE("1") ","
	" " MEMORY_N_MEMCG("1") ", " MEMORY_N_PSS("1") " "
	"FROM p GROUP BY wl, variant, vms ORDER BY wl, variant, vms";

/* The lines, first: memory_lines_run() hands it to write_row as its arg. */
struct mem_state {
	struct memory_lines l;
	int nodata;
	struct memory_src src;
};

static void write_row(struct figure_ctx *ctx, void *arg, sqlite3_stmt *st)
{
	struct mem_state *m = arg;
	int vms = sqlite3_column_int(st, 2);

	m->nodata += sqlite3_column_int(st, 7);
	if (!sqlite3_column_int(st, 6))
		return;
	memory_lines_point(ctx, &m->l, (const char *)sqlite3_column_text(st, 0),
			   (const char *)sqlite3_column_text(st, 1), "", "min max n source", vms);
	fprintf(ctx->data, "%d %.3f %.3f %.3f %d ", vms, sqlite3_column_double(st, 3),
		sqlite3_column_double(st, 4), sqlite3_column_double(st, 5),
		sqlite3_column_int(st, 6));
	gp_data_string(ctx->data, (const char *)sqlite3_column_text(st, 8) ?: "-");
	fprintf(ctx->data, "\n");
	m->src.memcg += sqlite3_column_int(st, 9);
	m->src.pss += sqlite3_column_int(st, 10);
	figure_source(ctx, -1, sqlite3_column_int(st, 6), "cells measured by hostmem");
}

/**
 * fig_memory_data() - write the memory figure's data (see the top of this
 * file). Returns 0, -ENODATA when no cell of the run has the hostmem
 * probe's host memory (cgroup or PSS), or -errno.
 */
int fig_memory_data(struct figure_ctx *ctx)
{
	struct mem_state m = { .nodata = 0 };
	int ret = memory_lines_run(ctx, &m.l, SQL, write_row);

	figure_var_int(ctx, "nodata", m.nodata);
	memory_src_vars(ctx, &m.src);
	if (ret == -ENODATA)
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no cell measured with the "
			 "hostmem probe (probes = hostmem, ksm)", (long long)ctx->run_id);
	return ret;
}

const struct figure figure_memory = {
	"memory-scaling", "Fig. 3 a-c: host memory (memory cgroups, else summed PSS) against VMs, "
	"KSM on, off, model",
	"memory.gp", fig_memory_data, 0,
};
