// SPDX-License-Identifier: MIT
/*
 * tests/unit/noise.c - the machine's load around a cell (lib/noise.c)
 * on a fake /proc (CVMBENCH_SYSROOT): two snapshots whose numbers are
 * written here, so busy, own, other, steal, load and procs_running must be
 * exactly what the files say; a co-runner of half the CPUs' time and a
 * steal of 20 % are flagged at a 10 % threshold, a quiet cell and one tick
 * of rounding are not. The real machine (a hog beside a native cell) is
 * tests/system/noise.t.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fake-file.h"
#include "noise.h"
#include "tap.h"

static char root[] = "/tmp/cvmbench-noise-XXXXXX";

/* /proc/stat with aggregate busy user ticks @user, steal @steal, 2 CPUs. */
static void put_stat(unsigned long long user, unsigned long long steal, int running)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "cpu  %llu 0 0 1000 0 0 0 %llu 0 0\n"
		 "cpu0 0 0 0 500 0 0 0 0 0 0\ncpu1 0 0 0 500 0 0 0 0 0 0\n"
		 "intr 0\nprocs_running %d\nprocs_blocked 0\n", user, steal, running);
	fake_file_put(root, "/proc/stat", buf);
}

/*
 * /proc/self/stat (pid 77), its child 4242 (a comm with a blank and a ')'),
 * grandchild 4300 with @grand ticks and a stranger 9999 with @other.
 */
static void put_procs(unsigned long long self, unsigned long long inst,
		      unsigned long long grand, unsigned long long other)
{
	char buf[512];

	snprintf(buf, sizeof(buf), "77 (cvm bench) S 1 77 77 0 -1 0 0 0 0 0 %llu 0 0 0 20\n",
		 self);
	fake_file_put(root, "/proc/self/stat", buf);
	fake_file_put(root, "/proc/77/stat", buf);
	snprintf(buf, sizeof(buf), "4242 (a) b) R 77 1 1 0 -1 0 0 0 0 0 %llu 0 0 0 20\n",
		 inst);
	fake_file_put(root, "/proc/4242/stat", buf);
	/* a grandchild (its time counts) and a stranger (it does not) */
	snprintf(buf, sizeof(buf), "4300 (g) S 4242 1 1 0 -1 0 0 0 0 0 %llu 0 0 0\n", grand);
	fake_file_put(root, "/proc/4300/stat", buf);
	snprintf(buf, sizeof(buf), "9999 (x) S 1 1 1 0 -1 0 0 0 0 0 %llu 0 0 0\n", other);
	fake_file_put(root, "/proc/9999/stat", buf);
}

/* A cell of 1 s over 2 CPUs (2000 ms of CPU) from the files as they are. */
static int window(struct noise *n, void (*between)(void), struct noise_result *r)
{
	noise_begin(n);
	between();
	noise_end(n);
	n->a.t_ns = 0;
	n->b.t_ns = 1e9;
	return noise_result(n, 100, r);
}

static void quiet(void)        /* the cell: 100 + 50 + 20 ticks; nothing else */
{
	put_stat(1170, 0, 1);
	put_procs(100, 50, 20, 0);
	fake_file_put(root, "/proc/loadavg", "0.25 0.2 0.1 1/100 4242\n");
}

static void hog(void)          /* 100 ticks (1 s) of a stranger, 40 of steal */
{
	put_stat(1250, 40, 3);
	put_procs(100, 50, 0, 100);
}

static void tick(void)         /* one tick more busy than the cell: rounding */
{
	put_stat(1151, 0, 1);
	put_procs(100, 50, 0, 0);
}

static void reset(void)
{
	put_stat(1000, 0, 2);
	put_procs(0, 0, 0, 0);
	fake_file_put(root, "/proc/loadavg", "1.50 1.0 0.5 2/100 4242\n");
}

int main(void)
{
	struct noise n;
	struct noise_result r;
	int ret;

	tap_plan(9);
	if (!mkdtemp(root) || chdir(root))
		return 1;
	mkdir("proc", 0755);
	mkdir("proc/self", 0755);
	mkdir("proc/4242", 0755);
	mkdir("proc/77", 0755);
	mkdir("proc/4300", 0755);
	mkdir("proc/9999", 0755);
	setenv("CVMBENCH_SYSROOT", root, 1);
	reset();
	ret = window(&n, quiet, &r);
	tap_ok(!ret && r.ncpus == 2 && fabs(r.wall_ms - 1000) < 1e-6,
	       "a quiet cell: 2 CPUs, 1000 ms (%d, %g)", r.ncpus, r.wall_ms);
	tap_ok(fabs(r.busy_ms - 1700) < 1e-6 && fabs(r.own_ms - 1700) < 1e-6 &&
	       r.other_ms == 0, "busy 1700 ms, all of it the cell's (self 1000, child "
	       "500, grandchild 200): other 0 (%g %g %g)", r.busy_ms, r.own_ms, r.other_ms);
	tap_ok(n.a.load1 == 1.5 && n.b.load1 == 0.25 && n.a.procs_running == 2 &&
	       n.b.procs_running == 1, "load average and procs_running before and after "
	       "are the files' (%g %g %ld %ld)", n.a.load1, n.b.load1, n.a.procs_running,
	       n.b.procs_running);
	tap_ok(!noise_over(&r, 10), "a quiet cell is not flagged");
	reset();
	ret = window(&n, hog, &r);
	tap_ok(!ret && fabs(r.other_ms - 1000) < 1e-6 &&
	       fabs(r.other_pct - 50) < 1e-6, "a stranger's 1 s beside the cell: other "
	       "1000 ms, 50 %% of the CPUs (%g, %g)", r.other_ms, r.other_pct);
	tap_ok(fabs(r.steal_ms - 400) < 1e-6 && fabs(r.steal_pct - 20) < 1e-6,
	       "steal 400 ms, 20 %% (%g %g)", r.steal_ms, r.steal_pct);
	tap_ok(noise_over(&r, 10) && !noise_over(&r, 60), "flagged at a 10 %% threshold, "
	       "not at 60 %%");
	reset();
	ret = window(&n, tick, &r);
	tap_ok(!ret && fabs(r.other_ms - 10) < 1e-6 && !noise_over(&r, 0),
	       "one tick of rounding (10 ms) is not flagged even at threshold 0");
	unlink("proc/stat");
	tap_ok(noise_begin(&n) < 0 && noise_result(&n, 100, &r) == -ENODATA,
	       "no /proc/stat: no result, not zeros");
	unlink("proc/loadavg");
	unlink("proc/self/stat");
	unlink("proc/4242/stat");
	unlink("proc/77/stat");
	unlink("proc/4300/stat");
	unlink("proc/9999/stat");
	rmdir("proc/self");
	rmdir("proc/4242");
	rmdir("proc/77");
	rmdir("proc/4300");
	rmdir("proc/9999");
	rmdir("proc");
	if (chdir("/") || rmdir(root))
		perror(root);
	return tap_done();
}
