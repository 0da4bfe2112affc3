// SPDX-License-Identifier: MIT
/*
 * env-cvm-checks.c - the pieces of evidence of a confidential VM, one
 * function each (see env-cvm.c for the list and how they are combined):
 * CPUID leaves 0x21 and 0x8000001f, /proc/cpuinfo flags, the SEV status MSR
 * 0xC0010131 through /dev/cpu/0/msr, the kernel log line "Memory Encryption
 * Features active", the attestation devices /dev/sev-guest and
 * /dev/tdx_guest (and /sys/class/misc), and the ACPI CCEL table.
 * Under a test root (sysroot.h) the files are read below it, and what a
 * file tree cannot hold comes from captured files at its top (one line
 * each, absent when the machine has none): cpuid-0x21 (the leaf's
 * signature), cpuid-0x8000001f (its EAX, hex) and msr-0xc0010131 (the
 * MSR's value, hex); the vendor and the hypervisor bit come from the
 * captured /proc/cpuinfo (tests/fixtures/cvm/README.md).
 */
#include <cpuid.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "env-cvm.h"
#include "env-kmsg.h"
#include "env-local.h"
#include "sysroot.h"

#define CPUID_TDX_LEAF		0x21u
#define CPUID_AMD_MEMENC	0x8000001fu
#define MSR_AMD64_SEV		0xc0010131u
#define MSR_DEV			"/dev/cpu/0/msr"
#define KMSG_NEEDLE		"Memory Encryption Features active"

#define SAY(ev, ...) snprintf((ev)->said, sizeof((ev)->said), __VA_ARGS__)
#define SRC(ev, ...) snprintf((ev)->source, sizeof((ev)->source), __VA_ARGS__)

/* A captured hex number (cpuid-0x8000001f, msr-0xc0010131); -1 if none. */
static int cvm_captured_hex(const char *rel, unsigned long long *v)
{
	char buf[64], *end;

	if (env_first_line(rel, buf, sizeof(buf)))
		return -1;
	*v = strtoull(buf, &end, 16);
	return end == buf ? -1 : 0;
}

/* Leaf 0x21's signature: CPUID, or a test root's cpuid-0x21; -1 if absent. */
static int cvm_sig_0x21(char sig[13], unsigned int *max)
{
	char buf[64];

	if (!sysroot()) {
		*max = env_cpuid_max(0);
		if (*max < CPUID_TDX_LEAF)
			return -1;
		env_cpuid_string(CPUID_TDX_LEAF, 1, sig);
		return 0;
	}
	*max = 0;
	if (env_first_line("/cpuid-0x21", buf, sizeof(buf)))
		return -1;
	snprintf(sig, 13, "%.12s", buf);
	return 0;
}

/**
 * cvm_check_cpuid_0x21() - a TD answers CPUID leaf 0x21 with "IntelTDX    ".
 * @ev: filled with the finding
 */
void cvm_check_cpuid_0x21(struct cvm_ev *ev)
{
	unsigned int max;
	char sig[13];

	ev->name = "cpuid_0x21";
	SRC(ev, "cpuid leaf 0x21 ebx:edx:ecx");
	if (cvm_sig_0x21(sig, &max)) {
		if (sysroot())
			SAY(ev, "not a TD: no cpuid-0x21 in the test root (leaf absent)");
		else
			SAY(ev, "not a TD: highest basic leaf is 0x%x, below 0x21", max);
		return;
	}
	if (!strcmp(sig, "IntelTDX    ")) {
		SAY(ev, "\"IntelTDX    \": a TD guest");
		ev->level = CVM_TDX;
	} else {
		SAY(ev, "not a TD: signature \"%s\"", sig);
	}
}

/**
 * cvm_check_cpuid_0x8000001f() - the AMD memory-encryption capabilities the
 * CPU (or the hypervisor) advertises. Informative: a capability does not
 * make this a CVM.
 * @ev: filled with the finding
 */
