// SPDX-License-Identifier: MIT
/*
 * tests/unit/fig-ipc.c - the ipc figure's data (analysis/fig-ipc.c) from
 * rows whose medians are known: cell 1 with IPC 1, 3, 2 (median 2) and
 * LLC MPKI 9, 5, 7 (median 7) in three calls, plus a cell-window IPC row
 * that is not a call's (left out); cell 2 with IPC only (MPKI missing: "?",
 * never 0); cell 3 without IPC (software fallback: left out); a run with
 * no IPC at all is -ENODATA with the reason. Run 3's cell 5 has a call
 * whose value cannot be read (the view metric fails on it with SQLite's
 * "integer overflow" mid-query): an error, never a median of the calls
 * read before it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "fig-test.h"
#include "figures.h"
#include "tap.h"

static const char schema[] =
	"CREATE TABLE cell (id INTEGER PRIMARY KEY, run_id INTEGER, workload TEXT, "
	"backend TEXT);"
	"CREATE TABLE cell_param (cell_id INTEGER, key TEXT, value TEXT);"
	"CREATE TABLE metric_row (id INTEGER PRIMARY KEY, cell_id INTEGER, invocation_id "
	"INTEGER, probe TEXT, name TEXT, value REAL, unit TEXT);"
	/* a value of 666 fails the query reading it (abs() of the smallest integer) */
	"CREATE VIEW metric AS SELECT id, cell_id, invocation_id, probe, name, CASE WHEN "
	"value = 666 THEN abs(-9223372036854775807 - 1) ELSE value END AS value, unit "
	"FROM metric_row;"
	"INSERT INTO cell VALUES (1, 1, 'matmul', 'native'), (2, 1, 'pyaes', 'runc'), "
	"(3, 1, 'null', 'native'), (4, 2, 'matmul', 'native'), (5, 3, 'matmul', 'native');"
	"INSERT INTO metric_row (cell_id, invocation_id, probe, name, value, unit) VALUES "
	"(5, 51, 'pmu', 'instructions_per_cycle', 1, 'ratio'),"
	"(5, 52, 'pmu', 'instructions_per_cycle', 666, 'ratio'),"
	"(5, 53, 'pmu', 'instructions_per_cycle', 3, 'ratio'),"
	"(1, 11, 'pmu', 'instructions_per_cycle', 1, 'ratio'),"
	"(1, 12, 'pmu', 'instructions_per_cycle', 3, 'ratio'),"
	"(1, 13, 'pmu', 'instructions_per_cycle', 2, 'ratio'),"
	"(1, NULL, 'pmu', 'instructions_per_cycle', 100, 'ratio'),"
	"(1, 11, 'pmu', 'mpki.cache-misses', 9, 'x'),"
	"(1, 12, 'pmu', 'mpki.cache-misses', 5, 'x'),"
	"(1, 13, 'pmu', 'mpki.cache-misses', 7, 'x'),"
	"(2, 21, 'pmu', 'instructions_per_cycle', 0.5, 'ratio'),"
	"(3, 31, 'pmu', 'software.task-clock', 5, 'ns'),"
	"(4, 41, 'pmu', 'software.task-clock', 5, 'ns');";

int main(void)
{
	struct figure_ctx ctx;
	char out[4096];
	sqlite3 *h;
	int ret;

	tap_plan(6);
	if (sqlite3_open(":memory:", &h) || sqlite3_exec(h, schema, NULL, NULL, NULL)) {
		tap_ok(0, "an in-memory database: %s", sqlite3_errmsg(h));
		return 1;
	}
	ret = fig_test_draw(h, 1, fig_ipc_data, out, sizeof(out), &ctx);
	printf("# %s", out);
	tap_ok(!ret, "run 1 has IPC rows: drawn (%d)", ret);
	tap_contains(out, "(N=3)\" 2 7\n", "cell 1: medians of its calls, IPC 2 and MPKI 7");
	tap_contains(out, "(N=1)\" 0.5 ?\n", "cell 2: IPC 0.5, MPKI missing ('?', not 0)");
	tap_ok(!strstr(out, "null"), "cell 3 (software events only) is left out");
	ret = fig_test_draw(h, 2, fig_ipc_data, out, sizeof(out), &ctx);
	tap_ok(ret == -ENODATA && strstr(ctx.why, "no cell with instructions per cycle"),
	       "a run without IPC: -ENODATA, saying why (%s)", ctx.why);
	ret = fig_test_draw(h, 3, fig_ipc_data, out, sizeof(out), &ctx);
	tap_ok(ret < 0 && ret != -ENODATA && !strstr(out, "(N="),
	       "a call's value unreadable mid-query: an error (%d), no row from the calls read "
	       "before it", ret);
	sqlite3_close(h);
	return tap_done();
}
