// SPDX-License-Identifier: MIT
/*
 * idle-tables.c - the study-layout tables of a run as JSON rows of text,
 * for `cvmbench show --table NAME` and the report:
 *
 *   idle-policy  one row per warm cell with the idle or cpu probe (or VM
 *                exits under an idle policy it set): workload, size,
 *                threads, VM type (idle-cells.h), policy, calls, average
 *                and median latency (ms), halt entries and idle entries
 *                per invocation (idle probe, in the guest), CPU burnt (cpu
 *                probe, % of the vCPUs' time, POLL time included), and
 *                the host's VM exits of the cell window (vmexit probe,
 *                idle-exits.c): all, HLT (idle class), HLT's share of them
 *                and of their handling time - the layout of the study's
 *                Table III plus the polling cost.
 *   exitcost     one row per cell with the exitcost probe: median and p99
 *                of cpuid, the futex ping-pong and the 50 us sleep (us).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "exitcost-metrics.h"
#include "idle-cells.h"
#include "idle-tables.h"
#include "log.h"
#include "memory-table.h"

static void num(char *buf, size_t len, double v, const char *fmt)
{
	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, fmt, v);
}

static cJSON *table_new(const char *name, const char *title, const char *note,
			const char *const *head, int ncols)
{
	cJSON *t = cJSON_CreateObject();

	cJSON_AddStringToObject(t, "name", name);
	cJSON_AddStringToObject(t, "title", title);
	cJSON_AddStringToObject(t, "note", note);
	cJSON_AddItemToObject(t, "head", cJSON_CreateStringArray(head, ncols));
	cJSON_AddItemToObject(t, "rows", cJSON_CreateArray());
	return t;
}

/* Exits as a count: whole numbers, "-" when not counted. */
static void count(char *buf, size_t len, double v)
{
	num(buf, len, v, "%.0f");
}

#define POLICY_COLS 15

static void policy_row(cJSON *rows, const struct idle_cell *c)
{
	char b[11][32];

	if (c->threads)
		snprintf(b[0], 32, "%d", c->threads);
	else
		snprintf(b[0], 32, "vCPUs");
	snprintf(b[1], 32, "%zu", c->n);
	num(b[2], 32, c->mean_ms, "%.2f");
	num(b[3], 32, c->median_ms, "%.2f");
	num(b[4], 32, c->halt_per_inv, "%.1f");
	num(b[5], 32, c->idle_per_inv, "%.1f");
	num(b[6], 32, c->burnt_pct, "%.0f %%");
	count(b[7], 32, c->exits);
	count(b[8], 32, c->hlt_exits);
	num(b[9], 32, c->hlt_pct, "%.1f %%");
	num(b[10], 32, c->hlt_time_pct, "%.1f %%");
	{
		const char *row[POLICY_COLS] = { c->workload, c->size, b[0], c->vmtype,
			c->idle, b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10] };

		cJSON_AddItemToArray(rows, cJSON_CreateStringArray(row, POLICY_COLS));
	}
}

/* A row of the table: the idle or cpu probe saw it, or the host counted its exits. */
static int policy_shown(const struct idle_cell *c)
{
	return !isnan(c->halt_per_inv) || !isnan(c->burnt_pct) ||
	       (!isnan(c->exits) && idle_cell_of_policy(c));
}

static cJSON *policy_table(sqlite3 *h, int64_t run_id)
{
	static const char *const head[POLICY_COLS] = { "workload", "size", "threads",
		"VM type", "policy", "n", "avg latency ms", "median ms",
		"halt entries / call", "idle entries / call", "CPU burnt", "VM exits",
		"HLT exits", "HLT % of exits", "HLT % of exit time" };
	struct idle_cell *cells = NULL;
	size_t n = 0, i;
	cJSON *t;

	if (idle_cells_load(h, run_id, &cells, &n) || !n) {
		free(cells);
		return NULL;
	}
	t = table_new("idle-policy", "Idle policy per VM type (the study's Table III layout)",
		      "Halt entries: the guest's own count (idle probe) of its halt-state "
		      "entries per call, each a HLT exit under the hlt policy in a VM. CPU "
		      "burnt: busy plus POLL-state time, in % of the vCPUs' time during the "
		      "cell. VM exits: the host's kvm_exit count of the cell window (vmexit "
		      "probe, warm-up calls included); HLT exits: its idle class (HLT, "
		      "idle-halt, MWAIT); HLT % of exit time: their share of exit-handling "
		      "time (vmexit-time = on). '-': not measured (`show --table vmexit` "
		      "says why).", head, POLICY_COLS);
	for (i = 0; i < n; i++)
		if (policy_shown(&cells[i]))
			policy_row(cJSON_GetObjectItem(t, "rows"), &cells[i]);
	if (!cJSON_GetArraySize(cJSON_GetObjectItem(t, "rows"))) {
		cJSON_Delete(t);
		t = NULL;
	}
	free(cells);
	return t;
}

static const char sql_exitcost[] =
	"SELECT c.id, coalesce(p.value, 'default'), c.repeat_index, "
	"(SELECT group_concat(m.name || '=' || m.value, ' ') FROM metric m "
	" WHERE m.cell_id = c.id AND m.probe = '" EXITCOST_PROBE "' AND m.invocation_id IS NULL) "
	"FROM cell c LEFT JOIN cell_param p ON p.cell_id = c.id AND p.key = 'idle' "
	"WHERE c.run_id = ?1 AND EXISTS (SELECT 1 FROM metric m WHERE m.cell_id = c.id "
	"AND m.probe = '" EXITCOST_PROBE "') ORDER BY c.id";

