// SPDX-License-Identifier: MIT
/*
 * plan-table.c - the newest capacity plan as tables (plan-table.h): its
 * inputs (per platform and function: one instance's memory and its
 * source, cold and warm samples, the cells), the extra warm memory of each
 * CVM platform over its twin at each target, and the budget question's
 * cold fraction and p99 per platform and policy (mean over seeds).
 */
#include <errno.h>
#include <stdio.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "plan-table.h"

static const char sql_inputs[] =
	"SELECT platform, workload, trace_fns, round(mem_mib, 3) AS mem_mib, mem_source, "
	"cold_n, round(cold_p50_ms, 3) AS cold_p50_ms, cold_source, warm_n, "
	"round(warm_p50_ms, 3) AS warm_p50_ms, cells, runs FROM plan_input WHERE plan_id = ?1 "
	"ORDER BY rowid";
static const char sql_targets[] =
	"SELECT platform, twin, policy, target_pct, round(mem_mib, 1) AS mem_mib, "
	"round(twin_mem_mib, 1) AS twin_mem_mib, round(extra_mib, 1) AS extra_mib, "
	"round(extra_lo_mib, 1) AS extra_lo_mib, round(extra_hi_mib, 1) AS extra_hi_mib, "
	"replicates FROM plan_target WHERE plan_id = ?1 ORDER BY rowid";
static const char sql_budget[] =
	"SELECT platform, label AS policy, count(*) AS seeds, "
	"round(100 * avg(cold_frac), 4) AS cold_pct, round(avg(p99_ms), 2) AS p99_ms, "
	"round(avg(mean_mib), 1) AS mean_mib FROM plan_point WHERE plan_id = ?1 "
	"AND question = 'budget' GROUP BY platform, label ORDER BY min(rowid)";

int64_t plan_table_latest(sqlite3 *h)
{
	sqlite3_stmt *st;
	int64_t id = 0;

	if (!analysis_table_present(h, "plan") ||   /* a database from before 010-plan.sql */
	    analysis_prepare(h, "SELECT max(id) FROM plan", 0, &st))
		return 0;
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/* The rows of @sql (?1 = @id) as text columns, a header first. */
static int print_query(sqlite3 *h, const char *title, const char *sql, int64_t id, FILE *out)
{
	sqlite3_stmt *st;
	int i, n, rc, first = 1;

	if (analysis_prepare(h, sql, id, &st))
		return -EIO;
	n = sqlite3_column_count(st);
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		if (first) {
			fprintf(out, "\n%s\n", title);
			for (i = 0; i < n; i++)
				fprintf(out, "%-*s%s", i < 2 ? 14 : 12, sqlite3_column_name(st, i),
					i + 1 < n ? " " : "\n");
			first = 0;
		}
		for (i = 0; i < n; i++) {
			const unsigned char *v = sqlite3_column_text(st, i);

			fprintf(out, "%-*s%s", i < 2 ? 14 : 12, v ? (const char *)v : "-",
				i + 1 < n ? " " : "\n");
		}
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

cJSON *plan_table_json(sqlite3 *h)
{
	int64_t id = plan_table_latest(h);
	cJSON *o, *in, *tg, *bu;

	if (!id)
		return NULL;
	o = cJSON_CreateObject();
	in = analysis_query_json(h, sql_inputs, id);
	tg = analysis_query_json(h, sql_targets, id);
	bu = analysis_query_json(h, sql_budget, id);
	if (o && in && tg && bu) {
		cJSON_AddNumberToObject(o, "plan", (double)id);
		cJSON_AddItemToObject(o, "inputs", in);
		cJSON_AddItemToObject(o, "targets", tg);
		cJSON_AddItemToObject(o, "budget", bu);
		return o;
	}
	cJSON_Delete(o);
	cJSON_Delete(in);
	cJSON_Delete(tg);
	cJSON_Delete(bu);
	return NULL;
}

static int show_json(sqlite3 *h, FILE *out)
{
	cJSON *o = plan_table_json(h);
	int ret = o ? analysis_json_out(out, o) : -EIO;

	cJSON_Delete(o);
	return ret;
}

int plan_table_show(sqlite3 *h, int json, FILE *out)
{
	int64_t id = plan_table_latest(h);

	if (!id)
		return -ENODATA;
	if (json)
		return show_json(h, out);
	fprintf(out, "plan %lld (cvmbench plan --config; docs/capacity.md)\n", (long long)id);
	return print_query(h, "inputs: one warm instance per platform and function", sql_inputs,
			   id, out) ?:
		print_query(h, "extra warm memory of a CVM pool over its twin at each cold-start "
			    "target (95 % interval over seeds x resamples)", sql_targets, id, out) ?:
		print_query(h, "the budget: cold starts and p99 per platform (mean over seeds)",
			    sql_budget, id, out);
}
