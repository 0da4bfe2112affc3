// SPDX-License-Identifier: MIT
/*
 * fig-seed.c - the seed-start and seed-memory figures' data
 * (analysis/fig-seed-start.c, fig-seed-memory.c) from rows whose means are
 * known. Workload w: two bare cells (3 starts: fork 1, 1 and 4 ms, init 10,
 * 10 and 4, first call 2 each: means over the starts 2, 8, 2, not the
 * cells' means 2.5, 7, 2), a warm cell on the host and a warm cell in
 * sev-snp VMs (its own VM type, after native). Memory after the calls
 * (called = 1) only: a sample before a fork (99999) is never drawn; a
 * child without frames measured counts in no mean of them and a group
 * with none is NaN; rows from before called existed count at the cell's
 * most children. Run 2 has a zygote cell without rows: -ENODATA both.
 * Run 1's machine is a VM: its zygote cells are still native (not the
 * regular VM of a qemu cell).
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
	"CREATE TABLE environment (run_id INTEGER, key TEXT, value TEXT);"
	"CREATE TABLE seed_start (cell_id INTEGER, pid INTEGER, layer TEXT, fork_ns INTEGER, "
	"init_ns INTEGER, first_call_ns INTEGER);"
	"CREATE TABLE seed_memory (cell_id INTEGER, children INTEGER, called INTEGER, "
	"pid INTEGER, pss_kb INTEGER, uss_kb INTEGER, private_dirty_kb INTEGER, "
	"seed_shared_kb INTEGER, seed_pss_kb INTEGER);"
	"INSERT INTO cell VALUES (1, 1, 'w', 'zygote'), (2, 1, 'w', 'zygote'), "
	"(3, 1, 'w', 'zygote'), (4, 1, 'w', 'qemu'), (5, 2, 'w', 'zygote');"
	"INSERT INTO cell_param VALUES (1, 'seed-layer', 'bare'), (2, 'seed-layer', 'bare'), "
	"(3, 'seed-layer', 'warm'), (4, 'seed-layer', 'warm'), (4, 'confidential', 'sev-snp'), "
	"(5, 'seed-layer', 'warm');"
	"INSERT INTO environment VALUES (1, 'hypervisor.present', 'yes');"
	"INSERT INTO seed_start VALUES (1, 11, 'bare', 1000000, 10000000, 2000000), "
	"(1, 12, 'bare', 1000000, 10000000, 2000000), (2, 21, 'bare', 4000000, 4000000, 2000000), "
	"(3, 31, 'warm', 1000000, 500000, 2000000), (4, 41, 'warm', 3000000, 500000, 2500000);"
	"INSERT INTO seed_memory VALUES (1, 1, 0, 11, 99999, 99999, 99999, 99999, 99999), "
	"(1, 2, 1, 11, 1000, 300, 100, 600, 1800), (1, 2, 1, 12, 2000, 500, 300, NULL, 1800), "
	"(3, 1, 1, 31, 700, 50, 40, 660, 2000), "
	"(4, 1, NULL, 41, 99999, 99999, 99999, 99999, 99999), "
	"(4, 2, NULL, 41, 800, 100, 60, NULL, 2100), (4, 2, NULL, 42, 800, 100, 60, NULL, 2100);";

/* Whether @out has the line @want, whole. */
static int has_line(const char *out, const char *want)
{
	const char *l;

	for (l = out; l; l = strchr(l, '\n'), l = l ? l + 1 : NULL)
		if (!strncmp(l, want, strlen(want)) && l[strlen(want)] == '\n')
			return 1;
	return 0;
}

static void check(const char *out, const char *want, const char *what)
{
	tap_ok(has_line(out, want), "%s: %s", what, want);
}

int main(void)
{
	struct figure_ctx ctx;
	char out[4096];
	sqlite3 *h;
	int ret;

	tap_plan(10);
	if (sqlite3_open(":memory:", &h) || sqlite3_exec(h, schema, NULL, NULL, NULL)) {
		tap_ok(0, "an in-memory database: %s", sqlite3_errmsg(h));
		return 1;
	}
	ret = fig_test_draw(h, 1, fig_seed_start_data, out, sizeof(out), &ctx);
	tap_ok(ret == 0, "seed-start draws run 1 (%d)", ret);
	check(out, "\"w bare, native\" 2.0000 8.0000 2.0000 12.0000 3 2",
	      "two bare cells, one group, means over their 3 starts");
	check(out, "\"w warm, native\" 1.0000 0.5000 2.0000 3.5000 1 1", "the warm cell");
	check(out, "\"w warm, sev-snp\" 3.0000 0.5000 2.5000 6.0000 1 1",
	      "the warm cell in sev-snp VMs, after native");
	ret = fig_test_draw(h, 1, fig_seed_memory_data, out, sizeof(out), &ctx);
	tap_ok(ret == 0, "seed-memory draws run 1 (%d)", ret);
	check(out, "\"w bare, native\" 1500.0000 400.0000 200.0000 600.0000 1800.0000 2.0000 2 1",
	      "bare: after the calls only, frames over the child that has them");
	check(out, "\"w warm, native\" 700.0000 50.0000 40.0000 660.0000 2000.0000 1.0000 1 1",
	      "warm on the host");
	check(out, "\"w warm, sev-snp\" 800.0000 100.0000 60.0000 NaN 2100.0000 2.0000 2 1",
	      "rows without called: those at the most children; frames not measured: NaN");
	ret = fig_test_draw(h, 2, fig_seed_start_data, out, sizeof(out), &ctx);
	tap_ok(ret == -ENODATA && strstr(out, "no start forked from a seed (a cell with a seed-layer)"),
	       "seed-start, run 2 without starts: -ENODATA, why: %s", out);
	ret = fig_test_draw(h, 2, fig_seed_memory_data, out, sizeof(out), &ctx);
	tap_ok(ret == -ENODATA && strstr(out, "after its calls"),
	       "seed-memory, run 2 without samples: -ENODATA, why: %s", out);
	sqlite3_close(h);
	return 0;
}
