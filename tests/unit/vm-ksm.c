// SPDX-License-Identifier: MIT
/*
 * tests/unit/vm-ksm.c - two idle TCG guests side by side (bench/backends/
 * qemu/vm.h; the qemu backend boots one VM per cell so far), with the ksm
 * knob and the memory probes' readers: the same two guests with KSM off,
 * then on (pages_to_scan 5000, sleep 10 ms) until converged: pages_sharing
 * > 0 and their summed PSS clearly lower (by 10 % or more); the summed
 * Pss_Anon of the KSM-off pair within 25 % of the drop of the host's
 * MemAvailable plus its per-CPU free pages (from a settled baseline);
 * then two `model` guests with KSM on: their ksm_stat shows (next to) no
 * merged page and their summed PSS is at least the KSM-off pair's.
 *
 * It changes KSM and starts QEMU, so it runs only as `vm-ksm.t run`, from
 * tests/system/ksm-vms.t (root, under the host lock), which also checks that
 * KSM's settings are as before and no QEMU is left. Alone, it is a skip.
 * `vm-ksm.t cost N` times the memory probes' reads over N guests instead.
 */
#include <errno.h>
#include <fcntl.h>
#include <time.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell.h"
#include "guest.h"
#include "hostmem-check.h"
#include "journal.h"
#include "knob.h"
#include "ksm-state.h"
#include "procmem.h"
#include "sysfs.h"
#include "tap.h"
#include "thp-mode.h"
#include "vm.h"

extern const struct knob_ops knob_ksm;

struct pair {
	struct vm vm[2];
	long long pss, pss_anon, merging;
};

static struct guest_image img;
static struct guest_disk disk;

static int boot_pair(struct pair *p, int model)
{
	struct vm_config vc = { 0 };
	char err[1024];
	int i;

	vc.accel = "tcg";
	vc.vcpus = 1;
	vc.memory_mib = 256;
	vc.kernel = img.kernel;
	vc.initrd = img.initrd;
	vc.data_disk = disk.path;
	vc.model = model;
	memset(p, 0, sizeof(*p));
	for (i = 0; i < 2; i++) {
		p->vm[i].fd = p->vm[i].listen_fd = -1;
		if (vm_start(&p->vm[i], &vc, 120, err, sizeof(err))) {
			printf("# VM %d did not boot: %s\n", i, err);
			return -1;
		}
	}
	return 0;
}

/* Summed PSS, Pss_Anon and ksm_merging_pages of the pair. */
static int measure(struct pair *p)
{
	struct smaps_rollup r;
	struct ksm_stat k;
	char path[64], buf[4096];
	int i;

	p->pss = p->pss_anon = p->merging = 0;
	for (i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)p->vm[i].pid);
		if (procmem_read(path, buf, sizeof(buf)) <= 0 || smaps_rollup_parse(buf, &r))
			return -1;
		p->pss += r.pss;
		p->pss_anon += r.pss_anon;
		snprintf(path, sizeof(path), "/proc/%d/ksm_stat", (int)p->vm[i].pid);
		if (procmem_read(path, buf, sizeof(buf)) > 0 && !ksm_stat_parse(buf, &k) &&
		    k.merging_pages > 0)
			p->merging += k.merging_pages;
	}
	return 0;
}

static void stop_pair(struct pair *p)
{
	vm_stop(&p->vm[0]);
	vm_stop(&p->vm[1]);
}

static int ksm_cell(const char *mode)
{
	struct cell c;
	char why[512] = "";
	int ret;

	memset(&c, 0, sizeof(c));
	snprintf(c.ksm, sizeof(c.ksm), "%s", mode);
	c.ksm_pages_to_scan = 5000;
	c.ksm_sleep_ms = 10;
	ret = knob_ksm.apply(&c, why, sizeof(why));
	if (ret)
		printf("# ksm = %s: %s\n", mode, why);
	return ret;
}

static const struct ksm_convergence *converge(const struct pair *p)
{
	pid_t pids[2] = { p->vm[0].pid, p->vm[1].pid };

	ksm_converge_reset();
	return ksm_converge_wait(60, pids, 2);
}

/*
 * What the host has free to give: MemAvailable plus the free pages on
 * per-CPU lists, which MemAvailable leaves out (lib/procmem.h,
 * pcp_free_read(): after the previous test's QEMUs exit they hold 100 MB
 * and more here, and the guests' first pages come from them). kB, or -1.
 */
