// SPDX-License-Identifier: MIT
/*
 * cvm-host.c - whether this host can launch SEV-SNP and TDX guests
 * (bench/env/cvm-host.c) against fake machine trees (CVMBENCH_SYSROOT:
 * dev-kvm, kvm-vm-types, /sys/module/kvm_{amd,intel}/parameters) and fake
 * QEMU scripts that print an -object help listing (QEMU 7.2 lists only
 * sev-guest): a host with every piece says yes, and each piece taken away
 * is named in the reason; the two captured machines say why not; the qemu
 * backend's supported() gives the same answer for a cell, through its
 * qemu and firmware keys; `cvmbench env`'s cvm.host.* facts say the same
 * (with a fake qemu-system-x86_64 first in PATH); on a machine whose
 * /dev/kvm opens, the real KVM_CAP_VM_TYPES mask agrees with env-kvm.c's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "config-test.h"
#include "cvm-host.h"
#include "env.h"
#include "tap.h"

static char root[256], why[4096];

static void put(const char *rel, const char *text, int mode)
{
	char path[512], dir[512], *p;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	snprintf(dir, sizeof(dir), "%s", path);
	for (p = dir + strlen(root) + 1; (p = strchr(p, '/')); p++) {
		*p = '\0';
		mkdir(dir, 0755);
		*p = '/';
	}
	f = fopen(path, "w");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
	chmod(path, (mode_t)mode);
}

/* A fake QEMU at @rel whose -object help lists @objects (one per line). */
static void fake_qemu(const char *rel, const char *objects)
{
	char text[1024];

	snprintf(text, sizeof(text), "#!/bin/sh\n[ \"$1 $2\" = \"-object help\" ] || exit 1\n"
		 "printf 'List of user creatable objects:\\n%s'\n", objects);
	put(rel, text, 0755);
}

/* A fake QEMU at @rel that also answers -version with @version. */
static void fake_qemu_version(const char *rel, const char *version, const char *objects)
{
	char text[1024];

	snprintf(text, sizeof(text), "#!/bin/sh\n[ \"$1\" = -version ] && "
		 "{ echo 'QEMU emulator version %s'; exit 0; }\n"
		 "[ \"$1 $2\" = \"-object help\" ] || exit 1\n"
		 "printf 'List of user creatable objects:\\n%s'\n", version, objects);
	put(rel, text, 0755);
}

static void snp_host(void)
{
	put("dev-kvm", "present\n", 0644);
	put("kvm-vm-types", "0x13\n", 0644);      /* default, sw-protected, SNP */
	put("sys/module/kvm_amd/parameters/sev_snp", "Y\n", 0644);
	put("fw/OVMF.fd", "firmware", 0644);
}

static int check(const char *type, const char *qemu, const char *fw)
{
	char path[512], fwp[512];

	snprintf(path, sizeof(path), "%s/%s", root, qemu);
	snprintf(fwp, sizeof(fwp), "%s/%s", root, fw);
	why[0] = '\0';
	return cvm_host_check(type, path, fwp, why, sizeof(why));
}

/* A QEMU too old for the type: the reason names its version and the one needed. */
static void test_qemu_too_old(void)
{
	snp_host();
	fake_qemu_version("v100", "10.0.2 (Debian 1:10.0.2+ds-2+deb13u1~bpo12+1)",
			  "  sev-guest\\n  sev-snp-guest\\n");
	fake_qemu_version("v72", "7.2.19 (Debian 1:7.2+dfsg-7+deb12u18+b3)", "  sev-guest\\n");
	tap_ok(check("sev-snp", "v100", "fw/OVMF.fd") == 1,
	       "QEMU 10.0 with sev-snp-guest: sev-snp can run (%s)", why);
	tap_ok(!check("tdx", "v100", "fw/OVMF.fd") &&
	       strstr(why, "QEMU 10.0 (") && strstr(why, "has no tdx-guest (needs >= 10.1)"),
	       "QEMU 10.0 for tdx: the reason names 10.0 and 10.1 (%s)", why);
	tap_ok(!check("sev-snp", "v72", "fw/OVMF.fd") && strstr(why, "QEMU 7.2 (") &&
	       strstr(why, "has no sev-snp-guest (needs >= 9.1)") && !strchr(why, ';'),
	       "QEMU 7.2 for sev-snp: the reason names 7.2 and 9.1 (%s)", why);
}

