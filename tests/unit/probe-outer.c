// SPDX-License-Identifier: MIT
/*
 * tests/unit/probe-outer.c - the KSM convergence wait of the hostmem and
 * ksm probes (made in their stop, up to ksm-timeout) lies outside every
 * other probe's cell window. Through the probe set, as the runner drives
 * it, into a database: probes = cpu, ksm and cpu, hostmem (cpu opened
 * first, so with plain reverse-order stops it would stop after them), on a
 * fake tree (CVMBENCH_SYSROOT) where KSM runs but full_scans never
 * advances: the wait lasts the whole ksm-timeout of 1.5 s. The cell window
 * is held 100 ms; cpu's `wall` (its window, measured by the clock) must
 * stay far below the wait, which the ksm probe's convergence_wait_s shows
 * did happen. Before the fix cpu's wall was 1.6 s. No root.
 */
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config-test.h"
#include "db.h"
#include "fake-file.h"
#include "probe-set.h"

static char root[PATH_MAX / 2];

static void put(const char *rel, const char *s)
{
	fake_file_put(root, rel, s);
}

#define K "/sys/kernel/mm/ksm/"

/* KSM running, never finishing a scan; this process's smaps_rollup. */
static int tree(void)
{
	char cmd[3 * sizeof(root) + 64], rel[64];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s" K "' '%s/proc/%d'", root, root,
		 (int)getpid());
	if (system(cmd))
		return -1;
	put(K "run", "1\n");
	put(K "full_scans", "7\n");
	put(K "pages_sharing", "100\n");
	put(K "pages_shared", "10\n");
	put(K "pages_unshared", "10\n");
	snprintf(rel, sizeof(rel), "/proc/%d/smaps_rollup", (int)getpid());
	put(rel, "Rss: 100 kB\nPss: 80 kB\nPss_Anon: 50 kB\nAnonymous: 60 kB\n");
	snprintf(rel, sizeof(rel), "/proc/%d/ksm_stat", (int)getpid());
	put(rel, "ksm_rmap_items 10\nksm_merging_pages 5\n");
	snprintf(rel, sizeof(rel), "/proc/%d/stat", (int)getpid());
	put(rel, "1 (probe-outer.t) R 1 1 1 0 -1\n");   /* it runs: the wait goes on */
	return 0;
}

static double metric(struct db *db, const char *probe, const char *name)
{
	sqlite3_stmt *st;
	double v = -1;

	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT value FROM metric WHERE probe = ? "
			       "AND name = ? ORDER BY id DESC LIMIT 1", -1, &st, NULL))
		return -1;
	sqlite3_bind_text(st, 1, probe, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* One cell window with @probes, held 100 ms, as cell-run.c brackets it. */
static void cell(struct db *db, int64_t run, const char *probes, const char *memprobe)
{
	char ini[256], err[512];
	struct cell *cells;
	size_t n;
	pid_t pids[1] = { getpid() };
	struct probe_target t = { .pids = pids, .npids = 1 };
	struct probe_set ps;
	struct sink base = { .db = db, .run_id = run, .ops = &sink_db_ops };
	double wall, wait;

	snprintf(ini, sizeof(ini), "[experiment o]\nworkload = null\nprobes = %s\n"
		 "ksm-timeout = 1.5\nhostmem-interval = 0.05\n", probes);
	if (load_expand(ini, &cells, &n, err, sizeof(err))) {
		tap_ok(0, "the cell loads (%s)", err);
		return;
	}
	t.cell = &cells[0];
	base.cell_id = db_cell_begin(db, run, &cells[0]);
	memset(&ps, 0, sizeof(ps));
	probe_set_open(&ps, probes, &t, &base, NULL, NULL);
	probe_set_start(&ps, PROBE_WINDOW_CELL, 0);
	usleep(100000);
	probe_set_stop(&ps, PROBE_WINDOW_CELL, 0);
	probe_set_emit(&ps, PROBE_WINDOW_CELL, 0, 0);
	probe_set_close(&ps);
	wall = metric(db, "cpu", "wall");
	wait = metric(db, "ksm", "convergence_wait_s");
	if (!strcmp(memprobe, "ksm"))
		tap_ok(wait >= 1.4, "ksm waited its timeout for convergence (%.2f s)", wait);
	else
		tap_ok(metric(db, "hostmem", "samples") >= 20, "hostmem sampled through "
		       "the wait (%.0f samples at 50 ms)", metric(db, "hostmem", "samples"));
	tap_ok(wall > 50 && wall < 1000, "probes = %s: cpu's cell window is not "
	       "stretched by the wait (wall %.0f ms, held 100)", probes, wall);
	config_cells_free(cells, n);
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-outer-XXXXXX", path[64], err[1024] = "", cmd[PATH_MAX];
	struct run_info info = { "host", "test", "t.ini", "" };
	struct db *db = NULL;
	int64_t run;

	tap_plan(5);
	snprintf(root, sizeof(root), "/tmp/cvmbench-outer-root-XXXXXX");
	if (!mkdtemp(dir) || !mkdtemp(root) || tree())
		return 1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tap_ok(!db_open(&db, path, DB_CREATE, err, sizeof(err)), "a database (%s)", err);
	if (!db)
		return 1;
	setenv("CVMBENCH_SYSROOT", root, 1);
	run = db_run_begin(db, &info);
	cell(db, run, "cpu, ksm", "ksm");
	cell(db, run, "cpu, hostmem", "hostmem");
	db_close(db);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s' '%s'", dir, root);
	return system(cmd) ? 1 : tap_done();
}