void cvm_check_cpuid_0x8000001f(struct cvm_ev *ev)
{
	unsigned int a = 0, b, c, d;
	unsigned long long v = 0;

	ev->name = "cpuid_0x8000001f";
	SRC(ev, "cpuid leaf 0x8000001f eax (bit 1 SEV, 3 SEV-ES, 4 SEV-SNP)");
	if (sysroot() ? cvm_captured_hex("/cpuid-0x8000001f", &v) :
	    env_cpuid_max(0x80000000) < CPUID_AMD_MEMENC) {
		SAY(ev, "leaf absent: no AMD memory encryption advertised");
		return;
	}
	if (sysroot()) {
		a = (unsigned int)v;
	} else {
		__cpuid(CPUID_AMD_MEMENC, a, b, c, d);
		(void)b, (void)c, (void)d;
	}
	if (!(a & 0x1a)) {
		SAY(ev, "eax=0x%x: no SEV capability advertised", a);
		return;
	}
	SAY(ev, "eax=0x%x: advertises%s%s%s (capability only, not counted)", a,
	    a & 0x2 ? " SEV" : "", a & 0x8 ? " SEV-ES" : "",
	    a & 0x10 ? " SEV-SNP" : "");
}

/**
 * cvm_check_cpuinfo() - the flags the guest kernel sets when it runs as a
 * TD or SEV guest. Counted only with the hypervisor bit.
 * @ev: filled with the finding
 */
void cvm_check_cpuinfo(struct cvm_ev *ev)
{
	static const char *const flags[] = { "sev", "sev_es", "sev_snp", "tdx_guest" };
	static const enum cvm_level levels[] = { CVM_SEV, CVM_SEV_ES, CVM_SEV_SNP, CVM_TDX };
	char found[64] = "";
	enum cvm_level best = CVM_NONE;
	size_t i;
	int r = 0;

	ev->name = "cpuinfo_flags";
	SRC(ev, "/proc/cpuinfo flags (first cpu)");
	for (i = 0; i < 4 && r >= 0; i++) {
		r = env_cpuinfo_has_flag(flags[i]);
		if (r <= 0)
			continue;
		strcat(found, found[0] ? " " : "");
		strcat(found, flags[i]);
		best = levels[i];
	}
	if (r < 0) {
		SAY(ev, "unreadable: %s", strerror(-r));
	} else if (!found[0]) {
		SAY(ev, "none of sev, sev_es, sev_snp, tdx_guest");
	} else if (!env_in_vm()) {
		SAY(ev, "%s (not counted: no hypervisor bit, host capabilities)",
		    found);
	} else {
		ev->level = best;
		SAY(ev, "%s", found);
	}
}

static void msr_say_unreadable(struct cvm_ev *ev, int err)
{
	if (err == ENOENT && sysroot_access("/sys/module/msr", F_OK))
		SAY(ev, "unreadable: " MSR_DEV " absent (msr driver not loaded;"
		    " modprobe msr)");
	else if (err == ENOENT)
		SAY(ev, "unreadable: " MSR_DEV " absent although the msr driver"
		    " is loaded");
	else if (err == EACCES || err == EPERM)
		SAY(ev, "unreadable: %s (needs root and CAP_SYS_RAWIO)",
		    strerror(err));
	else if (err == EIO)
		SAY(ev, "read failed: EIO (MSR not implemented here: not an SEV"
		    " guest)");
	else
		SAY(ev, "unreadable: %s", strerror(err));
}

