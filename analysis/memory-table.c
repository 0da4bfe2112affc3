// SPDX-License-Identifier: MIT
/*
 * memory-table.c - the memory table (memory-table.h): what the host lost
 * (host memory: the summed charge of the VMs' own memory cgroups where the
 * cell has it, else the summed PSS, with the source it is; then summed PSS,
 * Pss_Anon, drop of MemAvailable + per-CPU free pages, PSS against the
 * cgroup figure; hostmem probe) beside what KSM says it saved
 * (pages_sharing, general_profit; ksm probe), and the PSS saving against
 * the ksm = off twin with the THP mode beside it: the two differ (KSM
 * splits huge pages before merging), so neither stands for the other.
 * Numbers in MiB; "-" where a probe did not measure.
 */
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "cell-series.h"
#include "hostmem-metrics.h"
#include "memory-table.h"

#define HOSTMEM_METRIC(name) \
	"(SELECT value FROM metric WHERE cell_id = c.id AND probe = '" HOSTMEM_PROBE "'" \
	"  AND name = '" name "' AND invocation_id IS NULL)"

/* Per cell: its parameters and numbers; the twin's PSS by a self-join. */
static const char *const SQL =
	"WITH p1 AS (SELECT c.id, c.cell_key,"
	" (SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'workload') AS wl,"
	" COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'ksm'),"
	"  'unchanged') AS ksm,"
	" " CELL_SERIES_CONF " AS conf0, " CELL_SERIES_ACCEPT " AS accept,"
	" COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'vms'),"
	"  '1') AS vms,"
	" COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'memory'),"
	"  '') AS mem,"
	" COALESCE(NULLIF((SELECT value FROM cell_param WHERE cell_id = c.id AND"
	"  key = 'thp'), 'unchanged'), (SELECT value FROM environment WHERE"
	"  run_id = c.run_id AND key = 'thp.enabled'), '-') AS thp,"
	" " HOSTMEM_METRIC(HOSTMEM_PSS) " AS pss,"
	" " HOSTMEM_METRIC(HOSTMEM_MEMCG) " AS memcg,"
	" " HOSTMEM_METRIC("pss_vs_memcg_pct") " AS pct,"
	" " HOSTMEM_METRIC("flag_memcg_pss_disagree") " AS disagree,"
	" " HOSTMEM_METRIC("pss_anon_kb") " AS anon,"
	" " HOSTMEM_METRIC("mem_available_drop_kb") " AS drop_kb,"
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = 'ksm'"
	"  AND name = 'pages_sharing' AND invocation_id IS NULL) AS sharing,"
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = 'ksm'"
	"  AND name = 'general_profit' AND invocation_id IS NULL) AS profit,"
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = 'ksm'"
	"  AND name = 'converged' AND invocation_id IS NULL) AS conv"
	" FROM cell c WHERE c.run_id = ?1), "
	"p AS (SELECT *, conf0 || COALESCE(' ' || accept, '') AS conf FROM p1) "
	"SELECT a.cell_key, a.wl, a.ksm, a.conf, a.vms, a.thp,"
	" COALESCE(a.memcg, a.pss) / 1024.0,"
	" CASE WHEN a.memcg IS NOT NULL THEN 'memcg' ELSE 'pss' END, a.pss / 1024.0,"
	" a.anon / 1024.0, a.drop_kb / 1024.0, a.pct, 1 - a.disagree,"
	" a.sharing, a.profit / 1048576.0,"
	" (SELECT avg(b.pss) FROM p b WHERE b.ksm = 'off' AND a.ksm != 'off' AND"
	"  b.wl = a.wl AND b.conf = a.conf AND b.vms = a.vms AND b.mem = a.mem"
	"  AND b.pss IS NOT NULL) / 1024.0 - a.pss / 1024.0, a.conv "
	"FROM p a WHERE a.pss IS NOT NULL OR a.memcg IS NOT NULL ORDER BY a.id";

static const char *const head[] = {
	"cell", "workload", "ksm", "confidential", "VMs", "THP", "host MiB", "source",
	"PSS MiB", "Pss_Anon MiB", "available drop MiB", "PSS vs cgroup %",
	"PSS agrees with cgroup", "pages_sharing", "general_profit MiB",
	"PSS saving vs ksm off MiB", "converged",
};
#define NCOLS ((int)(sizeof(head) / sizeof(head[0])))
enum { COL_AGREES = 12, COL_SHARING = 13, COL_CONVERGED = 16 };

static void add_row(cJSON *rows, sqlite3_stmt *st)
{
	const char *row[NCOLS];
	char num[NCOLS][32];
	int i;

	for (i = 0; i < NCOLS; i++) {
		row[i] = num[i];
		if (sqlite3_column_type(st, i) == SQLITE_NULL)
			snprintf(num[i], 32, "-");
		else if (i == COL_AGREES || i == COL_CONVERGED)
			snprintf(num[i], 32, "%s", sqlite3_column_int(st, i) ? "yes" : "NO");
		else if (sqlite3_column_type(st, i) == SQLITE_TEXT)
			row[i] = (const char *)sqlite3_column_text(st, i);
		else
			snprintf(num[i], 32, i == COL_SHARING ? "%.0f" : "%.1f",
				 sqlite3_column_double(st, i));
	}
	cJSON_AddItemToArray(rows, cJSON_CreateStringArray(row, NCOLS));
}

struct cJSON *memory_table_json(struct sqlite3 *h, int64_t run_id)
{
	cJSON *t, *rows;
	sqlite3_stmt *st;

	if (analysis_prepare(h, SQL, run_id, &st))
		return NULL;
	t = cJSON_CreateObject();
	cJSON_AddStringToObject(t, "name", "memory");
	cJSON_AddStringToObject(t, "title", "Host memory and KSM (hostmem, ksm probes)");
	cJSON_AddStringToObject(t, "note", "Host memory is the charge of the VMs' own "
				"memory cgroups where the cell has it (source memcg: it holds a "
				"CVM's private memory, which PSS misses), else summed PSS (source "
				"pss). Host-observed memory (PSS, MemAvailable) beside KSM's own "
				"counters; the PSS saving and general_profit differ, most with "
				"THP (docs/probes/ksm.md).");
	cJSON_AddItemToObject(t, "head", cJSON_CreateStringArray(head, NCOLS));
	rows = cJSON_AddArrayToObject(t, "rows");
	while (analysis_step(st) == SQLITE_ROW)
		add_row(rows, st);
	sqlite3_finalize(st);
	if (!cJSON_GetArraySize(rows)) {
		cJSON_Delete(t);
		return NULL;
	}
	return t;
}
