// SPDX-License-Identifier: MIT
/*
 * tests/unit/machines.c - the tool's detection code against captured
 * machines (tests/fixtures/machines/NAME/root, through CVMBENCH_SYSROOT),
 * so both branches of every machine-dependent decision run on any machine:
 * cpuidle driver present (A: haltpoll, POLL + halt states) and absent (B:
 * driver none, governor menu); haltpoll and menu governors; KVM and bhyve
 * (PVM) signatures; tracefs mounted (A) or not (B); /dev/kvm present or
 * absent. Every expected value is read from the fixture files by this test
 * itself, not by the code under test. Needs no root: where root changes
 * the answer (writing a parameter), the test reads access(2) first.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell-check.h"
#include "cpuidle.h"
#include "env.h"
#include "env-facts.h"
#include "knob-idle.h"
#include "probe.h"
#include "sysroot.h"
#include "tap.h"
#include "tracefs-find.h"



/* The first line of a fixture file, read here with stdio. */
static char *fixture_line(const char *rel, char *buf, size_t len)
{
	char path[PATH_MAX + 256];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	buf[0] = '\0';
	f = fopen(path, "r");
	if (!f)
		return buf;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return buf;
}

/* The text after "Hypervisor detected: " in the fixture's kernel log. */
static void fixture_kernel_hv(char *out, size_t len)
{
	char path[PATH_MAX + 32], line[1024], *at;
	FILE *f;

	snprintf(path, sizeof(path), "%s/dmesg-excerpt", root);
	snprintf(out, len, "(none)");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if ((at = strstr(line, "Hypervisor detected: "))) {
			at[strcspn(at, "\n")] = '\0';
			snprintf(out, len, "%s", at + 21);
		}
	if (f)
		fclose(f);
}

static int use_machine(const char *name)
{
	const char *dir = getenv("CVMBENCH_FIXTURES");
	char rel[PATH_MAX];

	snprintf(rel, sizeof(rel), "%s/%s/root", dir ? dir : "tests/fixtures/machines",
		 name);
	if (!realpath(rel, root)) {
		printf("Bail out! no fixture %s (run from the source tree)\n", rel);
		exit(1);
	}
	setenv(SYSROOT_ENV, root, 1);
	facts_free();
	env_collect(collect, NULL);
	return 0;
}

/* Count fixture directories @fmt % i for i = 0, 1, ... until one is missing. */
static int fixture_count(const char *fmt)
{
	char rel[256], path[PATH_MAX + 256];
	int i;

	for (i = 0;; i++) {
		snprintf(rel, sizeof(rel), fmt, i);
		snprintf(path, sizeof(path), "%s%s", root, rel);
		if (access(path, F_OK))
			return i;
	}
}

static void is(const char *got, const char *want, const char *what)
{
	if (!tap_ok(!strcmp(got, want), "%s", what))
		printf("#   got '%s', want '%s'\n", got, want);
}

static void check_env(const char *m, const char *hv_name)
{
	char want[1024], hv[256];

	is(fact("cpuidle.driver"), fixture_line(CPUIDLE_SYSFS "/cpuidle/current_driver",
						 want, sizeof(want)),
	   "env: cpuidle.driver is the captured current_driver");
	is(fact("cpuidle.governor"), fixture_line(CPUIDLE_SYSFS "/cpuidle/current_governor",
						   want, sizeof(want)),
	   "env: cpuidle.governor is the captured current_governor");
	is(fact("hypervisor.signature"), fixture_line("/cpuid-hypervisor", want, sizeof(want)),
	   "env: hypervisor.signature is the captured CPUID signature");
	is(fact("hypervisor.name"), hv_name, "env: hypervisor.name follows the signature");
	fixture_kernel_hv(hv, sizeof(hv));
	is(fact("hypervisor.kernel"), hv, "env: hypervisor.kernel is the kernel's "
	   "\"Hypervisor detected\" line");
	is(fact("kvm.dev"), fixture_line("/dev-kvm", want, sizeof(want)),
	   "env: kvm.dev is what the capture saw");
	is(fact("sysroot"), root, "env: names the test root");
	printf("# machine %s: driver %s, signature '%s', kernel '%s'\n", m,
	       fact("cpuidle.driver"), fact("hypervisor.signature"), hv);
}

