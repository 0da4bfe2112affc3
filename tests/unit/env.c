// SPDX-License-Identifier: MIT
/*
 * tests/unit/env.c - env_collect() and `cvmbench env --json` against what
 * the kernel says directly: /proc/cpuinfo, uname(2), /proc/cmdline,
 * sysconf(3), CPUID (inline asm), /dev/kmsg, cpuidle and KSM/THP sysfs
 * files. TAP output; a check whose
 * file or feature is missing here says SKIP with the reason.
 */
#include <cjson/cJSON.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "backend.h"
#include "command.h"
#include "env.h"

#define N_TESTS 19
#define MAX_FACTS 1024

struct fact {
	char *key, *value, *source;
};

static struct fact facts[MAX_FACTS];
static int n_facts, test_no;

static void ok(int cond, const char *what)
{
	printf("%sok %d - %s\n", cond ? "" : "not ", ++test_no, what);
}

static void skip(const char *why)
{
	printf("ok %d # SKIP %s\n", ++test_no, why);
}

static void is(const char *got, const char *want, const char *what)
{
	ok(got && want && !strcmp(got, want), what);
	if (!got || !want || strcmp(got, want))
		printf("#   got '%s', want '%s'\n", got ? got : "(none)",
		       want ? want : "(none)");
}

static void collect(void *ctx, const char *key, const char *value,
		    const char *source)
{
	(void)ctx;
	if (n_facts == MAX_FACTS)
		return;
	facts[n_facts].key = strdup(key);
	facts[n_facts].value = strdup(value);
	facts[n_facts].source = strdup(source);
	n_facts++;
}

static const char *fact(const char *key)
{
	int i;

	for (i = 0; i < n_facts; i++)
		if (!strcmp(facts[i].key, key))
			return facts[i].value;
	return NULL;
}

/* First line of @path, or NULL. */
static char *read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");
	char *r;

	if (!f)
		return NULL;
	r = fgets(buf, (int)len, f);
	fclose(f);
	if (r)
		buf[strcspn(buf, "\n")] = '\0';
	return r;
}

/* Value of the first "field : value" line of /proc/cpuinfo. */
static char *cpuinfo(const char *field, char *buf, size_t len)
{
	char line[8192];
	FILE *f = fopen("/proc/cpuinfo", "r");
	char *found = NULL;

	if (!f)
		return NULL;
	while (!found && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon || strncmp(line, field, strlen(field)))
			continue;
		colon += 1 + strspn(colon + 1, " ");
		colon[strcspn(colon, "\n")] = '\0';
		snprintf(buf, len, "%s", colon);
		found = buf;
	}
	fclose(f);
	return found;
}

static int has_word(const char *list, const char *word)
{
	char copy[8192], *tok, *save = NULL;

	snprintf(copy, sizeof(copy), "%s", list);
	for (tok = strtok_r(copy, " ", &save); tok; tok = strtok_r(NULL, " ", &save))
		if (!strcmp(tok, word))
			return 1;
	return 0;
}

static void test_facts_well_formed(void)
{
	int i, j, bad = 0, dup = 0;

	for (i = 0; i < n_facts; i++) {
		if (!facts[i].key[0] || !facts[i].value[0] || !facts[i].source[0]) {
			printf("#   empty key, value or source: '%s'\n", facts[i].key);
			bad++;
		}
		for (j = 0; j < i; j++)
			if (!strcmp(facts[i].key, facts[j].key)) {
				printf("#   duplicate key %s\n", facts[i].key);
				dup++;
			}
	}
	ok(n_facts > 50 && !bad, "every fact has a key, a value and a source");
	ok(!dup, "keys are unique");
}

static void test_required_keys(void)
{
	static const char *const keys[] = {
		"cpu.vendor", "cpu.family", "cpu.model", "cpu.stepping", "cpu.brand",
		"cpu.microcode", "topology.hwloc", "topology.pus", "memory.total",
		"kernel.release", "kernel.version", "kernel.cmdline",
		"hypervisor.present", "hypervisor.signature", "cvm.type",
		"cvm.evidence", "cpuidle.driver", "cpuidle.governor", "ksm.run",
		"thp.enabled", "thp.defrag", "kvm.dev", "kvm.halt_poll_ns",
		"tools.qemu.version", "tools.runc.version", "tools.crun.version",
		"hypervisor.kernel", "tracefs.mounted", "tracefs.mountable",
		"pmu.hardware",
	};
	size_t i;
	int missing = 0;

	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		if (!fact(keys[i])) {
			printf("#   missing %s\n", keys[i]);
			missing++;
		}
	ok(!missing, "every required key is emitted (value or unavailable: reason)");
}

