// SPDX-License-Identifier: MIT
/*
 * tests/unit/procmem.c - the memory probes' parsing and checks:
 * smaps_rollup (6.18 with Pss_Anon and KSM lines, 5.4 without), meminfo,
 * ksm_stat (6.18; 6.1 with ksm_rmap_items only) and vmstat's thp_split_*
 * from fixture files (tests/fixtures/procmem/) against the numbers in
 * them; the fidelity checks on synthetic numbers; against the kernel, a
 * child that touches exactly N MiB of anonymous memory must grow its Rss
 * and Anonymous by N MiB (within 1 MiB). The ksm probe on fake trees is
 * tests/unit/ksm-probe.c. No root.
 */
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cell.h"
#include "hostmem-check.h"
#include "ksm-state.h"
#include "procmem.h"
#include "tap.h"
#include "touch-pages.h"

#define FIX "tests/fixtures/procmem/"

static void test_parsers(void)
{
	struct smaps_rollup r;
	struct meminfo m;
	struct ksm_stat k;
	struct thp_split t;
	char buf[16384];

	tap_ok(procmem_read(FIX "smaps_rollup-6.18", buf, sizeof(buf)) > 0 &&
	       !smaps_rollup_parse(buf, &r), "smaps_rollup 6.18 parses");
	tap_ok(r.rss == 281604 && r.pss == 214233 && r.pss_anon == 203980 &&
	       r.pss_file == 10253 && r.anonymous == 265200 && r.ksm == 61220 &&
	       r.anon_huge == 73728, "its Rss, Pss, Pss_Anon, Pss_File, Anonymous, KSM, "
	       "AnonHugePages are the file's (%lld %lld %lld)", r.rss, r.pss, r.pss_anon);
	tap_ok(r.uss == 267560 && r.shared == 14044 && r.uss + r.shared == r.rss,
	       "USS (Private_*) 267560 and shared (Shared_*) 14044 kB, which add up to "
	       "the file's Rss (%lld + %lld)", r.uss, r.shared);
	tap_ok(r.pss != r.pss_anon && r.pss_anon != r.pss_file,
	       "Pss is not taken for Pss_Anon nor Pss_File (prefixes)");
	tap_ok(procmem_read(FIX "smaps_rollup-5.4", buf, sizeof(buf)) > 0 &&
	       !smaps_rollup_parse(buf, &r) && r.pss == 140213 && r.pss_anon == -1 &&
	       r.ksm == -1, "smaps_rollup 5.4: Pss 140213, no Pss_Anon nor KSM line: -1");
	tap_ok(smaps_rollup_parse("Pss: 12 kB\n", &r) == -EINVAL, "no Rss line: -EINVAL");
	tap_ok(procmem_read(FIX "meminfo-6.18", buf, sizeof(buf)) > 0 && !meminfo_parse(buf, &m)
	       && m.mem_available == 24056992 && m.mem_total == 24684084 &&
	       m.anon_pages == 25452, "meminfo: MemAvailable, MemTotal, AnonPages");
	tap_ok(procmem_read(FIX "zoneinfo-6.18", buf, sizeof(buf)) > 0 &&
	       zoneinfo_pcp_parse(buf) == 4385 && zoneinfo_pcp_parse("Node 0\n") == -EINVAL,
	       "zoneinfo 6.18: 4385 pages on per-CPU lists (awk's sum of its count: "
	       "lines); none: -EINVAL");
	tap_ok(procmem_read(FIX "ksm_stat-6.18", buf, sizeof(buf)) > 0 &&
	       !ksm_stat_parse(buf, &k) && k.merging_pages == 15305 &&
	       k.process_profit == 57427744 && k.zero_pages == 17,
	       "ksm_stat 6.18: merging pages, process profit, zero pages");
	tap_ok(procmem_read(FIX "ksm_stat-6.1", buf, sizeof(buf)) > 0 &&
	       !ksm_stat_parse(buf, &k) && k.rmap_items == 1234 && k.merging_pages == -1 &&
	       k.process_profit == -1, "ksm_stat 6.1: rmap items only, the rest -1");
	tap_ok(procmem_read(FIX "vmstat-6.18", buf, sizeof(buf)) > 0 &&
	       !thp_split_parse(buf, &t) && t.n == 4 && !strcmp(t.name[0], "thp_split_page") &&
	       t.value[0] == 172 && !strcmp(t.name[2], "thp_split_pmd") && t.value[2] == 181,
	       "vmstat: 4 thp_split_* counters, thp_split_page 172, thp_split_pmd 181");
	tap_ok(thp_split_parse("nr_free_pages 1\n", &t) == -ENOENT, "no thp_split: -ENOENT");
}

