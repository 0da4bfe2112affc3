// SPDX-License-Identifier: MIT
/*
 * guest-initramfs.c - the guest's initramfs, an uncompressed newc cpio:
 * /init, /bin/busybox with the applets /init uses as symlinks, the
 * virtio modules in /lib/modules, /bin/cvmfn and (when built) the agent
 * and cvmload (the system suite's load generator), all stripped
 * (guest-strip.c).
 * Uncompressed because the kernel then only copies it (no gunzip under
 * TCG), and the model files are not in it but on the data disk.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "guest-local.h"

static const char *const applets[] = {
	"sh", "mount", "umount", "mkdir", "insmod", "cat", "echo", "printf", "usleep",
	"sleep", "sha256sum", "poweroff", "uname", "ls", "dmesg", "lsmod", "free", "ps",
};

static int add_dirs(struct cpio *c)
{
	static const char *const dirs[] = { "bin", "dev", "proc", "sys", "data", "tmp",
					    "lib", "lib/modules" };
	size_t i;
	int ret = 0;

	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]) && !ret; i++)
		ret = cpio_dir(c, dirs[i]);
	return ret;
}

static int add_programs(struct cpio *c, const struct guest_inputs *in)
{
	char name[64];
	size_t i;
	int ret = cpio_file(c, "bin/busybox", in->busybox, 0755);

	for (i = 0; i < sizeof(applets) / sizeof(applets[0]) && !ret; i++) {
		snprintf(name, sizeof(name), "bin/%s", applets[i]);
		ret = cpio_symlink(c, name, "busybox");
	}
	if (!ret)
		ret = cpio_file(c, "bin/cvmfn", in->cvmfn_ship, 0755);
	if (!ret && in->agent[0])
		ret = cpio_file(c, "bin/cvmbench-agent", in->agent_ship, 0755);
	if (!ret && in->cvmload[0])
		ret = cpio_file(c, "bin/cvmload", in->cvmload_ship, 0755);
	return ret;
}

static int add_modules(struct cpio *c, const struct guest_inputs *in)
{
	char name[128];
	size_t i;
	int ret = 0;

	for (i = 0; i < guest_nmodules && !ret; i++) {
		snprintf(name, sizeof(name), "lib/modules/%s.ko", guest_modules[i]);
		ret = cpio_file(c, name, in->mod[i], 0644);
	}
	return ret;
}

int guest_initramfs_write(const struct guest_inputs *in, const char *path)
{
	struct cpio *c = cpio_open(path);
	int ret;

	if (!c)
		return -errno;
	ret = add_dirs(c);
	if (!ret)
		ret = cpio_data(c, "init", in->init, strlen(in->init), 0755);
	if (!ret)
		ret = add_programs(c, in);
	if (!ret)
		ret = add_modules(c, in);
	if (cpio_close(c) && !ret)
		ret = -EIO;
	return ret;
}
