// SPDX-License-Identifier: MIT
/*
 * env-hypervisor.c - is this a virtual machine, and under which hypervisor:
 * the hypervisor bit CPUID.1:ECX[31], and, when it is set, the vendor
 * signature of CPUID leaf 0x40000000 (EBX, ECX, EDX; "KVMKVMKVM",
 * "Microsoft Hv", "TCGTCGTCGTCG", ...) and its maximum hypervisor leaf (EAX).
 * Also the kernel's own verdict, its boot line "Hypervisor detected: ..."
 * (which can differ from the signature: a PVM guest's CPUID says
 * "bhyve bhyve ", its kernel "PVM"), and the CPUID helpers the other
 * collectors use. Under a test root (sysroot.h) the signature comes from
 * the captured file cpuid-hypervisor and the log from dmesg-excerpt.
 */
#include <cpuid.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "env-kmsg.h"
#include "env-local.h"
#include "sysroot.h"

#define CPUID_HV_BASE		0x40000000u
#define CPUID_1_ECX_HV		(1u << 31)

static const struct {
	const char *sig;
	const char *name;
} hv_names[] = {
	{ "KVMKVMKVM", "KVM" },
	{ "Microsoft Hv", "Microsoft Hyper-V" },
	{ "VMwareVMware", "VMware" },
	{ "XenVMMXenVMM", "Xen" },
	{ "TCGTCGTCGTCG", "QEMU TCG" },
	{ "bhyve bhyve ", "bhyve" },
	{ "ACRNACRNACRN", "ACRN" },
	{ " lrpepyh  vr", "Parallels" },
	{ "QNXQVMBSQG", "QNX" },
};

/**
 * env_cpuid_max() - the highest leaf of a CPUID range.
 * @base: 0 for the basic range, 0x80000000 for the extended one
 *
 * Return: EAX of leaf @base, 0 if CPUID is not available.
 */
unsigned int env_cpuid_max(unsigned int base)
{
	return __get_cpuid_max(base, NULL);
}

/**
 * env_cpuid_string() - the 12-character string of a CPUID leaf, NUL-ended,
 * with non-printable bytes cut off at the first NUL.
 * @leaf: the leaf (subleaf 0)
 * @edx_first: 1 for the EBX, EDX, ECX order (leaf 0 vendor, leaf 0x21
 *	"IntelTDX    "), 0 for EBX, ECX, EDX (hypervisor leaf 0x40000000)
 * @out: 13 bytes
 */
void env_cpuid_string(unsigned int leaf, int edx_first, char out[13])
{
	unsigned int a, b, c, d;
	int i;

	__cpuid_count(leaf, 0, a, b, c, d);
	(void)a;
	memcpy(out, &b, 4);
	memcpy(out + 4, edx_first ? &d : &c, 4);
	memcpy(out + 8, edx_first ? &c : &d, 4);
	out[12] = '\0';
	for (i = 0; i < 12; i++)
		if (out[i] && !isprint((unsigned char)out[i]))
			out[i] = '?';
}

/**
 * env_in_vm() - 1 if CPUID says a hypervisor is present.
 *
 * Reads the hypervisor bit, CPUID.1:ECX[31]; 0 if it is clear or CPUID
 * leaf 1 is not available. Under a test root, the captured cpuinfo's
 * "hypervisor" flag (the kernel's copy of that bit).
 */
int env_in_vm(void)
{
	unsigned int a, b, c, d;

	if (sysroot())
		return env_cpuinfo_has_flag("hypervisor") == 1;
	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	return !!(c & CPUID_1_ECX_HV);
}

/* Signatures compare without their trailing blanks ("bhyve bhyve "). */
static size_t sig_len(const char *sig)
{
	size_t n = strlen(sig);

	while (n && sig[n - 1] == ' ')
		n--;
	return n;
}

static const char *hv_name(const char *sig)
{
	size_t i, n = sig_len(sig);

	for (i = 0; i < sizeof(hv_names) / sizeof(hv_names[0]); i++)
		if (n == sig_len(hv_names[i].sig) && !strncmp(sig, hv_names[i].sig, n))
			return hv_names[i].name;
	return "unknown";
}

/* The kernel's "Hypervisor detected: NAME" boot line. */
static void hv_put_kernel_line(const struct env_sink *s)
{
	char line[256], how[256];
	int r = env_kmsg_find("Hypervisor detected:", line, sizeof(line), how,
			      sizeof(how));
	const char *name = strstr(line, "Hypervisor detected:");

	if (r < 0)
		env_put_unavail(s, "hypervisor.kernel", how, "cannot read the kernel log");
	else if (!r)
		env_put(s, "hypervisor.kernel", how, "none (no \"Hypervisor detected\" "
			"line in the kernel log, or it scrolled out)");
	else
		env_put(s, "hypervisor.kernel", how, "%s",
			name + strspn(name + 20, " ") + 20);
}

/* Under a test root: the captured signature, trailing blanks kept. */
static int hv_captured(char sig[13])
{
	char buf[64];
	FILE *f = sysroot_fopen("/cpuid-hypervisor", "re");

	if (!f)
		return -1;
	if (!fgets(buf, sizeof(buf), f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	snprintf(sig, 13, "%.12s", buf);
	return 0;
}

static void hv_put_signature(const struct env_sink *s)
{
	static const char src_sig[] = "cpuid leaf 0x40000000 ebx:ecx:edx";
	char sig[13];
	unsigned int a = 0, b, c, d;

	if (sysroot()) {
		if (hv_captured(sig))
			snprintf(sig, sizeof(sig), "?");
	} else {
		env_cpuid_string(CPUID_HV_BASE, 0, sig);
		__cpuid(CPUID_HV_BASE, a, b, c, d);
		(void)b, (void)c, (void)d;
	}
	env_put(s, "hypervisor.signature", src_sig, "%s", sig);
	env_put(s, "hypervisor.name", src_sig, "%s", hv_name(sig));
	if (sysroot())
		env_put_unavail(s, "hypervisor.max_leaf", "cpuid leaf 0x40000000 eax",
				"not captured in the test root");
	else
		env_put(s, "hypervisor.max_leaf", "cpuid leaf 0x40000000 eax", "0x%x", a);
}

/**
 * env_collect_hypervisor() - emit hypervisor.present, .signature, .name,
 * .max_leaf and .kernel (the kernel's own "Hypervisor detected" line).
 * @s: the sink
 */
void env_collect_hypervisor(const struct env_sink *s)
{
	static const char src_sig[] = "cpuid leaf 0x40000000 ebx:ecx:edx";

	if (!env_in_vm()) {
		env_put(s, "hypervisor.present", "cpuid leaf 0x1 ecx bit 31", "no");
		env_put(s, "hypervisor.signature", src_sig,
			"none (hypervisor bit clear)");
		env_put(s, "hypervisor.name", src_sig, "none");
		env_put(s, "hypervisor.max_leaf", "cpuid leaf 0x40000000 eax",
			"none");
	} else {
		env_put(s, "hypervisor.present", "cpuid leaf 0x1 ecx bit 31", "yes");
		hv_put_signature(s);
	}
	hv_put_kernel_line(s);
}
