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
 * (cold mode) fails to start with the reason. No root.
 */
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

extern const struct probe_ops probe_hostmem;

static char metrics[16384], skips[2048];
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
		long i;

		madvise(m, (size_t)mib << 20, MADV_NOHUGEPAGE);
		for (i = 0; i < (long)mib << 20; i += 4096)
			m[i] = 1;
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

/* One cell window over @pids; @kill_at_stop: a pid to end before stop. */
static int window(pid_t *pids, int n, long long baseline, pid_t kill_before_stop)
{
	struct cell c;
	struct probe_target t = { .cell = &c, .pids = pids, .npids = n,
				  .mem_available_before_kb = baseline };
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
	tap_ok(metric("samples") >= 4 && rows == (int)metric("samples") * 9,
	       "%.0f samples, 9 memory_sample rows each (%d)", metric("samples"), rows);
	tap_ok(strstr(metrics, "thp_split_page=") || strstr(skips, "thp_split"),
	       "thp_split_page stored, or a skip row says why not");
	window(pids, 3, 0, 0);
	tap_ok(strstr(skips, "MemAvailable drop: no baseline") &&
	       !strstr(metrics, "mem_available_drop_kb"), "no baseline: a skip, no drop");
}

int main(void)
{
	pid_t a = toucher(32), b = toucher(16), pids[2];

	tap_plan(11);
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
	return tap_done();
}
