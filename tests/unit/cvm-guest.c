// SPDX-License-Identifier: MIT
/*
 * tests/unit/cvm-guest.c - the guest-vantage CVM detection (bench/env/
 * env-cvm.c, env-cvm-checks.c) on fake guests: an SEV-SNP guest and a TDX
 * guest (tests/fixtures/cvm/NAME/root, through CVMBENCH_SYSROOT; the facts
 * and their kernel sources are in tests/fixtures/cvm/README.md), and two
 * trees that must not be called a CVM, built here: a /dev/sev-guest node
 * with nothing else, and an AMD host that lists SEV capabilities. Runs
 * env_collect() and reads the cvm.* facts; the kernel log lines it wants are
 * read from the fixture files by this test itself.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "env.h"
#include "env-facts.h"
#include "fake-file.h"
#include "sysroot.h"
#include "tap.h"

#define FIXTURES "tests/fixtures/cvm"


/* Collect every fact with @dir as the root. */
static void use_root(const char *dir)
{
	snprintf(root, sizeof(root), "%s", dir);
	setenv(SYSROOT_ENV, root, 1);
	facts_free();
	env_collect(collect, NULL);
}

static void use_fixture(const char *name)
{
	char rel[PATH_MAX], abs[PATH_MAX];

	snprintf(rel, sizeof(rel), FIXTURES "/%s/root", name);
	if (!realpath(rel, abs)) {
		printf("Bail out! no fixture %s (run from the source tree)\n", rel);
		exit(1);
	}
	use_root(abs);
}

/* The line of the fixture's dmesg-excerpt holding @needle, read here. */
static const char *fixture_log(const char *needle, char *out, size_t len)
{
	char path[PATH_MAX + 32], line[1024];
	FILE *f;

	snprintf(path, sizeof(path), "%s/dmesg-excerpt", root);
	snprintf(out, len, "(no line in the fixture)");
	f = fopen(path, "r");
	while (f && fgets(line, sizeof(line), f))
		if (strstr(line, needle)) {
			line[strcspn(line, "\n")] = '\0';
			snprintf(out, len, "%s", line);
		}
	if (f)
		fclose(f);
	return out;
}

static void is(const char *got, const char *want, const char *what)
{
	if (!tap_ok(!strcmp(got, want), "%s", what))
		printf("#   got '%s', want '%s'\n", got, want);
}

static void lacks(const char *haystack, const char *needle, const char *what)
{
	if (!tap_ok(!strstr(haystack, needle), "%s", what))
		printf("#   '%s' should not contain '%s'\n", haystack, needle);
}

static void check_snp(void)
{
	char want[1024];
	const char *by;

	use_fixture("snp-guest");
	by = fact("cvm.detected_by");
	is(fact("cvm.type"), "sev-snp", "SNP guest: cvm.type sev-snp");
	tap_contains(by, "sev_status_msr (sev-snp)", "SNP: the SEV status MSR counts");
	tap_contains(by, "kernel_log (sev-snp)", "SNP: the kernel log line counts");
	tap_contains(by, "guest_devices (sev-snp)", "SNP: the sev-guest driver counts");
	lacks(by, "cpuid_0x21", "SNP: CPUID 0x21 finds no TD");
	lacks(by, "cpuid_0x8000001f", "SNP: CPUID 0x8000001f is never counted");
	is(fact("cvm.evidence.sev_status_msr"), "0x7: SEV on, SEV-ES on, SEV-SNP on",
	   "SNP: the MSR's bits in words");
	is(fact("cvm.evidence.kernel_log"),
	   fixture_log("Memory Encryption Features active", want, sizeof(want)),
	   "SNP: the kernel log line as the fixture has it");
	tap_contains(fact("cvm.evidence.cpuid_0x8000001f"),
		     "advertises SEV SEV-ES SEV-SNP (capability only", "SNP: 0x8000001f read");
	is(fact("cvm.evidence.cpuid_0x21"),
	   "not a TD: no cpuid-0x21 in the test root (leaf absent)", "SNP: no leaf 0x21");
	tap_contains(fact("cvm.evidence.acpi_ccel"), "not checked", "SNP: no ACPI tables");
	is(fact("hypervisor.present"), "yes", "SNP: hypervisor bit from cpuinfo");
}

