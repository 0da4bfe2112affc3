// SPDX-License-Identifier: MIT
/*
 * tests/unit/ksm-probe.c - the ksm probe on fake trees (CVMBENCH_SYSROOT),
 * through its ops and a recording sink: every counter present (each stored
 * with the fixture's value); general_profit, ksm_zero_pages and
 * /proc/PID/ksm_stat absent (a skip row naming each, and no metric of that
 * name: never a zero); KSM absent (not supported, with the reason); KSM
 * running: convergence reached (a thread advances full_scans with
 * pages_sharing steady) and not reached (full_scans still: the timeout is
 * stored and flagged); a `model` cell whose VM merged pages is flagged;
 * no process mergeable (ksm_mergeable: no): not waited for (it waited the
 * whole timeout before: full_scans does not advance then); a process
 * whose ksm_stat cannot be read, or lacks a field: a skip row naming it
 * and no value (it stored -1 before), no sum (the model flag still when
 * the known part is over the limit); 300 processes: the 44 beyond the
 * probe's 256 are said, and no sum over a part of the cell.
 * No root.
 */
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cell.h"
#include "clock.h"
#include "probe.h"
#include "sink.h"
#include "fake-file.h"
#include "tap.h"

extern const struct probe_ops probe_ksm;

static char root[PATH_MAX / 2];
static char metrics[65536], skips[4096], notes[4096];

static void cat(char *dst, size_t len, const char *s)
{
	size_t o = strlen(dst);

	snprintf(dst + o, len - o, "%s\n", s);
}

static int rec_metric(struct sink *s, const char *name, double v, const char *unit)
{
	char line[160];

	(void)s;
	snprintf(line, sizeof(line), "%s=%.15g %s", name, v, unit);
	cat(metrics, sizeof(metrics), line);
	return 0;
}

static int rec_skip(struct sink *s, const char *reason)
{
	(void)s;
	cat(skips, sizeof(skips), reason);
	return 0;
}

static int rec_note(struct sink *s, const char *key, const char *value)
{
	char line[400];

	(void)s;
	snprintf(line, sizeof(line), "%s=%s", key, value);
	cat(notes, sizeof(notes), line);
	return 0;
}

static int64_t rec_row(struct sink *s, const struct sink_table *t, const void *row)
{
	(void)s;
	(void)t;
	(void)row;
	return 1;
}

static const struct sink_ops rec_ops = { rec_metric, rec_skip, rec_note, rec_row };

static void put(const char *rel, const char *s)
{
	fake_file_put(root, rel, s);
}

#define K "/sys/kernel/mm/ksm/"

static void mkdir_rel(const char *rel)
{
	char cmd[sizeof(root) + 128];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s%s'", root, rel);
	if (system(cmd))
		exit(1);
}

/* /proc/PID/stat of a process in state @state (R runs, Z a zombie). */
static void proc_stat(pid_t pid, char state)
{
	char rel[64], text[96];

	snprintf(rel, sizeof(rel), "/proc/%d", (int)pid);
	mkdir_rel(rel);
	snprintf(rel, sizeof(rel), "/proc/%d/stat", (int)pid);
	snprintf(text, sizeof(text), "%d (qemu-system-x86) %c 1 1 1 0 -1\n", (int)pid, state);
	put(rel, text);
}

/* A tree with KSM at @run; @full: general_profit, ksm_zero_pages, ksm_stat. */
static void tree(const char *run, int full)
{
	char cmd[3 * sizeof(root) + 64], rel[64];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s' && mkdir -p '%s" K "' '%s/proc/%d'", root,
		 root, root, (int)getpid());
	if (system(cmd))
		exit(1);
	proc_stat(getpid(), 'R');
	put(K "run", run);
	put(K "pages_shared", "5012\n");
	put(K "pages_sharing", "22834\n");
	put(K "pages_unshared", "40960\n");
	put(K "full_scans", "7\n");
	put(K "pages_to_scan", "5000\n");
	if (!full)
		return;
	put(K "general_profit", "90177536\n");
	put(K "ksm_zero_pages", "0\n");
	snprintf(rel, sizeof(rel), "/proc/%d/ksm_stat", (int)getpid());
	put(rel, "ksm_rmap_items 65612\nksm_zero_pages 0\nksm_merging_pages 15305\n"
	    "ksm_process_profit 57427744\n");
}