static long long available_kb(void)
{
	struct meminfo m;
	long long pcp = pcp_free_read();

	if (meminfo_read(&m))
		return -1;
	return m.mem_available + (pcp > 0 ? pcp : 0);
}

/*
 * The KSM-off pair's summed Pss_Anon against the drop of what the host
 * has available (within 25 %). That is the whole host's: when it does not
 * come back to within 25 % of the drop of its baseline once the guests are
 * gone, something else on the host moved it meanwhile, and a failed
 * comparison is a skip with the numbers rather than a verdict.
 */
static void check_drop(long long pss_anon, long long drop, long long base)
{
	double d = hostmem_diff_pct(pss_anon, drop);
	long long noise, now = available_kb();

	if (fabs(d) <= 25 || now < 0) {
		tap_ok(fabs(d) <= 25, "KSM off: summed Pss_Anon %lld kB within 25 %% of the "
		       "drop of MemAvailable + per-CPU free pages, %lld kB (%.1f %%)",
		       pss_anon, drop, d);
		return;
	}
	noise = now - base;
	if (llabs(noise) * 4 > drop) {
		printf("ok %d # SKIP Pss_Anon %lld kB against the available drop %lld kB "
		       "(%.1f %%): other load moved the host's memory (it ended %lld kB "
		       "from its baseline once the guests were gone)\n", ++tap_count,
		       pss_anon, drop, d, noise);
		return;
	}
	tap_ok(0, "KSM off: summed Pss_Anon %lld kB within 25 %% of the drop of MemAvailable "
	       "+ per-CPU free pages, %lld kB (%.1f %%; host drift %lld kB)", pss_anon, drop,
	       d, noise);
}

/*
 * available_kb() before the guests boot, once it has settled (two
 * readings 1 s apart within 1 MB, at most 30 s): what the previous test
 * freed may still be coming back. -1 when it did not settle.
 */
static long long settled_baseline(void)
{
	long long prev, now = available_kb();
	int i;

	for (i = 0; i < 30 && now >= 0; i++) {
		prev = now;
		sleep(1);
		now = available_kb();
		if (now >= 0 && llabs(now - prev) <= 1024) {
			printf("# available memory settled after %d s\n", i + 1);
			return now;
		}
	}
	return -1;
}

static const char *thp_now(void)
{
	static char line[128], mode[32];

	if (sysfs_read_line(THP_ENABLED, line, sizeof(line)) < 0 ||
	    thp_mode_parse(line, mode, sizeof(mode)))
		return "unknown";
	return mode;
}

/* The regular pair: off, then on. Fills @off with the KSM-off numbers. */
static void regular(struct pair *p, struct pair *off)
{
	const struct ksm_convergence *cv;
	long long sharing, base, after_boot;
	int ret;

	base = settled_baseline();
	tap_ok(!boot_pair(p, 0), "two regular TCG guests of 256 MiB boot");
	sleep(2);
	after_boot = available_kb();
	ret = measure(p);
	tap_ok(!ret, "KSM off: summed PSS %lld kB, Pss_Anon %lld kB", p->pss,
	       p->pss_anon);
	*off = *p;
	knob_ksm.restore(NULL);
	tap_ok(!ksm_cell("on"), "KSM on, pages_to_scan 5000, sleep 10 ms");
	cv = converge(p);
	tap_ok(cv->converged, "KSM converges: %s", cv->how);
	sharing = ksm_counter("pages_sharing");
	measure(p);
	tap_ok(sharing > 0 && p->merging > 0, "pages_sharing %lld > 0; the two QEMUs' "
	       "ksm_merging_pages %lld", sharing, p->merging);
	printf("# PSS saving %lld kB, KSM general_profit %lld kB, THP %s\n",
	       off->pss - p->pss, ksm_counter("general_profit") / 1024, thp_now());
	tap_ok(p->pss * 10 <= off->pss * 9, "KSM on: summed PSS %lld kB, at least 10 %% "
	       "below KSM off (%lld kB): %.1f %%", p->pss, off->pss,
	       100.0 * (double)(p->pss - off->pss) / (double)off->pss);
	knob_ksm.restore(NULL);
	stop_pair(p);
	if (base >= 0 && after_boot >= 0)
		check_drop(off->pss_anon, base - after_boot, base);
	else
		printf("ok %d # SKIP Pss_Anon against the drop of available memory: %s\n",
		       ++tap_count, base < 0 ? "MemAvailable + per-CPU free pages did not "
		       "settle within 30 s before the boot" : "no /proc/meminfo after the boot");
}

