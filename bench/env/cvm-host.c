// SPDX-License-Identifier: MIT
/*
 * cvm-host.c - whether this machine can launch SEV-SNP and TDX guests,
 * and if not which piece is missing (see cvm-host.h and
 * ../shared/CVM.md "Detecting support"): /dev/kvm; the VM type bit in
 * KVM_CHECK_EXTENSION(KVM_CAP_VM_TYPES); /sys/module/kvm_amd/parameters/
 * sev_snp or /sys/module/kvm_intel/parameters/tdx set to Y; the guest
 * object in `qemu-system-x86_64 -object help`; the firmware file.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/kvm.h>
#include <sys/ioctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cvm-host.h"
#include "env-local.h"
#include "sysroot.h"

#define QEMU_HELP_TIMEOUT_S 10

/* The pieces of one confidential type. */
static const struct cvm_need {
	const char *type;
	unsigned int vm_type;
	const char *vm_type_name;
	const char *param;      /* the module parameter that enables it */
	const char *object;     /* QEMU's -object */
	const char *since;      /* the first QEMU release that has it */
} needs[] = {
	{ "sev-snp", CVM_HOST_KVM_X86_SNP_VM, "KVM_X86_SNP_VM",
	  "/sys/module/kvm_amd/parameters/sev_snp", "sev-snp-guest", "9.1" },
	{ "tdx", CVM_HOST_KVM_X86_TDX_VM, "KVM_X86_TDX_VM",
	  "/sys/module/kvm_intel/parameters/tdx", "tdx-guest", "10.1" },
};

/* A small file of the test root, first line, no newline. */
static int root_line(const char *name, char *buf, size_t len)
{
	FILE *f = sysroot_fopen(name, "re");

	buf[0] = '\0';
	if (!f)
		return -errno;
	if (!fgets(buf, (int)len, f))
		buf[0] = '\0';
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

int cvm_host_kvm_opens(char *why, size_t len)
{
	char line[64];
	int fd;

	if (sysroot()) {
		if (!root_line("/dev-kvm", line, sizeof(line)) && !strcmp(line, "present"))
			return 1;
		snprintf(why, len, "/dev/kvm: absent (test root)");
		return 0;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "/dev/kvm: %s", strerror(errno));
		return 0;
	}
	close(fd);
	return 1;
}

int cvm_host_vm_types(unsigned int *mask, char *why, size_t len)
{
	char line[64], *end;
	int fd, r;

	if (sysroot()) {
		if (root_line("/kvm-vm-types", line, sizeof(line)) || !line[0]) {
			snprintf(why, len, "KVM_CAP_VM_TYPES: not captured in the test root");
			return -ENOENT;
		}
		*mask = (unsigned int)strtoul(line, &end, 0);
		return 0;
	}
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		snprintf(why, len, "/dev/kvm: %s", strerror(errno));
		return -errno;
	}
	r = ioctl(fd, KVM_CHECK_EXTENSION, CVM_HOST_KVM_CAP_VM_TYPES);
	close(fd);
	*mask = r > 0 ? (unsigned int)r : 0;
	return 0;
}

/* "Y" or "1" in the module parameter @path: 1; else 0 with why. */
static int param_on(const char *path, char *why, size_t len)
{
	char line[32];
	int r = root_line(path, line, sizeof(line));

	if (r) {
		snprintf(why, len, "%s: %s", path, r == -ENOENT ?
			 "absent (not loaded, or no such parameter)" : strerror(-r));
		return 0;
	}
	if (!strcmp(line, "Y") || !strcmp(line, "1"))
		return 1;
	snprintf(why, len, "%s = %s", path, line);
	return 0;
}

/* @qemu as a path to run: "" and NULL = qemu-system-x86_64 from PATH. */
static int qemu_path(const char *qemu, char *path, size_t len)
{
	if (!qemu || !*qemu)
		qemu = "qemu-system-x86_64";
	if (strchr(qemu, '/')) {
		snprintf(path, len, "%s", qemu);
		return access(path, X_OK) ? -errno : 0;
	}
	return env_which(qemu, path, len);
}

/* `@path -object help` once per binary: 0 with the text, or -errno (@out says why). */
static int qemu_listing(const char *path, const char **out)
{
	static char text[32768], last[4096], fail[4400];
	static int last_ret;
	char *const argv[] = { (char *)path, "-object", "help", NULL };
	int status = 0, r;

	if (!strcmp(last, path))
		return *out = last_ret ? fail : text, last_ret;
	snprintf(last, sizeof(last), "%s", path);
	r = env_run_capture(argv, text, sizeof(text), QEMU_HELP_TIMEOUT_S, &status);
	if (!r && (!WIFEXITED(status) || WEXITSTATUS(status)))
		r = -EIO;
	if (r)
		snprintf(fail, sizeof(fail), "`%s -object help` %s", path, r == -ETIMEDOUT ?
			 "timed out" : r == -EIO ? "failed" : strerror(-r));
	last_ret = r;
	*out = r ? fail : text;
	return r;
}