/* The MSR through the msr driver, or a test root's msr-0xc0010131: 0 or errno. */
static int msr_read(uint64_t *v)
{
	unsigned long long cap;
	int fd, err = 0;

	if (sysroot()) {
		if (cvm_captured_hex("/msr-0xc0010131", &cap))
			return ENOENT;
		*v = cap;
		return 0;
	}
	fd = open(MSR_DEV, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno;
	errno = 0;
	if (pread(fd, v, sizeof(*v), MSR_AMD64_SEV) != (ssize_t)sizeof(*v))
		err = errno ? errno : EIO;
	close(fd);
	return err;
}

/* The CPU vendor: CPUID leaf 0, or a test root's cpuinfo vendor_id. */
static void msr_vendor(char vendor[13])
{
	char buf[64];

	if (!sysroot()) {
		env_cpuid_string(0, 1, vendor);
		return;
	}
	if (env_cpuinfo_field("vendor_id", buf, sizeof(buf)) < 0)
		snprintf(buf, sizeof(buf), "?");
	snprintf(vendor, 13, "%.12s", buf);
}

/**
 * cvm_check_msr() - the SEV status MSR 0xC0010131 of an AMD guest.
 * @ev: filled with the finding
 */
void cvm_check_msr(struct cvm_ev *ev)
{
	char vendor[13];
	uint64_t v;
	int err;

	ev->name = "sev_status_msr";
	SRC(ev, MSR_DEV " offset 0xc0010131 (bit 0 SEV, 1 SEV-ES, 2 SEV-SNP)");
	msr_vendor(vendor);
	if (strcmp(vendor, "AuthenticAMD") && strcmp(vendor, "HygonGenuine")) {
		SAY(ev, "not checked: %s CPUs have no SEV status MSR", vendor);
		return;
	}
	err = msr_read(&v);
	if (err) {
		msr_say_unreadable(ev, err);
		return;
	}
	ev->level = v & 4 ? CVM_SEV_SNP : v & 2 ? CVM_SEV_ES : v & 1 ? CVM_SEV : CVM_NONE;
	SAY(ev, "0x%llx: SEV %s, SEV-ES %s, SEV-SNP %s", (unsigned long long)v,
	    v & 1 ? "on" : "off", v & 2 ? "on" : "off", v & 4 ? "on" : "off");
}

/**
 * cvm_check_kmsg() - the line a CVM guest kernel logs at boot,
 * "Memory Encryption Features active: AMD SEV SEV-ES SEV-SNP" or "...: Intel TDX".
 * @ev: filled with the finding
 */
void cvm_check_kmsg(struct cvm_ev *ev)
{
	char line[256], how[128];
	int r = env_kmsg_find(KMSG_NEEDLE, line, sizeof(line), how, sizeof(how));
	const char *colon;

	ev->name = "kernel_log";
	SRC(ev, "kernel log via %s", how);
	if (r == -EPERM || r == -EACCES) {
		SAY(ev, "unreadable: %s (needs CAP_SYSLOG while"
		    " kernel.dmesg_restrict is 1)", strerror(-r));
		return;
	}
	if (r < 0) {
		SAY(ev, "unreadable: %s", strerror(-r));
		return;
	}
	if (!r) {
		SAY(ev, "no \"" KMSG_NEEDLE "\" line (not a CVM, or the line"
		    " left the ring buffer)");
		return;
	}
	colon = strstr(line, KMSG_NEEDLE);
	colon = strchr(colon, ':');
	ev->level = cvm_level_of_text(colon ? colon : "");
	SAY(ev, "%s", line);
}

/**
 * cvm_check_devices() - the attestation drivers of SEV-SNP (sev-guest) and
 * TDX (tdx_guest) guests, as /sys/class/misc entries and device nodes.
 * The driver makes the sysfs entry when it registers the device (which it
 * does only in such a guest); a /dev node alone is a file anyone can make
 * (a static /dev, mknod, a bind mount), so it is reported but not counted.
 * @ev: filled with the finding
 */
void cvm_check_devices(struct cvm_ev *ev)
{
	static const struct {
		const char *sys, *dev;
		enum cvm_level level;
	} devs[] = {
		{ "/sys/class/misc/sev-guest", "/dev/sev-guest", CVM_SEV_SNP },
		{ "/sys/class/misc/tdx_guest", "/dev/tdx_guest", CVM_TDX },
	};
	size_t i, n = 0;

	ev->name = "guest_devices";
	SRC(ev, "/sys/class/misc/{sev-guest,tdx_guest}, /dev/sev-guest, /dev/tdx_guest");
	for (i = 0; i < sizeof(devs) / sizeof(devs[0]); i++) {
		int sys = !sysroot_access(devs[i].sys, F_OK);
		int dev = !sysroot_access(devs[i].dev, F_OK);

		n += snprintf(ev->said + n, sizeof(ev->said) - n, "%s%s %s, %s %s%s",
			      i ? ", " : "", devs[i].sys, sys ? "present" : "absent",
			      devs[i].dev, dev ? "present" : "absent",
			      dev && !sys ? " (not counted: no driver entry in sysfs)" : "");
		if (sys && devs[i].level > ev->level)
			ev->level = devs[i].level;
		if (n >= sizeof(ev->said))
			n = sizeof(ev->said) - 1;
	}
}

/**
 * cvm_check_ccel() - the ACPI confidential-computing event log table that
 * CVM firmware (TDVF) installs. Informative only.
 * @ev: filled with the finding
 */
void cvm_check_ccel(struct cvm_ev *ev)
{
	static const char path[] = "/sys/firmware/acpi/tables/CCEL";

	ev->name = "acpi_ccel";
	SRC(ev, "%s", path);
	if (!sysroot_access(path, F_OK))
		SAY(ev, "present: firmware of a confidential guest (not counted)");
	else if (sysroot_access("/sys/firmware/acpi/tables", F_OK))
		SAY(ev, "not checked: /sys/firmware/acpi/tables absent");
	else
		SAY(ev, "absent");
}