static void model(struct pair *p, const struct pair *off)
{
	const struct ksm_convergence *cv;

	tap_ok(!ksm_cell("on"), "KSM on for the model pair");
	tap_ok(!boot_pair(p, 1), "two model guests (RAM preallocated, unmergeable) boot");
	cv = converge(p);
	measure(p);
	tap_ok(!ksm_model_merged(p->merging, 512), "model: the QEMUs' ksm_merging_pages %lld "
	       "(%s)", p->merging, cv->how);
	tap_ok(p->pss >= off->pss, "model: summed PSS %lld kB >= KSM off %lld kB", p->pss,
	       off->pss);
	knob_ksm.restore(NULL);
	stop_pair(p);
}

static long long cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * `vm-ksm.t cost N`: boot N regular guests, then time 200 samples of what
 * the hostmem probe reads per sample (smaps_rollup of each QEMU, meminfo)
 * and of what the ksm probe reads (six KSM counters, each QEMU's
 * ksm_stat), in CPU time of the reading thread (docs/performance.md).
 */
static int cost(int n)
{
	struct vm_config vc = { .accel = "tcg", .vcpus = 1, .memory_mib = 256 };
	static const char *const ctr[] = { "pages_shared", "pages_sharing", "pages_unshared",
					   "full_scans", "general_profit", "ksm_zero_pages" };
	struct vm vm[8];
	char err[1024], path[64], buf[16384];
	struct smaps_rollup r;
	struct ksm_stat k;
	struct meminfo m;
	long long t0, hm = 0, ks = 0;
	int i, j, s, fd[8];

	vc.kernel = img.kernel;
	vc.initrd = img.initrd;
	vc.data_disk = disk.path;
	for (i = 0; i < n; i++) {
		memset(&vm[i], 0, sizeof(vm[i]));
		vm[i].fd = vm[i].listen_fd = -1;
		if (vm_start(&vm[i], &vc, 180, err, sizeof(err))) {
			printf("# VM %d: %s\n", i, err);
			n = i;
			break;
		}
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)vm[i].pid);
		fd[i] = open(path, O_RDONLY | O_CLOEXEC);
	}
	sleep(3);
	for (s = 0; s < 200; s++) {
		t0 = cpu_ns();
		for (i = 0; i < n; i++)
			if (procmem_pread(fd[i], buf, sizeof(buf)) > 0)
				smaps_rollup_parse(buf, &r);
		meminfo_read(&m);
		hm += cpu_ns() - t0;
		t0 = cpu_ns();
		for (j = 0; j < 6; j++)
			ksm_counter(ctr[j]);
		for (i = 0; i < n; i++) {
			snprintf(path, sizeof(path), "/proc/%d/ksm_stat", (int)vm[i].pid);
			if (procmem_read(path, buf, sizeof(buf)) > 0)
				ksm_stat_parse(buf, &k);
		}
		ks += cpu_ns() - t0;
	}
	printf("%d VMs of 256 MiB (PSS %lld kB last): hostmem %.1f us CPU per sample, "
	       "ksm %.1f us CPU per sample; at 1 s: %.3f %% and %.3f %% of one core\n",
	       n, r.pss, hm / 200 / 1e3, ks / 200 / 1e3, hm / 200 / 1e7, ks / 200 / 1e7);
	for (i = 0; i < n; i++) {
		close(fd[i]);
		vm_stop(&vm[i]);
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct guest_build_opts b = { NULL, NULL, NULL, NULL };
	struct pair p, off;
	char err[1024];

	if (argc < 2 || (strcmp(argv[1], "run") && strcmp(argv[1], "cost"))) {
		printf("1..0 # SKIP two guests with KSM: run from tests/system/ksm-vms.t "
		       "(root, under the host lock)\n");
		return 0;
	}
	if (strcmp(argv[1], "cost"))
		tap_plan(11);
	if (journal_open(err, sizeof(err)) ||
	    guest_image_build(&b, &img, err, sizeof(err)) ||
	    guest_disk_build("hello-world", NULL, "test", 1, NULL, &disk, err, sizeof(err))) {
		printf("Bail out! %s\n", err);
		return 1;
	}
	if (!strcmp(argv[1], "cost"))
		return cost(argc > 2 ? atoi(argv[2]) : 4);
	regular(&p, &off);
	model(&p, &off);
	journal_restore_all(NULL, NULL);
	journal_close();
	return tap_done();
}
