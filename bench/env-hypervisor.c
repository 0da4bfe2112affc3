// SPDX-License-Identifier: MIT
/*
 * env-hypervisor.c - is this a virtual machine, and under which hypervisor:
 * the hypervisor bit CPUID.1:ECX[31], and, when it is set, the vendor
 * signature of CPUID leaf 0x40000000 (EBX, ECX, EDX; "KVMKVMKVM",
 * "Microsoft Hv", "TCGTCGTCGTCG", ...) and its maximum hypervisor leaf (EAX).
 * Also the CPUID helpers the other collectors use.
 */
#include <cpuid.h>
#include <ctype.h>
#include <string.h>

#include "env-local.h"

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
 * leaf 1 is not available.
 */
int env_in_vm(void)
{
	unsigned int a, b, c, d;

	if (!__get_cpuid(1, &a, &b, &c, &d))
		return 0;
	return !!(c & CPUID_1_ECX_HV);
}

static const char *hv_name(const char *sig)
{
	size_t i;

	for (i = 0; i < sizeof(hv_names) / sizeof(hv_names[0]); i++)
		if (!strcmp(sig, hv_names[i].sig))
			return hv_names[i].name;
	return "unknown";
}

/**
 * env_collect_hypervisor() - emit hypervisor.present, .signature, .name and
 * .max_leaf.
 * @s: the sink
 */
void env_collect_hypervisor(const struct env_sink *s)
{
	static const char src_sig[] = "cpuid leaf 0x40000000 ebx:ecx:edx";
	char sig[13];
	unsigned int a, b, c, d;

	if (!env_in_vm()) {
		env_put(s, "hypervisor.present", "cpuid leaf 0x1 ecx bit 31", "no");
		env_put(s, "hypervisor.signature", src_sig,
			"none (hypervisor bit clear)");
		env_put(s, "hypervisor.name", src_sig, "none");
		env_put(s, "hypervisor.max_leaf", "cpuid leaf 0x40000000 eax",
			"none");
		return;
	}
	env_put(s, "hypervisor.present", "cpuid leaf 0x1 ecx bit 31", "yes");
	env_cpuid_string(CPUID_HV_BASE, 0, sig);
	env_put(s, "hypervisor.signature", src_sig, "%s", sig);
	env_put(s, "hypervisor.name", src_sig, "%s", hv_name(sig));
	__cpuid(CPUID_HV_BASE, a, b, c, d);
	(void)b, (void)c, (void)d;
	env_put(s, "hypervisor.max_leaf", "cpuid leaf 0x40000000 eax", "0x%x", a);
}