static void check_cpuidle_present(void)
{
	struct cpuidle_set s;
	char why[256] = "", name[64], rel[128];
	int ret = cpuidle_open(&s, why, sizeof(why)), k, poll = -1;
	int ncpus = fixture_count(CPUIDLE_SYSFS "/cpu%d/cpuidle");
	int nstates = fixture_count(CPUIDLE_SYSFS "/cpu0/cpuidle/state%d");

	for (k = 0; k < nstates; k++) {
		snprintf(rel, sizeof(rel), CPUIDLE_SYSFS "/cpu0/cpuidle/state%d/name", k);
		if (!strcmp(fixture_line(rel, name, sizeof(name)), "POLL"))
			poll = k;
	}
	tap_ok(!ret && s.ncpus == ncpus && s.nstates == nstates && nstates > 0,
	       "cpuidle_open finds the captured %d CPUs and %d states", ncpus, nstates);
	tap_ok(!ret && cpuidle_poll_state(&s) == poll && poll >= 0,
	       "the POLL state is state%d, as captured", poll);
	tap_ok(cpuidle_has_driver(), "a cpuidle driver is registered");
	if (!ret)
		cpuidle_close(&s);
	why[0] = '\0';
	tap_ok(probe_supported(probe_find("idle"), why, sizeof(why)),
	       "idle probe: supported with cpuidle states (%s)", why);
}

static void check_cpuidle_absent(void)
{
	struct cpuidle_set s;
	char why[256] = "";
	int ret = cpuidle_open(&s, why, sizeof(why));

	tap_ok(ret == -ENOENT, "cpuidle_open: -ENOENT without cpuidle states");
	is(why, "no cpuidle states under " CPUIDLE_SYSFS "/cpu*/cpuidle (no cpuidle "
	   "driver, or cpuidle.off=1)", "cpuidle_open: the reason");
	tap_ok(!cpuidle_has_driver(), "no cpuidle driver is registered");
}

/* The idle probe without states: power:cpu_idle (root, tracefs) or the reason. */
static void check_idle_probe_absent(void)
{
	static const char pre[] = "no cpuidle states under " CPUIDLE_SYSFS "/cpu0/cpuidle "
				  "(cpuidle driver 'none') and ";
	char why[256] = "";
	int sup = probe_supported(probe_find("idle"), why, sizeof(why));

	if (sup) {
		tap_ok(!geteuid(), "idle probe: supported without states only as root "
		       "(power:cpu_idle, decided when it opens)");
		return;
	}
	tap_ok(!strncmp(why, pre, sizeof(pre) - 1) &&
	       (strstr(why, "needs root") || strstr(why, "built without libtracefs")),
	       "idle probe: unsupported without states, with the reason");
	printf("#   %s\n", why);
}

/* idle_policy_usable() for @policy: returns usable, the reason in @why. */
static int usable(const char *policy, char *why, size_t len)
{
	struct idle_policy p;

	why[0] = '\0';
	if (idle_policy_parse(policy, &p))
		return -1;
	return idle_policy_usable(&p, why, len);
}

/* A native cell under @policy: what `list` and `run` decide (cell-check.c). */
static int cell_with(const char *policy, char *why, size_t len)
{
	struct cell c;

	memset(&c, 0, sizeof(c));
	snprintf(c.backend, sizeof(c.backend), "native");
	snprintf(c.idle, sizeof(c.idle), "%s", policy);
	snprintf(c.host_idle, sizeof(c.host_idle), "default");
	snprintf(c.probes, sizeof(c.probes), "latency");
	snprintf(c.seccomp, sizeof(c.seccomp), "on");
	snprintf(c.netns, sizeof(c.netns), "new");
	snprintf(c.cgroups, sizeof(c.cgroups), "on");
	snprintf(c.favordynmods, sizeof(c.favordynmods), "default");
	return cell_runnable(&c, why, len);
}

static void check_policies_with_driver(void)
{
	char why[512], param[PATH_MAX + 64];
	int can_write, can_qos = !access("/dev/cpu_dma_latency", W_OK);

	snprintf(param, sizeof(param), "%s" IDLE_HALTPOLL_PARAM, root);
	can_write = !access(param, W_OK);
	tap_ok(usable("hlt", why, sizeof(why)) == can_write,
	       "hlt under the haltpoll governor: usable iff guest_halt_poll_ns is "
	       "writable (%s)", can_write ? "it is" : why);
	tap_ok(usable("haltpoll:200000", why, sizeof(why)) == can_write,
	       "haltpoll:200000: the same");
	tap_ok(usable("poll", why, sizeof(why)) == can_qos,
	       "poll with a POLL state: usable iff /dev/cpu_dma_latency is writable "
	       "(%s)", can_qos ? "it is" : why);
	tap_ok(usable("spin", why, sizeof(why)) == 1, "spin: usable");
}