static void test_checks(void)
{
	tap_ok(fabs(hostmem_diff_pct(110, 100) - 10.0) < 1e-9 &&
	       isnan(hostmem_diff_pct(5, 0)), "diff %%: 110 against 100 is 10 %%; no drop: NaN");
	tap_ok(!hostmem_disagree(110, 100, 10) && hostmem_disagree(111, 100, 10) &&
	       hostmem_disagree(89, 100, 10) && !hostmem_disagree(90, 100, 10),
	       "disagreement over 10 %% either way, not at 10 %%");
	tap_ok(hostmem_disagree(100, 0, 10) && hostmem_disagree(100, -50, 10),
	       "a drop of 0 or less disagrees");
	tap_ok(!ksm_model_merged(0, 512) && !ksm_model_merged(1310, 512) &&
	       ksm_model_merged(1311, 512), "model merged: over 1 %% of 512 MiB (1310.72 pages)");
	tap_ok(ksm_stable(0, 0) && ksm_stable(1000, 1010) && !ksm_stable(1000, 1011) &&
	       ksm_stable(1010, 1000), "stable within 1 %% of the larger");
}

/* Rss/Anonymous of @pid in kB. */
static int rollup(pid_t pid, struct smaps_rollup *r)
{
	char path[64], buf[4096];

	snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	return procmem_read(path, buf, sizeof(buf)) > 0 ? smaps_rollup_parse(buf, r) : -1;
}

/* A child maps 64 MiB, touches @mib of it on a signal, then waits. */
static void test_touch(int mib)
{
	struct smaps_rollup a, b;
	int go[2], done[2];
	char c = 0;
	pid_t pid;

	if (pipe(go) || pipe(done))
		return;
	pid = fork();
	if (pid == 0) {
		char *m = mmap(NULL, 64 << 20, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		madvise(m, 64 << 20, MADV_NOHUGEPAGE);
		if (read(go[0], &c, 1) != 1)
			_exit(1);
		touch_pages(m, (long)mib << 20);
		if (write(done[1], &c, 1) != 1)
			_exit(1);
		pause();
		_exit(0);
	}
	usleep(100000);
	rollup(pid, &a);
	if (write(go[1], &c, 1) != 1 || read(done[0], &c, 1) != 1)
		c = 1;
	rollup(pid, &b);
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	tap_ok(llabs(b.rss - a.rss - (long long)mib * 1024) <= 1024 &&
	       llabs(b.anonymous - a.anonymous - (long long)mib * 1024) <= 1024,
	       "a child touching %d MiB grows Rss by %lld kB, Anonymous by %lld kB "
	       "(%d kB +- 1024)", mib, b.rss - a.rss, b.anonymous - a.anonymous, mib * 1024);
	tap_ok(llabs(b.pss_anon - a.pss_anon - (long long)mib * 1024) <= 1024,
	       "and Pss_Anon by %lld kB (not shared)", b.pss_anon - a.pss_anon);
}

/*
 * A killed child, not yet reaped: ended (a zombie); a live one: not. Under
 * a CVMBENCH_SYSROOT without /proc, procmem_ended() says every process
 * ended, procmem_ended_here() still reads the real one (cell-run.c's check
 * of the instances it started).
 */
static void test_ended(void)
{
	pid_t pid = fork();
	int alive, dead, fake;

	if (pid == 0) {
		pause();
		_exit(0);
	}
	alive = procmem_ended(pid) + 2 * procmem_ended_here(pid);
	kill(pid, SIGKILL);
	usleep(200000);
	dead = procmem_ended(pid) + 2 * procmem_ended_here(pid);
	setenv("CVMBENCH_SYSROOT", "/nonexistent-cvmbench-root", 1);
	fake = procmem_ended(getpid()) + 2 * procmem_ended_here(getpid());
	unsetenv("CVMBENCH_SYSROOT");
	waitpid(pid, NULL, 0);
	tap_ok(alive == 0 && dead == 3, "a live child: not ended; killed, not reaped: ended "
	       "(procmem_ended %d/%d, _here %d/%d)", alive & 1, dead & 1, alive >> 1, dead >> 1);
	tap_ok(fake == 1, "under a sysroot without /proc: procmem_ended 1, "
	       "procmem_ended_here 0 (got %d, %d)", fake & 1, fake >> 1);
}

int main(void)
{
	tap_plan(21);
	test_parsers();
	test_checks();
	test_touch(48);
	test_ended();
	return tap_done();
}
