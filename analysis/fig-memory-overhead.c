// SPDX-License-Identifier: MIT
/*
 * fig-memory-overhead.c - `plot memory-overhead`, the study's Fig. 3 d:
 * the host memory (per cell its memory cgroups' charge, else its summed
 * PSS, hostmem probe: memory-cells.h) of each memory variant other than
 * "ksm on" as a percentage over the "ksm on" cells of the same workload
 * and VM count: 100 * (mean of the variant - mean of ksm on) / mean of
 * ksm on, against the VMs per cell. A (workload, VMs) point without a
 * ksm = on cell has no reference and is left out, counted in `noref`; ylo
 * and yhi frame the points and 0; hostsrc and srcnote say which source
 * the drawn points' cells had (memory_src_vars). One gnuplot block per
 * line, headed by its title:
 *   vms, overhead %, N (variant's cells), N (ksm-on cells), source (memcg,
 *   pss, or memcg+pss: of the cells of both)
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "gp-string.h"
#include "memory-cells.h"
#include "plot-data.h"

static const char *const SQL =
	"WITH " MEMORY_CELLS_CTE ", "
	"g AS (SELECT wl, variant, vms, avg(host) AS host, count(host) AS n,"
	" " MEMORY_N_MEMCG("1") " AS nm, " MEMORY_N_PSS("1") " AS np FROM p"
	" WHERE host IS NOT NULL GROUP BY wl, variant, vms) "
	"SELECT v.wl, v.variant, v.vms, 100.0 * (v.host - o.host) / o.host, v.n, o.n,"
	" v.nm + o.nm, v.np + o.np "
	"FROM g v LEFT JOIN g o ON o.wl IS v.wl AND o.vms = v.vms AND"
	" o.variant = 'ksm on' "
	"WHERE v.variant <> 'ksm on' ORDER BY v.wl, v.variant, v.vms";

/* The cells the points are made of (both sides), once each, by source. */
static const char *const SRC_SQL =
	"WITH " MEMORY_CELLS_CTE ", "
	"q AS (SELECT * FROM p WHERE host IS NOT NULL) "
	"SELECT " MEMORY_N_MEMCG("1") ", " MEMORY_N_PSS("1") " FROM q a "
	"WHERE EXISTS (SELECT 1 FROM q o WHERE o.wl IS a.wl AND o.vms = a.vms"
	"  AND o.variant = 'ksm on')"
	" AND EXISTS (SELECT 1 FROM q v WHERE v.wl IS a.wl AND v.vms = a.vms"
	"  AND v.variant <> 'ksm on')";

/* The lines, first: memory_lines_run() hands it to write_row as its arg. */
struct ovh_state {
	struct memory_lines l;
	int noref;
	double lo, hi;                /* the overheads' range, 0 included */
};

static void count_sources(struct figure_ctx *ctx, void *arg, sqlite3_stmt *st)
{
	struct memory_src *src = arg;

	(void)ctx;
	src->memcg = sqlite3_column_int64(st, 0);
	src->pss = sqlite3_column_int64(st, 1);
}

/* The point's source from its cells' counts of each (both sides). */
static const char *point_source(long long nm, long long np)
{
	return nm && np ? "memcg+pss" : nm ? "memcg" : "pss";
}

static void write_row(struct figure_ctx *ctx, void *arg, sqlite3_stmt *st)
{
	struct ovh_state *m = arg;
	int vms = sqlite3_column_int(st, 2);
	double pct = sqlite3_column_double(st, 3);

	if (sqlite3_column_type(st, 3) == SQLITE_NULL) {
		m->noref++;
		return;
	}
	memory_lines_point(ctx, &m->l, (const char *)sqlite3_column_text(st, 0),
			   (const char *)sqlite3_column_text(st, 1), " against ksm on",
			   "n nref source", vms);
	fprintf(ctx->data, "%d %.6f %d %d ", vms, pct, sqlite3_column_int(st, 4),
		sqlite3_column_int(st, 5));
	gp_data_string(ctx->data, point_source(sqlite3_column_int64(st, 6),
					       sqlite3_column_int64(st, 7)));
	fprintf(ctx->data, "\n");
	if (fabs(pct) > PLOT_DATA_HUGE)    /* NaN or not drawn: plot-data.c */
		return;
	m->lo = fmin(m->lo, pct);
	m->hi = fmax(m->hi, pct);
}

/**
 * fig_memory_overhead_data() - write the memory-overhead figure's data (see
 * the top of this file). Returns 0, -ENODATA when no workload and VM count
 * has both a ksm = on cell and another variant with hostmem data, or -errno.
 */
int fig_memory_overhead_data(struct figure_ctx *ctx)
{
	struct ovh_state m = { .noref = 0 };
	struct memory_src src = { 0, 0 };
	int ret = memory_lines_run(ctx, &m.l, SQL, write_row);

	if (!ret)
		ret = memory_cells_each(ctx, SRC_SQL, count_sources, &src);
	figure_var_int(ctx, "noref", m.noref);
	memory_src_vars(ctx, &src);
	/* whole percents around the points and 0: one point is not an empty range */
	figure_var_int(ctx, "ylo", (long long)floor(m.lo) - 5);
	figure_var_int(ctx, "yhi", (long long)ceil(m.hi) + 10);
	if (ret == -ENODATA)
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no ksm = on cell with a "
			 "ksm = off or model cell of the same workload and VM count, both "
			 "measured with the hostmem probe", (long long)ctx->run_id);
	return ret;
}

const struct figure figure_memory_overhead = {
	"memory-overhead", "Fig. 3 d: host memory overhead % of ksm off and model "
	"against ksm on, per workload and VMs",
	"memory-overhead.gp", fig_memory_overhead_data, FIGURE_SIGNED,
};