static void check_policies_without_driver(void)
{
	static const char poll_why[] = "no cpuidle driver (current_driver is 'none'): "
		"the kernel idles with HLT and POLL cannot be chosen at run time "
		"(idle = spin keeps the CPUs busy instead)";
	char why[512], cwhy[512], want[600];

	tap_ok(usable("hlt", why, sizeof(why)) == 1,
	       "hlt without a driver: measurable as it is (%s)", why);
	tap_ok(usable("poll", why, sizeof(why)) == 0, "poll without a driver: not usable");
	is(why, poll_why, "poll without a driver: the reason");
	tap_ok(usable("haltpoll:200000", why, sizeof(why)) == 0, "haltpoll:N without a "
	       "driver: not usable");
	is(why, "no cpuidle driver: guest halt-polling needs the haltpoll cpuidle driver",
	   "haltpoll:N without a driver: the reason");
	tap_ok(usable("spin", why, sizeof(why)) == 1, "spin without a driver: usable");
	tap_ok(cell_with("poll", cwhy, sizeof(cwhy)) == 0, "a poll cell cannot run here");
	snprintf(want, sizeof(want), "idle = poll: %s", poll_why);
	is(cwhy, want, "list and run: the cell's reason is the policy's");
	tap_ok(cell_with("hlt", cwhy, sizeof(cwhy)) == 1 &&
	       cell_with("spin", cwhy, sizeof(cwhy)) == 1, "hlt and spin cells can run");
}

/* A copy of the current fixture in a temporary directory, made the new root. */
static int copy_machine(char *tmp, size_t len)
{
	char cmd[3 * PATH_MAX];

	snprintf(tmp, len, "/tmp/cvmbench-machines-XXXXXX");
	if (!mkdtemp(tmp))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -R '%s/.' '%s/'", root, tmp);
	if (system(cmd))
		return -1;
	snprintf(root, sizeof(root), "%s", tmp);
	setenv(SYSROOT_ENV, root, 1);
	return 0;
}

static void remove_copy(const char *tmp)
{
	char cmd[PATH_MAX + 32];

	if (strncmp(tmp, "/tmp/cvmbench-machines-", 23))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		printf("# could not remove %s\n", tmp);
}

static void write_file(const char *rel, const char *text)
{
	char path[PATH_MAX + 128];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A with its governor switched to menu: hlt cannot set guest halt-polling. */
static void check_menu_with_driver(void)
{
	char tmp[PATH_MAX], why[512];

	use_machine("A-kvm-haltpoll");
	if (copy_machine(tmp, sizeof(tmp))) {
		tap_ok(0, "copy of machine A");
		tap_ok(0, "copy of machine A");
		return;
	}
	write_file(IDLE_GOVERNOR_FILE, "menu\n");
	tap_ok(usable("hlt", why, sizeof(why)) == 0, "hlt, driver with the menu "
	       "governor: not usable");
	is(why, "the cpuidle governor is 'menu', not haltpoll: guest_halt_poll_ns would "
	   "have no effect", "hlt, menu governor: the reason");
	remove_copy(tmp);
}

static void check_tracefs(void)
{
	struct tracefs_place p;
	char tmp[PATH_MAX], why[256];

	use_machine("A-kvm-haltpoll");
	tap_ok(tracefs_find(&p) == 1 && p.mounted && !strcmp(p.dir, TRACEFS_MOUNT_POINT),
	       "A: tracefs mounted at " TRACEFS_MOUNT_POINT " (mountinfo)");
	is(fact("tracefs.mounted"), "yes, at " TRACEFS_MOUNT_POINT, "A: env tracefs.mounted");
	use_machine("B-pvm-no-cpuidle");
	tap_ok(tracefs_find(&p) == 1 && !p.mounted && p.in_kernel && p.mount_point,
	       "B: tracefs not mounted, mountable");
	is(fact("tracefs.mounted"), "no", "B: env tracefs.mounted");
	tap_ok(tracefs_usable(why, sizeof(why)) == !geteuid(),
	       "B: usable iff root may mount it (%s)", why);
	if (copy_machine(tmp, sizeof(tmp))) {
		tap_ok(0, "copy of machine B");
		tap_ok(0, "copy of machine B");
		return;
	}
	write_file("/proc/filesystems", "nodev\tsysfs\nnodev\tproc\n");
	tap_ok(tracefs_find(&p) == 0, "B without tracefs in the kernel: not mountable");
	is(p.why, "tracefs is not mounted and the kernel has no tracefs (/proc/filesystems)",
	   "B without tracefs: the reason");
	remove_copy(tmp);
}

int main(void)
{
	tap_plan(44);
	use_machine("A-kvm-haltpoll");
	check_env("A", "KVM");
	check_cpuidle_present();
	check_policies_with_driver();
	use_machine("B-pvm-no-cpuidle");
	check_env("B", "bhyve");
	check_cpuidle_absent();
	check_idle_probe_absent();
	check_policies_without_driver();
	check_menu_with_driver();
	check_tracefs();
	facts_free();
	unsetenv(SYSROOT_ENV);
	return tap_done();
}
