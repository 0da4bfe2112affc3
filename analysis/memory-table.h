/* SPDX-License-Identifier: MIT */
/*
 * memory-table.h - the memory table of a run (`cvmbench show --table memory`
 * and the report): host-observed memory beside KSM's own counters.
 */
#ifndef CVMBENCH_MEMORY_TABLE_H
#define CVMBENCH_MEMORY_TABLE_H

#include <stdint.h>

struct sqlite3;
struct cJSON;

/**
 * memory_table_json() - one row per cell with the hostmem probe: workload,
 * ksm, confidential (the type it got: cell-series.h; with its acceptance,
 * eager or lazy, where the database has a lazy cell), VMs, the THP mode,
 * host memory (memory cgroups, else summed PSS) and its source (memcg,
 * pss), summed PSS and Pss_Anon, the drop of MemAvailable + per-CPU free
 * pages, PSS against the cgroup figure (% and whether within 10 %:
 * flag_memcg_pss_disagree), KSM's pages_sharing and
 * general_profit, the PSS saving against the cell's ksm = off twin (same
 * workload, confidential, VMs, memory) and whether KSM converged; as a table object of idle-tables.h's
 * form, or NULL when no cell has hostmem data (or on error).
 */
struct cJSON *memory_table_json(struct sqlite3 *h, int64_t run_id);

#endif