static void test_cpu_kernel(void)
{
	char buf[4096];
	struct utsname u;

	if (cpuinfo("vendor_id", buf, sizeof(buf)))
		is(fact("cpu.vendor"), buf, "cpu.vendor is /proc/cpuinfo vendor_id");
	else
		skip("no vendor_id in /proc/cpuinfo");
	uname(&u);
	is(fact("kernel.release"), u.release, "kernel.release is uname(2) release");
	if (read_line("/proc/cmdline", buf, sizeof(buf)))
		is(fact("kernel.cmdline"), buf, "kernel.cmdline is /proc/cmdline");
	else
		skip("/proc/cmdline unreadable");
	snprintf(buf, sizeof(buf), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
	is(fact("topology.pus"), buf, "topology.pus is sysconf(_SC_NPROCESSORS_ONLN)");
}

/* CPUID leaf 0x40000000 read here with inline asm: EBX, ECX, EDX. */
static void cpuid_signature(char out[13])
{
	unsigned int a = 0x40000000, b, c = 0, d;

	__asm__ volatile("cpuid" : "+a"(a), "=b"(b), "+c"(c), "=d"(d));
	memcpy(out, &b, 4);
	memcpy(out + 4, &c, 4);
	memcpy(out + 8, &d, 4);
	out[12] = '\0';
}

/* "Hypervisor detected: X" from /dev/kmsg, read here; 1 found, 0 not, -1 unreadable. */
static int kmsg_hypervisor(char *out, size_t len)
{
	char rec[8192], *at;
	int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK), found = 0;
	ssize_t n;

	if (fd < 0)
		return -1;
	while (!found && ((n = read(fd, rec, sizeof(rec) - 1)) > 0 ||
			  (n < 0 && errno == EPIPE))) {
		if (n <= 0)
			continue;
		rec[n] = '\0';
		if ((at = strstr(rec, "Hypervisor detected: "))) {
			at[strcspn(at, "\n")] = '\0';
			snprintf(out, len, "%s", at + 21);
			found = 1;
		}
	}
	close(fd);
	return found;
}

/*
 * The signature is read, never inferred: a guest with kvm-clock may say
 * "bhyve bhyve " (a PVM guest) and its kernel "PVM".
 */
static void test_hypervisor(void)
{
	char flags[8192], sig[13], kline[256];
	int hv, k;

	if (!cpuinfo("flags", flags, sizeof(flags))) {
		skip("no flags in /proc/cpuinfo");
		skip("no flags in /proc/cpuinfo");
		skip("no flags in /proc/cpuinfo");
		return;
	}
	hv = has_word(flags, "hypervisor");
	ok(env_in_vm() == hv && !strcmp(fact("hypervisor.present") ?: "",
					  hv ? "yes" : "no"),
	   "env_in_vm() and hypervisor.present follow the cpuinfo hypervisor flag");
	if (!hv) {
		skip("not a VM: no hypervisor flag in /proc/cpuinfo");
	} else {
		cpuid_signature(sig);
		is(fact("hypervisor.signature"), sig,
		   "hypervisor.signature is CPUID 0x40000000 (read here with inline asm)");
	}
	k = kmsg_hypervisor(kline, sizeof(kline));
	if (k < 0)
		skip("cannot read /dev/kmsg (needs CAP_SYSLOG when dmesg_restrict = 1)");
	else if (!k)
		ok(fact("hypervisor.kernel") && !strncmp(fact("hypervisor.kernel"), "none", 4),
		   "hypervisor.kernel says none: no \"Hypervisor detected\" line in /dev/kmsg");
	else
		is(fact("hypervisor.kernel"), kline,
		   "hypervisor.kernel is the kernel's \"Hypervisor detected\" line (/dev/kmsg)");
}

/*
 * A hardware PMU registers a "cpu" (or hybrid "cpu_core") event source in
 * sysfs: without one, perf_event_open of a hardware event must fail.
 */
static void test_pmu(void)
{
	const char *v = fact("pmu.hardware");
	int dev = !access("/sys/bus/event_source/devices/cpu", F_OK) ||
		  !access("/sys/bus/event_source/devices/cpu_core", F_OK);
	int yes = v && !strncmp(v, "yes", 3);

	if (yes != dev)
		printf("#   pmu.hardware '%s', cpu event source %s\n", v ? v : "(none)",
		       dev ? "present" : "absent");
	if (dev && geteuid())
		skip("a PMU is registered, but perf_event_paranoid may refuse a non-root open");
	else
		ok(yes == dev, "pmu.hardware follows the PMU event source in "
		   "/sys/bus/event_source/devices");
}

