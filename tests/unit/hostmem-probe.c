// SPDX-License-Identifier: MIT
/*
 * tests/unit/hostmem-probe.c - the hostmem probe through its ops and a
 * recording sink, on real processes: two children that touch 32 and 16 MiB
 * of anonymous memory, given as three instances (two share one process,
 * as instances share a VM): two processes are stored, their anonymous
 * memory differs by the 16 MiB the test touched, the sums are the sums of
 * the per-process values, the time series holds every sample; without a
 * baseline the MemAvailable drop is a skip; a process that ends during the
 * cell makes a skip row naming it and no sum; a window without processes
 * (cold mode) fails to start with the reason. On a fake /proc
 * (CVMBENCH_SYSROOT): a process whose smaps_rollup has no Pss_Anon (the
 * 5.4 fixture) gets a skip row naming it and no value (it stored -1, and
 * a sum of -1, before), the sum of a field every process has is still
 * stored; 300 processes: the 44 beyond the probe's 256 are said, and no
 * sum over a part of the cell is stored; no /proc/meminfo at the end: a
 * skip, never a drop computed from an unread MemAvailable. No root.
 */
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell.h"
#include "probe.h"
#include "procmem.h"
#include "sink.h"
#include "tap.h"
#include "touch-pages.h"

extern const struct probe_ops probe_hostmem;

static char metrics[65536], skips[4096];
static int rows;

static int rec_metric(struct sink *s, const char *name, double v, const char *unit)
{
	size_t o = strlen(metrics);

	(void)s;
	snprintf(metrics + o, sizeof(metrics) - o, "%s=%.15g %s\n", name, v, unit);
	return 0;
}

static int rec_skip(struct sink *s, const char *reason)
{
	size_t o = strlen(skips);

	(void)s;
	snprintf(skips + o, sizeof(skips) - o, "%s\n", reason);
	return 0;
}

static int rec_note(struct sink *s, const char *key, const char *value)
{
	(void)s;
	(void)key;
	(void)value;
	return 0;
}

static int64_t rec_row(struct sink *s, const struct sink_table *t, const void *row)
{
	(void)s;
	(void)row;
	rows += !strcmp(t->name, "memory_sample");
	return rows;
}

static const struct sink_ops rec_ops = { rec_metric, rec_skip, rec_note, rec_row };

