// SPDX-License-Identifier: MIT
/*
 * env-cpu.c - the processor: vendor (CPUID leaf 0), family, model and
 * stepping (CPUID leaf 1, display values as /proc/cpuinfo shows them),
 * brand string (CPUID leaves 0x80000002-4), highest CPUID leaves, the
 * microcode revision and a fixed set of flags of interest (virtualisation,
 * confidential computing, TSC, idle) from /proc/cpuinfo.
 */
#include <cpuid.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "env-local.h"

#define CPUID_BRAND_FIRST	0x80000002u
#define CPUID_BRAND_LAST	0x80000004u

/* Flags a reader of CVM vs VM results wants to see at a glance. */
static const char *const cpu_flags_of_interest[] = {
	"hypervisor", "vmx", "svm", "sev", "sev_es", "sev_snp", "tdx_guest",
	"constant_tsc", "nonstop_tsc", "tsc_known_freq", "tsc_deadline_timer",
	"x2apic", "monitor", "arat", "pdpe1gb", "aes", "avx2", "avx512f",
};

static void cpu_put_signature(const struct env_sink *s)
{
	static const char src[] = "cpuid leaf 0x1 eax";
	unsigned int a, b, c, d, family, model;

	if (!__get_cpuid(1, &a, &b, &c, &d)) {
		env_put_unavail(s, "cpu.family", src, "cpuid leaf 1 not supported");
		env_put_unavail(s, "cpu.model", src, "cpuid leaf 1 not supported");
		env_put_unavail(s, "cpu.stepping", src, "cpuid leaf 1 not supported");
		return;
	}
	family = (a >> 8) & 0xf;
	model = (a >> 4) & 0xf;
	if (family == 0xf)
		family += (a >> 20) & 0xff;
	if (family >= 6)
		model += ((a >> 16) & 0xf) << 4;
	env_put(s, "cpu.family", src, "%u", family);
	env_put(s, "cpu.model", src, "%u", model);
	env_put(s, "cpu.stepping", src, "%u", a & 0xf);
}

static void cpu_put_brand(const struct env_sink *s)
{
	static const char src[] = "cpuid leaves 0x80000002-0x80000004";
	unsigned int regs[12], leaf;
	char brand[49], *p;

	if (env_cpuid_max(0x80000000) < CPUID_BRAND_LAST) {
		env_put_unavail(s, "cpu.brand", src, "extended cpuid leaves absent");
		return;
	}
	for (leaf = CPUID_BRAND_FIRST; leaf <= CPUID_BRAND_LAST; leaf++) {
		unsigned int *r = regs + 4 * (leaf - CPUID_BRAND_FIRST);

		__cpuid(leaf, r[0], r[1], r[2], r[3]);
	}
	memcpy(brand, regs, 48);
	brand[48] = '\0';
	p = brand + strspn(brand, " ");
	while (*p && p[strlen(p) - 1] == ' ')
		p[strlen(p) - 1] = '\0';
	env_put(s, "cpu.brand", src, "%s", p);
}

static void cpu_put_vendor(const struct env_sink *s)
{
	char vendor[13];

	env_cpuid_string(0, 1, vendor);
	env_put(s, "cpu.vendor", "cpuid leaf 0x0 ebx:edx:ecx", "%s", vendor);
	env_put(s, "cpu.cpuid_max_leaf", "cpuid leaf 0x0 eax", "0x%x",
		env_cpuid_max(0));
	env_put(s, "cpu.cpuid_max_ext_leaf", "cpuid leaf 0x80000000 eax", "0x%x",
		env_cpuid_max(0x80000000));
}

static void cpu_put_microcode(const struct env_sink *s)
{
	static const char src[] = "/proc/cpuinfo microcode (first cpu)";
	char buf[64];
	int ret = env_cpuinfo_field("microcode", buf, sizeof(buf));

	if (ret == -ENOENT)
		env_put_unavail(s, "cpu.microcode", src, "no microcode field");
	else if (ret < 0)
		env_put_unavail(s, "cpu.microcode", src, "%s", strerror(-ret));
	else
		env_put(s, "cpu.microcode", src, "%s", buf);
}

static int flag_in(const char *flags, const char *flag)
{
	size_t n = strlen(flag);
	const char *p = flags;

	while ((p = strstr(p, flag))) {
		if ((p == flags || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

static void cpu_put_flags(const struct env_sink *s)
{
	static const char src[] = "/proc/cpuinfo flags (first cpu)";
	char flags[8192], key[64];
	size_t i, n = sizeof(cpu_flags_of_interest) / sizeof(cpu_flags_of_interest[0]);
	int ret = env_cpuinfo_field("flags", flags, sizeof(flags));

	for (i = 0; i < n; i++) {
		const char *f = cpu_flags_of_interest[i];

		snprintf(key, sizeof(key), "cpu.flag.%s", f);
		if (ret < 0)
			env_put_unavail(s, key, src, "%s", strerror(-ret));
		else
			env_put(s, key, src, "%s", flag_in(flags, f) ? "yes" : "no");
	}
}

/**
 * env_collect_cpu() - emit the cpu.* facts.
 * @s: the sink
 */
void env_collect_cpu(const struct env_sink *s)
{
	cpu_put_vendor(s);
	cpu_put_signature(s);
	cpu_put_brand(s);
	cpu_put_microcode(s);
	cpu_put_flags(s);
}