static void test_snp_pieces(void)
{
	snp_host();
	fake_qemu("q10", "  authz-list\\n  sev-guest\\n  sev-snp-guest\\n  tdx-guest\\n");
	fake_qemu("q72", "  authz-list\\n  sev-guest\\n  throttle-group\\n");
	tap_ok(check("sev-snp", "q10", "fw/OVMF.fd") == 1 && !why[0],
	       "SNP host, QEMU with sev-snp-guest, firmware: sev-snp can run");
	tap_ok(!check("sev-snp", "q72", "fw/OVMF.fd") &&
	       strstr(why, "does not list sev-snp-guest") && !strchr(why, ';'),
	       "QEMU 7.2's listing (sev-guest only): the reason is the object alone (%s)", why);
	tap_ok(!check("sev-snp", "q10", "fw/none.fd") && strstr(why, "firmware") &&
	       strstr(why, "none.fd"), "a missing firmware is named (%s)", why);
	put("sys/module/kvm_amd/parameters/sev_snp", "N\n", 0644);
	tap_ok(!check("sev-snp", "q10", "fw/OVMF.fd") && strstr(why, "sev_snp = N"),
	       "kvm_amd sev_snp = N is named (%s)", why);
	put("sys/module/kvm_amd/parameters/sev_snp", "Y\n", 0644);
	put("kvm-vm-types", "0x1\n", 0644);
	tap_ok(!check("sev-snp", "q10", "fw/OVMF.fd") && strstr(why, "KVM_X86_SNP_VM"),
	       "KVM_CAP_VM_TYPES without the SNP bit is named (%s)", why);
	put("dev-kvm", "absent\n", 0644);
	tap_ok(!check("sev-snp", "q10", "fw/OVMF.fd") && strstr(why, "/dev/kvm"),
	       "no /dev/kvm is named (%s)", why);
	snp_host();
	tap_ok(!check("tdx", "q10", "fw/OVMF.fd") && strstr(why, "KVM_X86_TDX_VM") &&
	       strstr(why, "kvm_intel/parameters/tdx") && !strstr(why, "tdx-guest"),
	       "the SNP host cannot run tdx: VM type and kvm_intel named (%s)", why);
	tap_ok(!check("sev-snp", "nope", "fw/OVMF.fd") && strstr(why, "not found"),
	       "no QEMU binary is named (%s)", why);
}

static void test_tdx_host(void)
{
	put("kvm-vm-types", "0x21\n", 0644);       /* default, TDX */
	put("sys/module/kvm_intel/parameters/tdx", "Y\n", 0644);
	tap_ok(check("tdx", "q10", "fw/OVMF.fd") == 1, "TDX host: tdx can run (%s)", why);
	tap_ok(!check("tdx", "q72", "fw/OVMF.fd") && strstr(why, "tdx-guest"),
	       "TDX host with QEMU 7.2: tdx-guest named (%s)", why);
}

static void test_captured(void)
{
	char path[512];

	snprintf(path, sizeof(path), "%s/q10", root);
	setenv("CVMBENCH_SYSROOT", "tests/fixtures/machines/A-kvm-haltpoll/root", 1);
	tap_ok(!cvm_host_check("sev-snp", path, NULL, why, sizeof(why)) &&
	       strstr(why, "not captured") && strstr(why, "kvm_amd"),
	       "machine A: /dev/kvm present, VM types not captured, no kvm_amd (%s)", why);
	setenv("CVMBENCH_SYSROOT", "tests/fixtures/machines/B-pvm-no-cpuidle/root", 1);
	tap_ok(!cvm_host_check("tdx", path, NULL, why, sizeof(why)) &&
	       strstr(why, "/dev/kvm: absent"), "machine B: no /dev/kvm (%s)", why);
	setenv("CVMBENCH_SYSROOT", root, 1);
}

/* The backend's supported() of a cell of @text agrees with the host check. */
static int cell_supported(const char *text, char *out, size_t len)
{
	const struct backend_ops *be = backend_find("qemu");
	struct cell *cells;
	size_t n;
	char err[2048];
	int ok;

	if (load_expand(text, &cells, &n, err, sizeof(err)) || n != 1 || !be) {
		snprintf(out, len, "config: %s", err);
		return -1;
	}
	out[0] = '\0';
	ok = be->supported(&cells[0], out, len);
	config_cells_free(cells, n);
	return ok;
}

