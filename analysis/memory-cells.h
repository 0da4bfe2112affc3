/* SPDX-License-Identifier: MIT */
/*
 * memory-cells.h - the SQL every memory figure starts from: per cell of run
 * ?1 its workload (wl), VMs (vms; 1 where the key is absent), instances
 * (inst), memory variant (variant: "ksm on", "ksm off", "ksm unchanged",
 * "model" or "model, ksm on") and the hostmem probe's summed PSS in kB
 * (pss; NULL: the cell has no hostmem data). A plain string literal:
 * it concatenates into each figure's query (fig-memory*.c,
 * fig-consolidation.c).
 */
#ifndef CVMBENCH_MEMORY_CELLS_H
#define CVMBENCH_MEMORY_CELLS_H

#include "hostmem-metrics.h"

#define MEMORY_CELL_PARAM(key) \
	"(SELECT value FROM cell_param WHERE cell_id = c.id AND key = '" key "')"

#define MEMORY_CELLS_CTE \
	"p0 AS (SELECT c.id, " MEMORY_CELL_PARAM("workload") " AS wl," \
	" COALESCE(" MEMORY_CELL_PARAM("ksm") ", 'unchanged') AS ksm," \
	" COALESCE(" MEMORY_CELL_PARAM("confidential") ", 'none') AS conf," \
	" CAST(COALESCE(" MEMORY_CELL_PARAM("vms") ", '1') AS INTEGER) AS vms," \
	" CAST(COALESCE(" MEMORY_CELL_PARAM("instances") ", '1') AS INTEGER) AS inst," \
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = '" HOSTMEM_PROBE "'" \
	"  AND name = '" HOSTMEM_PSS "' AND invocation_id IS NULL) AS pss" \
	" FROM cell c WHERE c.run_id = ?1), " \
	"p AS (SELECT *, CASE WHEN conf = 'model' THEN" \
	"  'model' || CASE WHEN ksm = 'off' THEN '' ELSE ', ksm ' || ksm END" \
	"  ELSE 'ksm ' || ksm END AS variant FROM p0)"

#endif