/* The probe's cell window over @pids; the rows land in the buffers. */
static void run_pids(const char *confidential, double timeout_s, pid_t *pids, int n)
{
	struct cell c;
	struct probe_target t = { .cell = &c, .pids = pids, .npids = n };
	struct probe p = { .ops = &probe_ksm, .target = &t };
	struct sink s = { .ops = &rec_ops };

	memset(&c, 0, sizeof(c));
	snprintf(c.confidential, sizeof(c.confidential), "%s", confidential);
	c.memory = 256;
	c.ksm_timeout = timeout_s;
	c.hostmem_interval = 0.05;
	metrics[0] = skips[0] = notes[0] = '\0';
	if (probe_ksm.open(&p) || probe_ksm.start(&p, PROBE_WINDOW_CELL) ||
	    probe_ksm.stop(&p, PROBE_WINDOW_CELL) || probe_ksm.emit(&p, PROBE_WINDOW_CELL, &s))
		printf("# the probe failed: %s\n", p.error);
	probe_ksm.close(&p);
}

/* Over this process, as two instances sharing it. */
static void run_probe(const char *confidential, double timeout_s)
{
	pid_t pids[2] = { getpid(), getpid() };

	run_pids(confidential, timeout_s, pids, 2);
}

static void test_present(void)
{
	tree("0\n", 1);
	run_probe("none", 5);
	tap_contains(metrics, "pages_sharing=22834 pages", "pages_sharing from sysfs");
	tap_contains(metrics, "general_profit=90177536 B", "general_profit in bytes");
	tap_contains(metrics, "ksm_zero_pages=0 pages", "ksm_zero_pages present: stored");
	tap_contains(metrics, "proc0.ksm_merging_pages=15305 pages",
		     "ksm_stat of the one process (two instances share it)");
	tap_ok(!strstr(metrics, "proc1."), "the shared process is counted once");
	tap_ok(skips[0] == '\0', "nothing skipped (%s)", skips);
	tap_contains(notes, "convergence=not waited for: KSM is not running (run = 0)",
		     "run = 0: no wait, said so");
	tap_contains(notes, "pages_to_scan=5000", "the settings are notes of the cell");
	tap_ok(!strstr(metrics, "flag_model_merged"), "no model flag for a regular VM");
}

static void test_absent(void)
{
	char why[256] = "", cmd[sizeof(root) + 32];

	tree("0\n", 0);
	run_probe("none", 5);
	tap_contains(skips, "general_profit: not in this kernel", "general_profit absent: skip");
	tap_contains(skips, "ksm_zero_pages: not in this kernel", "ksm_zero_pages absent: skip");
	tap_contains(skips, "per-process ksm_stat: not in this kernel", "ksm_stat absent: skip");
	tap_ok(!strstr(metrics, "general_profit=") && !strstr(metrics, "ksm_zero_pages=") &&
	       !strstr(metrics, "ksm_merging_pages"), "and no metric of those names");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys'", root);
	if (system(cmd))
		return;
	tap_ok(!probe_ksm.supported(why, sizeof(why)), "no KSM: not supported");
	tap_contains(why, "KSM is not built", "the reason says so");
}

static volatile int bumping;

/* KSM at work: a full scan every 40 ms, pages_sharing steady. */
static void *bump(void *arg)
{
	struct timespec d = { 0, 40000000 };
	char v[32];
	int i;

	(void)arg;
	for (i = 8; bumping; i++) {
		nanosleep(&d, NULL);
		snprintf(v, sizeof(v), "%d\n", i);
		put(K "full_scans", v);
	}
	return NULL;
}

static void test_convergence(void)
{
	pthread_t t;

	tree("1\n", 1);
	bumping = 1;
	pthread_create(&t, NULL, bump, NULL);
	run_probe("none", 10);
	bumping = 0;
	pthread_join(t, NULL);
	tap_contains(metrics, "converged=1 flag", "full scans advancing, pages steady: converged");
	tap_contains(metrics, "flag_convergence_timeout=0 flag", "not flagged");
	tap_contains(notes, "convergence=converged: 3 full scans", "after three full scans (two whole)");
	tree("1\n", 1);
	run_probe("model", 0.3);
	tap_contains(metrics, "converged=0 flag", "full_scans still: not converged");
	tap_contains(metrics, "flag_convergence_timeout=1 flag", "the timeout is flagged");
	tap_contains(metrics, "ksm_timeout_s=0.3 s", "and the timeout stored");
	tap_contains(notes, "NOT converged: timeout of 0 s hit", "said in words");
	tap_contains(metrics, "flag_model_merged=1 flag",
		     "a model VM with 15305 merged pages is flagged");
}

/* KSM running, but no process of the cell mergeable (a model guest). */
static void test_unmergeable(void)
{
	char rel[64];

	tree("1\n", 1);
	snprintf(rel, sizeof(rel), "/proc/%d/ksm_stat", (int)getpid());
	put(rel, "ksm_rmap_items 0\nksm_merging_pages 0\nksm_mergeable: no\n");
	run_probe("model", 30);
	tap_contains(notes, "convergence=not waited for: no instance process has mergeable",
		     "nothing mergeable: no wait (full_scans would never advance), said so");
	tap_ok(!strstr(metrics, "flag_convergence_timeout") && !strstr(metrics, "converged="),
	       "and no convergence flag or verdict");
}

