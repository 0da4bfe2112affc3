/* SPDX-License-Identifier: MIT */
/*
 * memory-cells.h - the SQL every memory figure starts from: per cell of run
 * ?1 its workload (wl: with its variant after a space where the cell sets
 * one, "image-recognition resnet152", and, where the run has a cell of
 * runtime = python, its runtime in brackets, "hello-world [python]",
 * "hello-world [c]": MEMORY_CELL_RUNTIME), its workload per VM (vmwl: "a+b+c", NULL when all
 * VMs run wl), VMs (vms; 1 where the key is absent), instances
 * (inst), its confidential type (conf: what it got, cell-series.h: none,
 * model, sev-snp, tdx), its memory acceptance (accept: eager, lazy, NULL:
 * CELL_SERIES_ACCEPT), its series (variant: "ksm on", "ksm off", "ksm
 * unchanged" for a regular VM; "model", "model lazy", "sev-snp, ksm on",
 * "tdx", ...: CELL_SERIES_NAME), the hostmem probe's summed PSS and summed memory
 * cgroup charge in kB (pss, memcg; NULL: not measured) and the cell's
 * host memory in kB (host: memcg where the cell has it, else pss; NULL:
 * no hostmem data) with the one it is (src: 'memcg', 'pss'). A CVM's
 * private memory (guest_memfd) is charged to its VM's cgroup and is in no
 * PSS: the cgroup figure is the host's, PSS the fallback for cells and
 * databases without it (docs/probes/hostmem.md). A plain string literal:
 * it concatenates into each figure's query (fig-memory*.c,
 * fig-consolidation.c). And the helpers of memory-cells.c.
 */
#ifndef CVMBENCH_MEMORY_CELLS_H
#define CVMBENCH_MEMORY_CELLS_H

#include "cell-series.h"
#include "figures.h"
#include "hostmem-metrics.h"

struct sqlite3_stmt;

/* Called with each row of a query (memory_cells_each). */
typedef void (*memory_row_fn)(struct figure_ctx *ctx, void *arg, struct sqlite3_stmt *st);

/* The lines of a line figure, one data block each (memory_lines_point). */
struct memory_lines {
	char series[160];         /* the title of the block being written */
	int blocks, maxvms, multi_wl;
	int pts, maxpts;          /* points of the current line, of the longest */
};

/* The cells a figure drew, by where their host memory came from. */
struct memory_src {
	long long memcg, pss;
};

int memory_cells_workloads(struct figure_ctx *ctx);
int memory_cells_each(struct figure_ctx *ctx, const char *sql, memory_row_fn row, void *arg);
void memory_lines_point(struct figure_ctx *ctx, struct memory_lines *l, const char *wl,
			const char *var, const char *suffix, const char *cols, int vms);
void memory_src_vars(struct figure_ctx *ctx, const struct memory_src *src);
int memory_lines_run(struct figure_ctx *ctx, struct memory_lines *l, const char *sql,
		     memory_row_fn row);

#define MEMORY_CELL_PARAM(key) \
	"(SELECT value FROM cell_param WHERE cell_id = c.id AND key = '" key "')"

/*
 * " [c]" or " [python]" where run ?1 has a cell of runtime = python (the
 * two runtimes are then two lines, two groups of bars), else "": a run of
 * C cells only draws as before.
 */
#define MEMORY_CELL_RUNTIME \
	"CASE WHEN EXISTS (SELECT 1 FROM cell_param q JOIN cell r ON r.id = q.cell_id" \
	" WHERE r.run_id = ?1 AND q.key = 'runtime' AND q.value = 'python')" \
	" THEN ' [' || COALESCE(" MEMORY_CELL_PARAM("runtime") ", 'c') || ']' ELSE '' END"

#define MEMORY_CELLS_CTE \
	"p0 AS (SELECT c.id, " MEMORY_CELL_PARAM("workload") \
	" || COALESCE(' ' || NULLIF(" MEMORY_CELL_PARAM("variant") ", ''), '')" \
	" || " MEMORY_CELL_RUNTIME " AS wl," \
	" NULLIF(" MEMORY_CELL_PARAM("vm-workloads") ", '') AS vmwl," \
	" COALESCE(" MEMORY_CELL_PARAM("ksm") ", 'unchanged') AS ksm," \
	" " CELL_SERIES_CONF " AS conf," \
	" " CELL_SERIES_ACCEPT " AS accept," \
	" CAST(COALESCE(" MEMORY_CELL_PARAM("vms") ", '1') AS INTEGER) AS vms," \
	" CAST(COALESCE(" MEMORY_CELL_PARAM("instances") ", '1') AS INTEGER) AS inst," \
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = '" HOSTMEM_PROBE "'" \
	"  AND name = '" HOSTMEM_PSS "' AND invocation_id IS NULL) AS pss," \
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = '" HOSTMEM_PROBE "'" \
	"  AND name = '" HOSTMEM_MEMCG "' AND invocation_id IS NULL) AS memcg" \
	" FROM cell c WHERE c.run_id = ?1), " \
	"p AS (SELECT *, " CELL_SERIES_NAME("conf", "accept", "ksm") " AS variant," \
	" COALESCE(memcg, pss) AS host," \
	" CASE WHEN memcg IS NOT NULL THEN 'memcg' WHEN pss IS NOT NULL THEN 'pss' END AS src" \
	" FROM p0)"

/*
 * Aggregates over rows of p where @cond holds (a group's cells): how many
 * drew their cgroup figure, how many PSS, and the point's source, 'memcg',
 * 'pss' or 'memcg+pss' (NULL: no cell with host memory).
 */
#define MEMORY_N_MEMCG(cond) "count(CASE WHEN " cond " AND src = 'memcg' THEN 1 END)"
#define MEMORY_N_PSS(cond) "count(CASE WHEN " cond " AND src = 'pss' THEN 1 END)"
#define MEMORY_SOURCE(cond) \
	"CASE WHEN " MEMORY_N_MEMCG(cond) " > 0 AND " MEMORY_N_PSS(cond) " > 0" \
	" THEN 'memcg+pss' WHEN " MEMORY_N_MEMCG(cond) " > 0 THEN 'memcg'" \
	" WHEN " MEMORY_N_PSS(cond) " > 0 THEN 'pss' END"

#endif