static void test_cvm(void)
{
	static const char *const types[] = { "none", "tdx", "sev", "sev-es", "sev-snp" };
	const char *type = fact("cvm.type"), *ev = fact("cvm.evidence");
	char flags[8192] = "";
	int known = 0, cc;
	size_t i;

	for (i = 0; type && i < sizeof(types) / sizeof(types[0]); i++)
		known |= !strcmp(type, types[i]);
	ok(known, "cvm.type is none, tdx, sev, sev-es or sev-snp");
	ok(ev && strstr(ev, "cpuid_0x21") && strstr(ev, "sev_status_msr") &&
	   strstr(ev, "kernel_log") && strstr(ev, "cpuinfo_flags") &&
	   strstr(ev, "guest_devices"), "cvm.evidence lists every check");
	cpuinfo("flags", flags, sizeof(flags));
	cc = has_word(flags, "sev") || has_word(flags, "sev_es") ||
	     has_word(flags, "sev_snp") || has_word(flags, "tdx_guest") ||
	     !access("/dev/sev-guest", F_OK) || !access("/dev/tdx_guest", F_OK);
	if (cc)
		skip("this machine shows CVM flags or devices");
	else
		is(type, "none", "cvm.type is none on a machine without CVM flags or devices");
}

static void test_sysfs(void)
{
	char buf[512], *sel;

	if (read_line("/sys/devices/system/cpu/cpuidle/current_driver", buf, sizeof(buf)))
		is(fact("cpuidle.driver"), buf, "cpuidle.driver is cpuidle/current_driver");
	else
		skip("no /sys/devices/system/cpu/cpuidle/current_driver");
	if (read_line("/sys/kernel/mm/ksm/run", buf, sizeof(buf)))
		is(fact("ksm.run"), buf, "ksm.run is /sys/kernel/mm/ksm/run");
	else
		skip("no /sys/kernel/mm/ksm (kernel without KSM)");
	if (read_line("/sys/kernel/mm/transparent_hugepage/enabled", buf, sizeof(buf)) &&
	    (sel = strchr(buf, '['))) {
		sel[strcspn(sel, "]")] = '\0';
		is(fact("thp.enabled"), sel + 1, "thp.enabled is the [selected] THP mode");
	} else {
		skip("no /sys/kernel/mm/transparent_hugepage/enabled");
	}
}

/* An env_emit_fn that counts (the backends' facts `cvmbench env` adds). */
static void count_fact(void *ctx, const char *key, const char *value, const char *source)
{
	(void)key;
	(void)value;
	(void)source;
	(*(int *)ctx)++;
}

/* Run `cvmbench env --json` with stdout in a temporary file; parse it. */
static void test_json(void)
{
	char *argv[] = { "env", "--json", NULL };
	FILE *tmp = tmpfile();
	int saved = dup(STDOUT_FILENO), rc, n = 0, n_backend = 0;
	cJSON *root = NULL, *v;
	char *text;
	long size;

	fflush(stdout);
	dup2(fileno(tmp), STDOUT_FILENO);
	rc = cmd_env(2, argv);
	fflush(stdout);
	dup2(saved, STDOUT_FILENO);
	close(saved);
	size = ftell(tmp);
	text = calloc(1, (size_t)size + 1);
	rewind(tmp);
	if (text && fread(text, 1, (size_t)size, tmp) == (size_t)size)
		root = cJSON_Parse(text);
	fclose(tmp);
	free(text);
	n = root ? cJSON_GetArraySize(root) : -1;
	v = cJSON_GetObjectItemCaseSensitive(
		cJSON_GetObjectItemCaseSensitive(root, "cpu.vendor"), "value");
	backend_env_facts(count_fact, &n_backend);
	ok(rc == 0 && n == n_facts + n_backend && n_backend > 0 &&
	   cJSON_GetObjectItemCaseSensitive(root, "qemu.cpu"),
	   "env --json exits 0 with one member per fact (and the backends' own, qemu.cpu)");
	is(cJSON_IsString(v) ? v->valuestring : NULL, fact("cpu.vendor"),
	   "env --json cpu.vendor.value matches env_collect()");
	cJSON_Delete(root);
}

int main(void)
{
	int i;

	printf("1..%d\n", N_TESTS);
	env_collect(collect, NULL);
	test_facts_well_formed();
	test_required_keys();
	test_cpu_kernel();
	test_hypervisor();
	test_pmu();
	test_cvm();
	test_sysfs();
	test_json();
	for (i = 0; i < n_facts; i++) {
		free(facts[i].key);
		free(facts[i].value);
		free(facts[i].source);
	}
	return 0;
}
