// SPDX-License-Identifier: MIT
/*
 * vm-check.c - what a VM needs before QEMU is started, so that a missing
 * piece is a clear error (or a skip) rather than QEMU's exit: the QEMU
 * binary, a kernel that is a bzImage (the "HdrS" magic of the x86 boot
 * protocol at 0x202), a readable initrd and data disk.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "guest-local.h"
#include "vm.h"

int vm_find_qemu(const char *qemu, char *path, size_t len)
{
	return guest_which(qemu ? qemu : QEMU_DEFAULT_BINARY, path, len) ? -ENOENT : 0;
}

static int is_bzimage(const char *path)
{
	char magic[4];
	int fd = open(path, O_RDONLY | O_CLOEXEC), ok;

	if (fd < 0)
		return -errno;
	ok = pread(fd, magic, 4, 0x202) == 4 && !memcmp(magic, "HdrS", 4);
	close(fd);
	return ok ? 0 : -ENOEXEC;
}

static int readable(const char *what, const char *path, char *err, size_t errlen)
{
	if (!access(path, R_OK))
		return 0;
	snprintf(err, errlen, "%s %s: %s", what, path, strerror(errno));
	return -ENOENT;
}

int vm_check(const struct vm_config *c, char *err, size_t errlen)
{
	char path[4096];
	int ret;

	if (vm_find_qemu(c->qemu, path, sizeof(path))) {
		snprintf(err, errlen, "QEMU: %s not found", c->qemu ? c->qemu : QEMU_DEFAULT_BINARY);
		return -ENOENT;
	}
	if (!c->kernel || !c->initrd)
		return 0;                   /* qemu_argv_build() names what is missing */
	ret = readable("kernel", c->kernel, err, errlen);
	if (!ret)
		ret = readable("initrd", c->initrd, err, errlen);
	if (!ret && c->data_disk)
		ret = readable("data disk", c->data_disk, err, errlen);
	if (!ret && is_bzimage(c->kernel)) {
		snprintf(err, errlen, "kernel %s is not a bzImage (no \"HdrS\" at 0x202)", c->kernel);
		return -ENOEXEC;
	}
	return ret;
}