static void test_backend(void)
{
	char text[2048], out[4096];

	snp_host();
	snprintf(text, sizeof(text), "[experiment c]\nworkload = null\nbackend = qemu\n"
		 "confidential = sev-snp\nmemory = 64\nqemu = %s/q10\nfirmware = %s/fw/OVMF.fd\n",
		 root, root);
	tap_ok(cell_supported(text, out, sizeof(out)) == 1,
	       "supported(): a sev-snp cell on the SNP host runs (%s)", out);
	snprintf(text, sizeof(text), "[experiment c]\nworkload = null\nbackend = qemu\n"
		 "confidential = tdx\nmemory = 64\nqemu = %s/q72\nfirmware = %s/fw/OVMF.fd\n",
		 root, root);
	tap_ok(cell_supported(text, out, sizeof(out)) == 0 && strstr(out, "confidential = tdx") &&
	       strstr(out, "tdx-guest"), "supported(): a tdx cell is a skip naming the pieces "
	       "(%s)", out);
	snprintf(text, sizeof(text), "[experiment c]\nworkload = null\nbackend = qemu\n"
		 "confidential = sev-snp\naccel = tcg\nqemu = %s/q10\nfirmware = %s/fw/OVMF.fd\n",
		 root, root);
	tap_ok(cell_supported(text, out, sizeof(out)) == 0 && strstr(out, "accel = kvm"),
	       "supported(): sev-snp under tcg is a skip naming accel (%s)", out);
	snprintf(text, sizeof(text), "[experiment c]\nworkload = null\nbackend = qemu\n"
		 "qemu = /nonexistent/qemu-9\n");
	tap_ok(cell_supported(text, out, sizeof(out)) == 0 &&
	       strstr(out, "qemu = /nonexistent/qemu-9"), "supported(): a missing qemu binary "
	       "is named (%s)", out);
	snprintf(text, sizeof(text), "[experiment c]\nworkload = null\nbackend = qemu\n"
		 "qemu = %s/q10\nfirmware = /nonexistent/OVMF.fd\nmemory = 64\n", root);
	tap_ok(cell_supported(text, out, sizeof(out)) == 0 &&
	       strstr(out, "firmware = /nonexistent/OVMF.fd"),
	       "supported(): a regular cell's missing firmware is named (%s)", out);
}

static char fact_snp[2048], fact_tdx[2048], fact_types[256];

static void collect(void *ctx, const char *key, const char *value, const char *source)
{
	(void)ctx;
	(void)source;
	if (!strcmp(key, "kvm.vm_types"))
		snprintf(fact_types, sizeof(fact_types), "%s", value);
	else if (!strcmp(key, "cvm.host.sev_snp"))
		snprintf(fact_snp, sizeof(fact_snp), "%s", value);
	else if (!strcmp(key, "cvm.host.tdx"))
		snprintf(fact_tdx, sizeof(fact_tdx), "%s", value);
}

static void test_env(void)
{
	char path[4096], *old = getenv("PATH") ? strdup(getenv("PATH")) : NULL;

	snp_host();
	put("sys/module/kvm_intel/parameters/tdx", "N\n", 0644);
	fake_qemu("bin/qemu-system-x86_64", "  sev-guest\n  sev-snp-guest\n");
	snprintf(path, sizeof(path), "%s/bin:%s", root, old ? old : "/usr/bin:/bin");
	setenv("PATH", path, 1);
	env_collect(collect, NULL);
	if (old)
		setenv("PATH", old, 1);
	free(old);
	tap_ok(!strncmp(fact_snp, "yes", 3), "env: cvm.host.sev_snp = %s", fact_snp);
	tap_ok(!strncmp(fact_tdx, "no: ", 4) && strstr(fact_tdx, "KVM_X86_TDX_VM") &&
	       strstr(fact_tdx, "tdx = N") && strstr(fact_tdx, "tdx-guest"),
	       "env: cvm.host.tdx = %s", fact_tdx);
}

/* This machine's KVM_CAP_VM_TYPES as cvm-host.c reads it and as env-kvm.c does. */
static void test_real_vm_types(void)
{
	char w[256], want[64];
	unsigned int mask = 0;
	int ret;

	unsetenv("CVMBENCH_SYSROOT");
	if (!cvm_host_kvm_opens(w, sizeof(w))) {
		printf("ok %d # SKIP %s\n", ++tap_count, w);
		setenv("CVMBENCH_SYSROOT", root, 1);
		return;
	}
	fact_types[0] = '\0';
	env_collect(collect, NULL);
	ret = cvm_host_vm_types(&mask, w, sizeof(w));
	setenv("CVMBENCH_SYSROOT", root, 1);
	if (ret) {
		tap_ok(0, "KVM_CAP_VM_TYPES readable here: %s", w);
		return;
	}
	snprintf(want, sizeof(want), "(mask 0x%x)", mask);
	tap_ok(mask ? strstr(fact_types, want) != NULL : strstr(fact_types, "not supported") != NULL,
	       "this machine's VM types 0x%x agree with env's kvm.vm_types (%s)", mask, fact_types);
}

int main(void)
{
	char cmd[600];

	snprintf(root, sizeof(root), "%s/cvm-host-XXXXXX", getenv("TMPDIR") ? getenv("TMPDIR") :
		 "/tmp");
	if (!mkdtemp(root)) {
		printf("1..0 # SKIP mkdtemp: %s\n", strerror(errno));
		return 0;
	}
	setenv("CVMBENCH_SYSROOT", root, 1);
	tap_plan(8 + 3 + 2 + 2 + 5 + 2 + 1);
	test_snp_pieces();
	test_qemu_too_old();
	test_tdx_host();
	test_captured();
	test_backend();
	test_env();
	test_real_vm_types();
	snprintf(cmd, sizeof(cmd), "rm -rf -- '%s'", root);
	if (system(cmd))
		printf("# could not remove %s\n", root);
	return tap_done();
}