/* One process's ksm_stat unreadable, another's without ksm_process_profit. */
static void test_unreadable(void)
{
	pid_t pids[3] = { getpid(), 999999, getppid() };
	char rel[64], want[160];

	tree("0\n", 1);
	proc_stat(999999, 'S');
	proc_stat(getppid(), 'S');
	snprintf(rel, sizeof(rel), "/proc/%d/ksm_stat", (int)getppid());
	put(rel, "ksm_rmap_items 10\nksm_merging_pages 4\n");
	run_pids("model", 5, pids, 3);
	tap_ok(!strstr(metrics, "=-"), "no negative value stored (%s)",
	       strstr(metrics, "=-") ? strstr(metrics, "=-") : "none");
	tap_contains(skips, "proc1.ksm_merging_pages: cannot read /proc/999999/ksm_stat",
		     "an unreadable ksm_stat: a skip row naming the process");
	snprintf(want, sizeof(want), "proc2.ksm_process_profit: no ksm_process_profit in "
		 "/proc/%d/ksm_stat", (int)getppid());
	tap_contains(skips, want, "a field the kernel did not print: a skip row naming it");
	tap_contains(metrics, "proc2.ksm_merging_pages=4 pages", "what it did print is stored");
	tap_ok(!strstr(metrics, "\nksm_merging_pages=") && !strstr(metrics, "ksm_merging_pages=15309") &&
	       strstr(skips, "ksm_merging_pages (sum over the cell): instance process 1 "
		      "(pid 999999) has none"), "no sum: a skip naming the process");
	tap_contains(metrics, "flag_model_merged=1 flag",
		     "the known 15305 merged pages of a model cell are flagged all the same");
}

/* More processes than the probe takes. */
static void test_too_many(void)
{
	static pid_t pids[300];
	char rel[64];
	int i;

	tree("0\n", 1);
	for (i = 0; i < 300; i++) {
		pids[i] = 300000 + i;
		proc_stat(pids[i], 'S');
		snprintf(rel, sizeof(rel), "/proc/%d/ksm_stat", (int)pids[i]);
		put(rel, "ksm_merging_pages 1\nksm_process_profit 4096\n");
	}
	run_pids("none", 5, pids, 300);
	tap_contains(skips, "44 instance processes not measured: the probe takes at most 256",
		     "300 processes: the 44 left out are said");
	tap_ok(!strstr(metrics, "\nksm_merging_pages=") && strstr(skips, "ksm_merging_pages "
	       "(sum over the cell): 44 more"), "and no sum over a part of the cell");
	tap_contains(metrics, "proc255.ksm_merging_pages=1 pages", "the 256 are stored");
}

/*
 * A VM that died during the cell (its QEMU a zombie, or gone): the wait
 * for a convergence stops at once instead of running to the timeout, and
 * no steady-state KSM number is stored for the cell (a skip row says why).
 */
static void test_ended(void)
{
	pid_t zombie[2] = { getpid(), 888888 }, gone[1] = { 777777 };
	long long t0;

	tree("1\n", 1);
	proc_stat(888888, 'Z');
	t0 = clock_now_ns();
	run_pids("none", 20, zombie, 2);
	tap_contains(skips, "instance process 1 (pid 888888) ended during the cell: no "
		     "steady-state KSM numbers", "a zombie QEMU: a skip row naming it");
	tap_ok(!strstr(metrics, "pages_sharing=") && !strstr(metrics, "converged=") &&
	       !strstr(metrics, "ksm_merging_pages="), "no steady-state number stored (%s)",
	       metrics);
	tap_ok(clock_now_ns() - t0 < 5000000000LL && strstr(notes, "convergence=stopped after")
	       && strstr(notes, "pid 888888 ended during the wait"), "the convergence wait "
	       "stopped at once (%.1f s of a 20 s timeout), said in the notes",
	       (double)(clock_now_ns() - t0) / 1e9);
	run_pids("none", 20, gone, 1);
	tap_contains(skips, "instance process 0 (pid 777777) ended during the cell",
		     "a QEMU already reaped (no /proc/PID): the same");
}

int main(void)
{
	char cmd[sizeof(root) + 16];

	snprintf(root, sizeof(root), "/tmp/ksm-probe-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	setenv("CVMBENCH_SYSROOT", root, 1);
	tap_plan(38);
	test_present();
	test_absent();
	test_convergence();
	test_unmergeable();
	test_unreadable();
	test_too_many();
	test_ended();
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? 1 : tap_done();
}
