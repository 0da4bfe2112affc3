// SPDX-License-Identifier: MIT
/*
 * fig-ple.c - the ple figure's data (analysis/fig-ple.c) from calls whose
 * medians are known. Workload w with the kv co-runner in a VM: medians 10
 * (PLE on, alone), 15 (on, kv), 20 (off, alone), 50 (off, kv), so the
 * function's slowdown is 50 % with PLE on and 150 % off; the co-runner did
 * 12000 requests/s alone and 8000 beside it with PLE on (50 % more time
 * per request), 9000 and 3000 with PLE off (200 %). The same workload with
 * the co-runner on the host is its own row (no co-runner figures: "?"),
 * and a cpu co-runner cell is never drawn. A run whose ple = off cells
 * have no calls is -ENODATA.
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
	"CREATE TABLE cell (id INTEGER PRIMARY KEY, run_id INTEGER, workload TEXT);"
	"CREATE TABLE cell_param (cell_id INTEGER, key TEXT, value TEXT);"
	"CREATE TABLE skip (run_id INTEGER, cell_id INTEGER, probe TEXT, reason TEXT);"
	"CREATE TABLE v_invocation_measured (run_id INTEGER, cell_id INTEGER, start TEXT, "
	"latency_ms REAL, fn_ms REAL);"
	"INSERT INTO cell VALUES (1, 1, 'w'), (2, 1, 'w'), (3, 1, 'w'), (4, 1, 'w'), "
	"(5, 1, 'w'), (6, 1, 'w'), (7, 1, 'w'), (8, 1, 'w'), (9, 2, 'w');"
	"INSERT INTO cell_param VALUES "
	"(1, 'ple', 'default'), (1, 'corunner', '0'), (1, 'corunner-in', 'vm'),"
	"(2, 'ple', 'default'), (2, 'corunner', '4'), (2, 'corunner-kind', 'kv'), "
	"(2, 'corunner-in', 'vm'), (2, 'corunner.kv_alone_requests_per_s', '12000'), "
	"(2, 'corunner.kv_requests_per_s', '8000'),"
	"(3, 'ple', 'off'), (3, 'corunner', '0'), (3, 'corunner-in', 'vm'),"
	"(4, 'ple', 'off'), (4, 'corunner', '4'), (4, 'corunner-kind', 'kv'), "
	"(4, 'corunner-in', 'vm'), (4, 'corunner.kv_alone_requests_per_s', '9000'), "
	"(4, 'corunner.kv_requests_per_s', '3000'),"
	/* the host's co-runner (no corunner-in: a database from before it) */
	"(5, 'ple', 'default'), (5, 'corunner', '0'),"
	"(6, 'ple', 'off'), (6, 'corunner', '4'), (6, 'corunner-kind', 'kv'),"
	/* a cpu co-runner: not a kv cell, never drawn */
	"(7, 'ple', 'off'), (7, 'corunner', '2'), (7, 'corunner-kind', 'cpu'),"
	"(8, 'ple', 'default'), (8, 'corunner', '4'), (8, 'corunner-kind', 'kv'),"
	"(9, 'ple', 'default'), (9, 'corunner', '0');"
	"INSERT INTO v_invocation_measured (run_id, cell_id, latency_ms) VALUES "
	"(1, 1, 9), (1, 1, 10), (1, 1, 11), (1, 2, 15), (1, 2, 14), (1, 2, 16),"
	"(1, 3, 20), (1, 4, 50), (1, 5, 4), (1, 6, 6), (1, 7, 99), (1, 8, 5), (2, 9, 1);";

/* The data line whose label starts with @label, or NULL. */
static const char *line_of(const char *out, const char *label)
{
	const char *l;

	for (l = out; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, label, strlen(label)))
			return l;
	return NULL;
}

int main(void)
{
	struct figure_ctx ctx;
	char out[4096];
	const char *l;
	sqlite3 *h;
	int ret;

	tap_plan(5);
	if (sqlite3_open(":memory:", &h) || sqlite3_exec(h, schema, NULL, NULL, NULL)) {
		tap_ok(0, "an in-memory database: %s", sqlite3_errmsg(h));
		return 1;
	}
	ret = fig_test_draw(h, 1, fig_ple_data, out, sizeof(out), &ctx);
	tap_ok(ret == 0, "run 1 draws (%d)", ret);
	l = line_of(out, "\"w [vm] (N=8)\"");
	tap_ok(l && !strncmp(l, "\"w [vm] (N=8)\" 10 15 20 50 50 150 50 200\n", 41),
	       "co-runner in a VM: medians 10 15 20 50, function +50 %% / +150 %%, co-runner "
	       "+50 %% / +200 %%: %.*s", l ? (int)strcspn(l, "\n") : 0, l ? l : "");
	l = line_of(out, "\"w (N=3)\"");
	tap_ok(l && !strncmp(l, "\"w (N=3)\" 4 5 ? 6 25 ? ? ?\n", 27),
	       "co-runner on the host: its own row, its cells (cpu co-runner left out), no "
	       "co-runner figures: %.*s", l ? (int)strcspn(l, "\n") : 0, l ? l : "");
	tap_ok(!strstr(out, " 99"), "the cpu co-runner cell is not drawn");
	ret = fig_test_draw(h, 2, fig_ple_data, out, sizeof(out), &ctx);
	tap_ok(ret == -ENODATA && strstr(out, "ple = off"), "a run without ple = off cells: "
	       "-ENODATA, why: %s", out);
	sqlite3_close(h);
	return 0;
}