static int lists_line(const char *text, const char *word)
{
	const char *p = text;
	size_t n = strlen(word);

	while ((p = strstr(p, word))) {
		int start = p == text || p[-1] == ' ' || p[-1] == '\n' || p[-1] == '\t';
		int end = p[n] == '\n' || p[n] == '\0' || p[n] == ' ' || p[n] == '\r';

		if (start && end)
			return 1;
		p += n;
	}
	return 0;
}

/*
 * "X.Y" of `@path -version` ("QEMU emulator version 10.0.2 (Debian ...)"), once
 * per binary (list asks for each CVM cell): 0, or -errno.
 */
static int qemu_version(const char *path, char *ver, size_t len)
{
	static char text[1024], last[4096], last_ver[32];
	static int last_ret;
	char *const argv[] = { (char *)path, "-version", NULL };
	unsigned int major, minor;
	const char *p;
	int status = 0;

	if (strcmp(last, path)) {
		snprintf(last, sizeof(last), "%s", path);
		last_ret = 0;
		if (env_run_capture(argv, text, sizeof(text), QEMU_HELP_TIMEOUT_S, &status) ||
		    !WIFEXITED(status) || WEXITSTATUS(status))
			last_ret = -EIO;
		else if (!(p = strstr(text, "version ")) ||
			 sscanf(p, "version %u.%u", &major, &minor) != 2)
			last_ret = -EINVAL;
		else
			snprintf(last_ver, sizeof(last_ver), "%u.%u", major, minor);
	}
	if (!last_ret)
		snprintf(ver, len, "%s", last_ver);
	return last_ret;
}

/* Why @path lacks @object: the version when QEMU tells it, else the listing. */
static void qemu_lacks(const char *path, const char *object, char *why, size_t len)
{
	char ver[32];
	size_t i;

	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (!strcmp(needs[i].object, object) && !qemu_version(path, ver, sizeof(ver))) {
			snprintf(why, len, "QEMU %s (%s) has no %s (needs >= %s)", ver, path,
				 object, needs[i].since);
			return;
		}
	snprintf(why, len, "%s -object help does not list %s", path, object);
}

int cvm_host_qemu_has(const char *qemu, const char *object, char *why, size_t len)
{
	const char *text;
	char path[4096];

	if (qemu_path(qemu, path, sizeof(path))) {
		snprintf(why, len, "QEMU %s: not found", qemu && *qemu ? qemu : "qemu-system-x86_64");
		return 0;
	}
	if (qemu_listing(path, &text)) {
		snprintf(why, len, "%s", text);
		return 0;
	}
	if (lists_line(text, object))
		return 1;
	qemu_lacks(path, object, why, len);
	return 0;
}

/* Append @piece to @why ("; " between pieces). */
static void add_piece(char *why, size_t len, const char *piece)
{
	size_t n = strlen(why);

	if (n < len)
		snprintf(why + n, len - n, "%s%s", n ? "; " : "", piece);
}

static void check_kvm(const struct cvm_need *nd, char *why, size_t len)
{
	char piece[512];
	unsigned int mask = 0;

	if (!cvm_host_kvm_opens(piece, sizeof(piece))) {
		add_piece(why, len, piece);
		return;
	}
	if (cvm_host_vm_types(&mask, piece, sizeof(piece))) {
		add_piece(why, len, piece);
		return;
	}
	if (mask & (1u << nd->vm_type))
		return;
	snprintf(piece, sizeof(piece), "KVM_CAP_VM_TYPES = 0x%x lacks %s (bit %u)", mask,
		 nd->vm_type_name, nd->vm_type);
	add_piece(why, len, piece);
}

int cvm_host_check(const char *type, const char *qemu, const char *firmware,
		   char *why, size_t len)
{
	const struct cvm_need *nd = NULL;
	char piece[4200];
	size_t i;

	why[0] = '\0';
	for (i = 0; i < sizeof(needs) / sizeof(needs[0]); i++)
		if (!strcmp(type, needs[i].type))
			nd = &needs[i];
	if (!nd) {
		snprintf(why, len, "confidential type %s unknown", type);
		return 0;
	}
	check_kvm(nd, why, len);
	if (!param_on(nd->param, piece, sizeof(piece)))
		add_piece(why, len, piece);
	if (!cvm_host_qemu_has(qemu, nd->object, piece, sizeof(piece)))
		add_piece(why, len, piece);
	if (firmware && !*firmware)
		add_piece(why, len, "firmware: none given (the firmware key)");
	else if (firmware && access(firmware, R_OK)) {
		snprintf(piece, sizeof(piece), "firmware %s: %s", firmware, strerror(errno));
		add_piece(why, len, piece);
	}
	return !why[0];
}