/* "name=value name=value ..." -> the value of @name in us, or NAN. */
static double metric_us(const char *list, const char *name)
{
	char key[64];
	const char *p;

	snprintf(key, sizeof(key), "%s=", name);
	for (p = list; p && (p = strstr(p, key)); p++)
		if (p == list || p[-1] == ' ')
			return strtod(p + strlen(key), NULL) / 1000.0;
	return NAN;
}

static void exitcost_row(cJSON *rows, sqlite3_stmt *st)
{
	static const char *const names[] = {
		EXITCOST_CPUID EXITCOST_MEDIAN, EXITCOST_CPUID EXITCOST_P99,
		EXITCOST_FUTEX EXITCOST_MEDIAN, EXITCOST_FUTEX EXITCOST_P99,
		EXITCOST_SLEEP EXITCOST_MEDIAN, EXITCOST_SLEEP EXITCOST_P99 };
	const char *list = (const char *)sqlite3_column_text(st, 3), *row[8];
	char b[7][32];
	int i;

	snprintf(b[6], 32, "%d", sqlite3_column_int(st, 2));
	row[0] = (const char *)sqlite3_column_text(st, 1);
	row[1] = b[6];
	for (i = 0; i < 6; i++) {
		num(b[i], 32, metric_us(list ? list : "", names[i]), "%.2f");
		row[i + 2] = b[i];
	}
	cJSON_AddItemToArray(rows, cJSON_CreateStringArray(row, 8));
}

static cJSON *exitcost_table(sqlite3 *h, int64_t run_id)
{
	static const char *const head[] = { "policy", "repeat", "cpuid median us",
		"cpuid p99 us", "futex ping-pong median us", "ping-pong p99 us",
		"50 us sleep median us", "sleep p99 us" };
	sqlite3_stmt *st;
	cJSON *t = NULL;

	if (analysis_prepare(h, sql_exitcost, run_id, &st))
		return NULL;
	while (analysis_step(st) == SQLITE_ROW) {
		if (!t)
			t = table_new("exitcost", "Exit-cost micro-benchmarks",
				      "cpuid always exits to the hypervisor; the ping-pong is "
				      "a round trip of two cross-CPU futex wake-ups; the "
				      "sleep is clock_nanosleep(50 us) with 1 ns timer slack.",
				      head, 8);
		exitcost_row(cJSON_GetObjectItem(t, "rows"), st);
	}
	sqlite3_finalize(st);
	return t;
}

struct cJSON *idle_tables_json(struct sqlite3 *h, int64_t run_id)
{
	cJSON *arr = cJSON_CreateArray(), *t;

	if (!arr)
		return NULL;
	t = policy_table(h, run_id);
	if (t)
		cJSON_AddItemToArray(arr, t);
	t = exitcost_table(h, run_id);
	if (t)
		cJSON_AddItemToArray(arr, t);
	t = memory_table_json(h, run_id);
	if (t)
		cJSON_AddItemToArray(arr, t);
	return arr;
}

/* Column widths, then the rows, two spaces apart. */
static void print_text(FILE *out, const cJSON *t)
{
	const cJSON *head = cJSON_GetObjectItem(t, "head"), *rows, *r, *c;
	int w[IDLE_TABLE_MAXCOLS] = { 0 }, i, n = cJSON_GetArraySize(head), l;

	rows = cJSON_GetObjectItem(t, "rows");
	n = n > IDLE_TABLE_MAXCOLS ? IDLE_TABLE_MAXCOLS : n;
	for (i = 0; i < n; i++)
		w[i] = (int)strlen(cJSON_GetArrayItem(head, i)->valuestring);
	cJSON_ArrayForEach(r, rows)
		for (i = 0; i < n && (c = cJSON_GetArrayItem(r, i)); i++)
			if ((l = (int)strlen(c->valuestring)) > w[i])
				w[i] = l;
	fprintf(out, "%s\n", cJSON_GetObjectItem(t, "title")->valuestring);
	for (i = 0; i < n; i++)
		fprintf(out, "  %-*s", w[i], cJSON_GetArrayItem(head, i)->valuestring);
	fprintf(out, "\n");
	cJSON_ArrayForEach(r, rows) {
		for (i = 0; i < n && (c = cJSON_GetArrayItem(r, i)); i++)
			fprintf(out, "  %-*s", w[i], c->valuestring);
		fprintf(out, "\n");
	}
	fprintf(out, "%s\n", cJSON_GetObjectItem(t, "note")->valuestring);
}

int idle_table_show(struct sqlite3 *h, int64_t run_id, const char *name, int json,
		    FILE *out)
{
	cJSON *all, *t, *found = NULL;

	if (strcmp(name, "idle-policy") && strcmp(name, "exitcost") && strcmp(name, "memory")) {
		pr_err("show: unknown table '%s': tables are idle-policy, exitcost, memory",
		       name);
		return -ENOENT;
	}
	all = idle_tables_json(h, run_id);
	cJSON_ArrayForEach(t, all)
		if (!strcmp(cJSON_GetObjectItem(t, "name")->valuestring, name))
			found = t;
	if (!found) {
		/* not an error: nothing of the run fills it (exit 3, a skip) */
		pr_warn("show: skipped table %s: run %lld has no cell that measured it (%s)",
			name, (long long)run_id, !strcmp(name, "memory") ?
			"no cell ran the hostmem or ksm probe" : !strcmp(name, "exitcost") ?
			"no cell ran the exitcost probe" :
			"no warm cell with the idle or cpu probe and measured latency");
		cJSON_Delete(all);
		return -ENODATA;
	}
	if (json)
		analysis_json_out(out, found);
	else if (!analysis_json_term(found))
		print_text(out, found);
	cJSON_Delete(all);
	return 0;
}