/* A child that touches @mib MiB of anonymous memory, then waits. */
static pid_t toucher(int mib)
{
	int ready[2];
	char c = 0;
	pid_t pid;

	if (pipe(ready))
		return -1;
	pid = fork();
	if (pid == 0) {
		char *m = mmap(NULL, (size_t)mib << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		madvise(m, (size_t)mib << 20, MADV_NOHUGEPAGE);
		touch_pages(m, (long)mib << 20);
		if (write(ready[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	if (read(ready[0], &c, 1) != 1)
		return -1;
	close(ready[0]);
	close(ready[1]);
	return pid;
}

static double metric(const char *name)
{
	char key[80], *p;

	snprintf(key, sizeof(key), "\n%s=", name);
	p = strstr(metrics, key);       /* metrics starts with a newline */
	return p ? atof(p + strlen(key)) : -1;
}

/* The per-CPU free pages of the baseline, kB; -2: read them as the runner does. */
static long long pcp_before = -2;

/* One cell window over @pids; @kill_at_stop: a pid to end before stop. */
static int window(pid_t *pids, int n, long long baseline, pid_t kill_before_stop)
{
	struct cell c;
	struct probe_target t = { .cell = &c, .pids = pids, .npids = n,
				  .mem_available_before_kb = baseline,
				  .pcp_free_before_kb = baseline <= 0 ? -1 :
					pcp_before != -2 ? pcp_before : pcp_free_read() };
	struct probe p = { .ops = &probe_hostmem, .target = &t };
	struct sink s = { .ops = &rec_ops };
	int ret;

	memset(&c, 0, sizeof(c));
	snprintf(c.mode, sizeof(c.mode), "%s", n ? "warm" : "cold");
	c.hostmem_interval = 0.05;
	c.ksm_timeout = 1;
	snprintf(metrics, sizeof(metrics), "\n");
	skips[0] = '\0';
	rows = 0;
	ret = probe_hostmem.open(&p) ?: probe_hostmem.start(&p, PROBE_WINDOW_CELL);
	if (!ret) {
		usleep(300000);
		if (kill_before_stop > 0) {
			kill(kill_before_stop, SIGKILL);
			waitpid(kill_before_stop, NULL, 0);
		}
		ret = probe_hostmem.stop(&p, PROBE_WINDOW_CELL) ?:
		      probe_hostmem.emit(&p, PROBE_WINDOW_CELL, &s);
	}
	if (ret)
		snprintf(skips, sizeof(skips), "%s", p.error);
	probe_hostmem.close(&p);
	return ret;
}

static void test_two(pid_t a, pid_t b)
{
	pid_t pids[3] = { a, b, a };
	struct meminfo m;
	double d;

	meminfo_read(&m);
	tap_ok(window(pids, 3, m.mem_available, 0) == 0, "a window over 3 instances in 2 "
	       "processes");
	tap_ok(metric("processes") == 2 && metric("proc1.pss_kb") > 0 &&
	       metric("proc2.pss_kb") < 0, "two processes stored, each once");
	d = metric("proc0.anon_kb") - metric("proc1.anon_kb");
	tap_ok(d > 16 * 1024 - 1024 && d < 16 * 1024 + 1024, "their anonymous memory "
	       "differs by the 16 MiB touched (%.0f kB)", d);
	tap_ok(metric("pss_kb") == metric("proc0.pss_kb") + metric("proc1.pss_kb") &&
	       metric("rss_kb") == metric("proc0.rss_kb") + metric("proc1.rss_kb"),
	       "the sums are the per-process values summed");
	tap_ok(metric("mem_available_drop_kb") != -1 && metric("flag_pss_drop_disagree") >= 0,
	       "the MemAvailable drop and its check are stored");
	d = metric("proc0.uss_kb") - metric("proc1.uss_kb");
	tap_ok(d > 16 * 1024 - 1024 && d < 16 * 1024 + 1024 &&
	       metric("proc0.uss_kb") + metric("proc0.shared_kb") == metric("proc0.rss_kb") &&
	       metric("uss_kb") == metric("proc0.uss_kb") + metric("proc1.uss_kb"),
	       "USS differs by the 16 MiB touched (%.0f kB), USS + shared is the kernel's "
	       "Rss, the sum is summed", d);
	tap_ok(metric("samples") >= 4 && rows == (int)metric("samples") * 13,
	       "%.0f samples, 13 memory_sample rows each (%d)", metric("samples"), rows);
	tap_ok(strstr(metrics, "thp_split_page=") || strstr(skips, "thp_split"),
	       "thp_split_page stored, or a skip row says why not");
	window(pids, 3, 0, 0);
	tap_ok(strstr(skips, "MemAvailable drop: no baseline") &&
	       !strstr(metrics, "mem_available_drop_kb"), "no baseline: a skip, no drop");
}

#define FIX "tests/fixtures/procmem/"

static char root[PATH_MAX / 2];

/* /proc/@pid/smaps_rollup under root: a copy of the fixture @name. */
static int fake_proc(pid_t pid, const char *name)
{
	char cmd[2 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/proc/%d' && cp " FIX "%s '%s/proc/%d/"
		 "smaps_rollup'", root, (int)pid, name, root, (int)pid);
	return system(cmd);
}

/* /proc/@file under root: a copy of the fixture @name. */
static void fake_file(const char *name, const char *file)
{
	char cmd[2 * PATH_MAX];

	snprintf(cmd, sizeof(cmd), "cp " FIX "%s '%s/proc/%s'", name, root, file);
	if (system(cmd))
		exit(1);
}

/* Pss_Anon absent in one process of two (kernel 5.4's smaps_rollup). */
static void test_missing_field(void)
{
	pid_t pids[2] = { 100001, 100002 };

	if (fake_proc(pids[0], "smaps_rollup-5.4") || fake_proc(pids[1], "smaps_rollup-6.18"))
		exit(1);
	tap_ok(window(pids, 2, 0, 0) == 0, "a window over fake processes");
	tap_ok(!strstr(metrics, "=-"), "no negative value stored (%s)",
	       strstr(metrics, "=-") ? strstr(metrics, "=-") : "none");
	tap_contains(skips, "proc0.pss_anon_kb: no Pss_Anon in /proc/100001/smaps_rollup",
		     "the missing field is a skip row naming the process and the field");
	tap_ok(metric("proc1.pss_anon_kb") == 203980, "the other process's Pss_Anon stored");
	tap_ok(!strstr(metrics, "\npss_anon_kb=") &&
	       strstr(skips, "pss_anon_kb (sum over the cell): instance process 0 "
		      "(pid 100001) has no Pss_Anon"), "no sum: a skip naming the process");
	tap_ok(metric("pss_kb") == 140213 + 214233 && metric("processes") == 2,
	       "a field both have is summed (pss_kb %.0f)", metric("pss_kb"));
	window(pids, 2, 1000000, 0);     /* a baseline, and no /proc/meminfo */
	tap_ok(strstr(skips, "no MemAvailable read from /proc/meminfo") &&
	       !strstr(metrics, "mem_available_drop_kb"), "no MemAvailable at the end: a "
	       "skip, no drop (it stored the whole baseline as the drop before)");
	fake_file("meminfo-6.18", "meminfo");
	window(pids, 2, 1000000, 0);     /* MemAvailable 24056992 kB, no zoneinfo */
	tap_ok(strstr(skips, "pcp_free_kb: /proc/zoneinfo unreadable") &&
	       metric("mem_available_drop_kb") == 1000000 - 24056992 &&
	       !strstr(metrics, "pcp_free_kb"), "no /proc/zoneinfo: the drop is "
	       "MemAvailable's alone, and a skip row says so");
	fake_file("zoneinfo-6.18", "zoneinfo");
	pcp_before = 1000;
	window(pids, 2, 1000000, 0);
	pcp_before = -2;
	tap_ok(metric("pcp_free_kb") == 4385 * 4 && metric("pcp_free_before_kb") == 1000 &&
	       metric("mem_available_drop_kb") == 1000000 + 1000 - 24056992 - 17540 &&
	       !strstr(skips, "zoneinfo"), "with /proc/zoneinfo: the per-CPU free pages "
	       "(1000 kB before, 4385 of 4 kB in the fixture after) stored and in the drop");
}

/* More processes than the probe takes: how many were left out is said. */
static void test_too_many(void)
{
	static pid_t pids[300];
	int i;

	for (i = 0; i < 300; i++) {
		pids[i] = 200000 + i;
		if (fake_proc(pids[i], "smaps_rollup-6.18"))
			exit(1);
	}
	tap_ok(window(pids, 300, 0, 0) == 0 && metric("processes") == 256,
	       "300 processes: 256 measured");
	tap_contains(skips, "44 instance processes not measured: the probe takes at most 256",
		     "the 44 left out are said");
	tap_ok(!strstr(metrics, "\npss_kb=") && strstr(skips, "pss_kb (sum over the cell): "
	       "44 more"), "and no sum over a part of the cell");
}

int main(void)
{
	char cmd[PATH_MAX];

	pid_t a = toucher(32), b = toucher(16), pids[2];

	tap_plan(24);
	if (a < 0 || b < 0)
		return 1;
	test_two(a, b);
	pids[0] = a;
	pids[1] = b;
	tap_ok(window(pids, 2, 1, b) == 0 && strstr(skips, "instance process 1 (pid") &&
	       strstr(skips, "ended during the cell") && !strstr(metrics, "\npss_kb="),
	       "a process ending during the cell: a skip naming it, no sums");
	tap_ok(window(NULL, 0, 1, 0) != 0 && strstr(skips, "no instance process"),
	       "no process (cold mode): the window fails with the reason");
	tap_contains(skips, "mode = cold", "the reason names cold mode");
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	snprintf(root, sizeof(root), "/tmp/hostmem-probe-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	setenv("CVMBENCH_SYSROOT", root, 1);
	test_missing_field();
	test_too_many();
	unsetenv("CVMBENCH_SYSROOT");
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? 1 : tap_done();
}
