// SPDX-License-Identifier: MIT
/*
 * vmexit-table.c - the vmexit table of a run for `show --table vmexit`
 * (vmexit-table.h): every row in cell, window, source, event order; a
 * fidelity flag (kvm_exit against KVM's exits beyond 1 %) or a skip is
 * printed in the row's last column. Without rows it says why: the vmexit
 * probe's skips of the run, else that no cell asked for the probe.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "log.h"
#include "text-safe.h"
#include "vmexit-metrics.h"
#include "vmexit-table.h"

static const char rows_sql[] =
	"SELECT c.cell_key, v.invocation_id, v.vm_idx, v.source, v.method, v.event, v.isa, "
	"v.reason_code, v.reason_name, v.class, v.count, v.time_ns, v.fidelity, v.skip "
	"FROM vmexit v JOIN cell c ON c.id = v.cell_id WHERE c.run_id = ?1 "
	"ORDER BY c.id, v.invocation_id IS NOT NULL, v.invocation_id, v.source DESC, "
	"v.vm_idx, v.event, v.isa, v.reason_name = 'total' DESC, v.count DESC, v.id";

/* JSON keys; the method is the one the vmexit.method note names */
static const char *const heads[] = { "cell", "invocation", "vm", "source",
				     VMEXIT_NOTE_METHOD, "event", "isa", "code", "reason",
				     "class", "count", "time_ns", "fidelity" };
/* text widths (negative: left-aligned); the last column is not padded */
static const int widths[] = { -18, -10, -3, -10, -12, -18, -4, -5, -24, -10, 10, 12, 0 };
#define NCOL (sizeof(heads) / sizeof(heads[0]))

/* Column @i of the row as text ("-" for NULL; the invocation "cell" for NULL). */
static const char *col(sqlite3_stmt *st, int i)
{
	const char *t;

	if (sqlite3_column_type(st, i) == SQLITE_NULL)
		return i == 1 ? "cell" : "-";
	t = (const char *)sqlite3_column_text(st, i);
	return t ? t : "-";
}

/* The row as a line of the table, its text as a terminal shows it. */
static void print_line(FILE *out, sqlite3_stmt *st)
{
	char *t;
	size_t i;

	for (i = 0; i < NCOL; i++) {
		/* the last column: the flag, else the skip */
		t = text_dup(i == NCOL - 1 && sqlite3_column_type(st, 12) == SQLITE_NULL ?
			     col(st, 13) : col(st, (int)i), TEXT_TERM, 0);
		fprintf(out, "%s%*s", i ? " " : "  ", widths[i], t ? t : "?");
		free(t);
	}
	fputs("\n", out);
}

static void print_row(FILE *out, sqlite3_stmt *st, cJSON *arr)
{
	cJSON *o = arr ? cJSON_CreateObject() : NULL;
	size_t i;

	if (!arr) {
		print_line(out, st);
		return;
	}
	for (i = 0; i < NCOL; i++) {
		if (sqlite3_column_type(st, (int)i) == SQLITE_INTEGER && i != 0)
			cJSON_AddNumberToObject(o, heads[i],
						(double)sqlite3_column_int64(st, (int)i));
		else if (sqlite3_column_type(st, (int)i) != SQLITE_NULL)
			cJSON_AddStringToObject(o, heads[i], col(st, (int)i));
		else
			cJSON_AddNullToObject(o, heads[i]);
	}
	if (o) {
		if (sqlite3_column_type(st, 13) != SQLITE_NULL)
			cJSON_AddStringToObject(o, "skip", col(st, 13));
		cJSON_AddItemToArray(arr, o);
	}
}

/* One vmexit skip (cell key, reason) on stderr, as a terminal shows it. */
static void say_skip(sqlite3_stmt *st, int first)
{
	char *key = text_dup(sqlite3_column_text(st, 0) ?
			     (const char *)sqlite3_column_text(st, 0) : "run", TEXT_TERM, 0);
	char *why = text_dup((const char *)sqlite3_column_text(st, 1), TEXT_TERM, 0);

	pr_warn("show: %s%s: vmexit skipped: %s", first ? "no vmexit rows; " : "",
		key ? key : "?", why ? why : "?");
	free(key);
	free(why);
}

/* Why run @run_id has no vmexit rows, on stderr. */
static void say_why(sqlite3 *h, int64_t run_id)
{
	sqlite3_stmt *st;
	int n = 0;

	if (!analysis_prepare(h, "SELECT c.cell_key, s.reason FROM skip s LEFT JOIN cell c "
			      "ON c.id = s.cell_id WHERE s.run_id = ? AND s.probe = '"
			      VMEXIT_PROBE "' ORDER BY s.id", run_id, &st)) {
		while (analysis_step(st) == SQLITE_ROW)
			say_skip(st, !n++);
		sqlite3_finalize(st);
	}
	if (!n)
		pr_warn("show: run %lld has no vmexit rows: no cell ran the vmexit probe "
			"(probes = vmexit, backend = qemu, accel = kvm)", (long long)run_id);
}

int vmexit_table_present(struct sqlite3 *h)
{
	return analysis_table_present(h, "vmexit");
}

static void print_head(FILE *out)
{
	static const char *const t[] = { "CELL", "WINDOW", "VM", "SOURCE", "METHOD", "EVENT",
					 "ISA", "CODE", "REASON", "CLASS", "COUNT", "TIME_NS",
					 "FIDELITY FLAG / SKIP" };
	size_t i;

	fprintf(out, "vmexit:\n");
	for (i = 0; i < NCOL; i++)
		fprintf(out, "%s%*s", i ? " " : "  ", widths[i], t[i]);
	fputs("\n", out);
}

int vmexit_table_show(struct sqlite3 *h, int64_t run_id, int json, FILE *out)
{
	cJSON *arr = json ? cJSON_CreateArray() : NULL;
	sqlite3_stmt *st;
	int n = 0;

	if (!vmexit_table_present(h)) {
		pr_warn("show: no vmexit table: the database is from before schema 007");
		cJSON_Delete(arr);
		return -ENODATA;
	}
	if (analysis_prepare(h, rows_sql, run_id, &st)) {
		cJSON_Delete(arr);
		return -EIO;
	}
	while (analysis_step(st) == SQLITE_ROW) {
		if (!n++ && !json)
			print_head(out);
		print_row(out, st, arr);
	}
	sqlite3_finalize(st);
	if (!n)
		say_why(h, run_id);
	if (n && json)
		analysis_json_out(out, arr);
	cJSON_Delete(arr);
	return n ? 0 : -ENODATA;
}