static void check_tdx(void)
{
	char want[1024];
	const char *by;

	use_fixture("tdx-guest");
	by = fact("cvm.detected_by");
	is(fact("cvm.type"), "tdx", "TDX guest: cvm.type tdx");
	tap_contains(by, "cpuid_0x21 (tdx)", "TDX: CPUID 0x21 counts");
	tap_contains(by, "cpuinfo_flags (tdx)", "TDX: the tdx_guest flag counts");
	tap_contains(by, "kernel_log (tdx)", "TDX: the kernel log line counts");
	tap_contains(by, "guest_devices (tdx)", "TDX: the tdx_guest driver counts");
	lacks(by, "sev", "TDX: no SEV evidence");
	is(fact("cvm.evidence.cpuid_0x21"), "\"IntelTDX    \": a TD guest",
	   "TDX: the leaf's signature");
	is(fact("cvm.evidence.kernel_log"),
	   fixture_log("Memory Encryption Features active", want, sizeof(want)),
	   "TDX: the kernel log line as the fixture has it");
	is(fact("cvm.evidence.sev_status_msr"),
	   "not checked: GenuineIntel CPUs have no SEV status MSR", "TDX: no MSR read");
	is(fact("cvm.evidence.acpi_ccel"),
	   "present: firmware of a confidential guest (not counted)", "TDX: CCEL seen");
	tap_contains(fixture_log("tdx:", want, sizeof(want)), "tdx: Guest detected",
		     "TDX: the fixture carries the kernel's own 'tdx: Guest detected'");
}

/* An empty tree in /tmp with an AMD guest's cpuinfo; 0 or -1. */
static int tmp_tree(char *dir, size_t len, const char *flags)
{
	char path[PATH_MAX + 64], text[512];

	snprintf(dir, len, "/tmp/cvmbench-cvm-XXXXXX");
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/proc", dir);
	mkdir(path, 0755);
	snprintf(path, sizeof(path), "%s/dev", dir);
	mkdir(path, 0755);
	snprintf(text, sizeof(text), "processor\t: 0\nvendor_id\t: AuthenticAMD\n"
		 "flags\t\t: fpu tsc msr %s\n\n", flags);
	fake_file_put(dir, "/proc/cpuinfo", text);
	return 0;
}

static void tmp_remove(const char *dir)
{
	char cmd[PATH_MAX + 32];

	if (strncmp(dir, "/tmp/cvmbench-cvm-", 18))
		return;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", dir);
	if (system(cmd))
		printf("# could not remove %s\n", dir);
}

static void check_dev_node_alone(void)
{
	char dir[PATH_MAX], cmd[PATH_MAX + 96];

	if (tmp_tree(dir, sizeof(dir), "hypervisor")) {
		tap_ok(0, "temporary tree");
		tap_ok(0, "temporary tree");
		tap_ok(0, "temporary tree");
		return;
	}
	fake_file_put(dir, "/dev/sev-guest", "");
	use_root(dir);
	is(fact("cvm.type"), "none", "/dev/sev-guest alone (no sysfs entry, log, MSR, "
	   "CPUID): not a CVM");
	tap_contains(fact("cvm.evidence.guest_devices"), "/dev/sev-guest present (not counted",
		     "/dev/sev-guest alone: reported, not counted");
	snprintf(cmd, sizeof(cmd), "mkdir -p '%s/sys/class/misc/sev-guest'", dir);
	if (system(cmd))
		printf("# %s failed\n", cmd);
	use_root(dir);
	is(fact("cvm.type"), "sev-snp", "with its /sys/class/misc entry it counts");
	tmp_remove(dir);
}

static void check_amd_host(void)
{
	char dir[PATH_MAX];

	if (tmp_tree(dir, sizeof(dir), "svm sev sev_es sev_snp")) {
		tap_ok(0, "temporary tree");
		tap_ok(0, "temporary tree");
		tap_ok(0, "temporary tree");
		return;
	}
	fake_file_put(dir, "/cpuid-0x8000001f", "0x1b\n");
	use_root(dir);
	is(fact("cvm.type"), "none", "AMD host with sev sev_es sev_snp flags: not a CVM");
	tap_contains(fact("cvm.evidence.cpuinfo_flags"), "not counted: no hypervisor bit",
		     "AMD host: the flags are host capabilities");
	is(fact("hypervisor.present"), "no", "AMD host: no hypervisor bit");
	tmp_remove(dir);
}

int main(void)
{
	tap_plan(29);
	check_snp();
	check_tdx();
	check_dev_node_alone();
	check_amd_host();
	facts_free();
	unsetenv(SYSROOT_ENV);
	return tap_done();
}
