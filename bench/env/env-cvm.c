// SPDX-License-Identifier: MIT
/*
 * env-cvm.c - is this a confidential VM, which kind, and on what evidence.
 * Each piece of evidence is checked and recorded, whatever it says:
 *   cpuid_0x21       CPUID leaf 0x21 signature "IntelTDX    " (a TD guest)
 *   cpuid_0x8000001f AMD memory-encryption capabilities (informative only)
 *   cpuinfo_flags    tdx_guest, sev, sev_es, sev_snp in /proc/cpuinfo
 *                    (counted only with the hypervisor bit: a host lists
 *                    sev/sev_es/sev_snp as capabilities)
 *   sev_status_msr   MSR 0xC0010131 (bit 0 SEV, 1 SEV-ES, 2 SEV-SNP) read
 *                    through /dev/cpu/0/msr (needs the msr driver and root)
 *   kernel_log       "Memory Encryption Features active: ..." (env-kmsg.c)
 *   guest_devices    /sys/class/misc/sev-guest and tdx_guest, the entries
 *                    the attestation drivers register (counted), and
 *                    /dev/sev-guest, /dev/tdx_guest (reported; a node
 *                    without its sysfs entry is not counted)
 *   ccel             /sys/firmware/acpi/tables/CCEL, the confidential
 *                    computing event log (informative only)
 * cvm.type is the strongest kind any counted evidence shows. Under a test
 * root the checks read captured files (env-cvm-checks.c); the fixtures of
 * an SEV-SNP and a TDX guest are in tests/fixtures/cvm/.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "env-cvm.h"
#include "env-local.h"

static const char *const cvm_level_names[] = {
	[CVM_NONE] = "none", [CVM_SEV] = "sev", [CVM_SEV_ES] = "sev-es",
	[CVM_SEV_SNP] = "sev-snp", [CVM_TDX] = "tdx",
};

static const cvm_check_fn cvm_checks[] = {
	cvm_check_cpuid_0x21, cvm_check_cpuid_0x8000001f, cvm_check_cpuinfo,
	cvm_check_msr, cvm_check_kmsg, cvm_check_devices, cvm_check_ccel,
};

#define N_CHECKS (sizeof(cvm_checks) / sizeof(cvm_checks[0]))

/**
 * cvm_level_name() - "none", "sev", "sev-es", "sev-snp" or "tdx".
 * @level: the level
 */
const char *cvm_level_name(enum cvm_level level)
{
	return cvm_level_names[level];
}

/**
 * cvm_level_of_text() - the strongest CVM kind named in @text: "TDX",
 * "SEV-SNP", "SEV-ES" or "SEV" (as the kernel prints them), else CVM_NONE.
 * @text: e.g. "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP"
 */
enum cvm_level cvm_level_of_text(const char *text)
{
	const char *p;

	if (strstr(text, "TDX"))
		return CVM_TDX;
	if (strstr(text, "SEV-SNP") || strstr(text, "sev_snp"))
		return CVM_SEV_SNP;
	if (strstr(text, "SEV-ES") || strstr(text, "sev_es"))
		return CVM_SEV_ES;
	for (p = text; (p = strcasestr(p, "sev")); p += 3)
		if (p[3] == '\0' || p[3] == ' ' || p[3] == ',')
			return CVM_SEV;
	return CVM_NONE;
}

static void cvm_put_summary(const struct env_sink *s, struct cvm_ev *ev)
{
	char summary[4096] = "", by[512] = "";
	enum cvm_level best = CVM_NONE;
	size_t i, n;

	for (i = 0; i < N_CHECKS; i++) {
		if (ev[i].level > best)
			best = ev[i].level;
		n = strlen(summary);
		snprintf(summary + n, sizeof(summary) - n, "%s%s: %s",
			 i ? "; " : "", ev[i].name, ev[i].said);
		if (ev[i].level == CVM_NONE)
			continue;
		n = strlen(by);
		snprintf(by + n, sizeof(by) - n, "%s%s (%s)", n ? ", " : "",
			 ev[i].name, cvm_level_name(ev[i].level));
	}
	env_put(s, "cvm.type", "strongest of the cvm.evidence.* checks", "%s",
		cvm_level_name(best));
	env_put(s, "cvm.detected_by", "cvm.evidence.* checks that found a CVM",
		"%s", by[0] ? by : "none");
	env_put(s, "cvm.evidence", "cvm.evidence.* checks", "%s", summary);
}

/**
 * env_collect_cvm() - emit cvm.type, cvm.detected_by, cvm.evidence and one
 * cvm.evidence.<check> fact per piece of evidence.
 * @s: the sink
 */
void env_collect_cvm(const struct env_sink *s)
{
	struct cvm_ev ev[N_CHECKS];
	char key[96];
	size_t i;

	memset(ev, 0, sizeof(ev));
	for (i = 0; i < N_CHECKS; i++)
		cvm_checks[i](&ev[i]);
	cvm_put_summary(s, ev);
	for (i = 0; i < N_CHECKS; i++) {
		snprintf(key, sizeof(key), "cvm.evidence.%s", ev[i].name);
		env_put(s, key, ev[i].source, "%s", ev[i].said);
	}
}
