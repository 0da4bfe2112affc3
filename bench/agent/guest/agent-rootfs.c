// SPDX-License-Identifier: MIT
/*
 * agent-rootfs.c - with cvmbench.rootfs=LABEL on the kernel command line,
 * the guest leaves its initramfs for a Debian root filesystem: the virtio
 * disk whose ext4 label is AGENT_GUEST_ROOTFS_LABEL (read from the
 * superblock, no blkid) is mounted read-only, a tmpfs holds the writable
 * layer, overlayfs joins them; cvmfn, the agent and (when in the image)
 * cvmload are copied from the initramfs into the writable layer, /dev, /proc, /sys and /data move
 * across, and the root is switched (MS_MOVE + chroot, as switch_root
 * does). The caller then execs the agent from the new root. A writable
 * scratch disk (label AGENT_GUEST_SCRATCH_LABEL) is mounted on /scratch.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "agent-guest-local.h"
#include "agent-guest.h"
#include "file-copy.h"

#define LOWER "/rootfs.ro"
#define RW "/rootfs.rw"
#define NEWROOT "/newroot"

int agent_disk_labelled(const char *dev, const char *want)
{
	char label[17] = "";
	int fd = open(dev, O_RDONLY | O_CLOEXEC);

	/* ext4: the superblock at 1024, s_volume_name at 120 within it */
	if (fd < 0)
		return 0;
	if (pread(fd, label, 16, 1024 + 120) != 16)
		label[0] = '\0';
	close(fd);
	return !strcmp(label, want);
}

static int find_disk(const char *label, char *dev, size_t len)
{
	char c;

	for (c = 'a'; c <= 'z'; c++) {
		snprintf(dev, len, "/dev/vd%c", c);
		if (!access(dev, F_OK) && agent_disk_labelled(dev, label))
			return 0;
	}
	return -ENODEV;
}

int agent_scratch_mount(char *why, size_t len)
{
	char dev[32];

	if (find_disk(AGENT_GUEST_SCRATCH_LABEL, dev, sizeof(dev)))
		return 0;
	mkdir(AGENT_GUEST_SCRATCH, 01777);
	if (mount(dev, AGENT_GUEST_SCRATCH, "ext4", MS_NOSUID | MS_NODEV, NULL)) {
		snprintf(why, len, "mounting the scratch disk %s on %s: %s", dev,
			 AGENT_GUEST_SCRATCH, strerror(errno));
		return -errno;
	}
	chmod(AGENT_GUEST_SCRATCH, 01777);
	return 1;
}

static int overlay(const char *dev, char *why, size_t len)
{
	mkdir(LOWER, 0755);
	mkdir(RW, 0755);
	mkdir(NEWROOT, 0755);
	if (mount(dev, LOWER, "ext4", MS_RDONLY, NULL) ||
	    mount("tmpfs", RW, "tmpfs", 0, "mode=0755")) {
		snprintf(why, len, "mounting %s: %s", dev, strerror(errno));
		return -errno;
	}
	mkdir(RW "/upper", 0755);
	mkdir(RW "/work", 0755);
	if (mount("overlay", NEWROOT, "overlay", 0, "lowerdir=" LOWER ",upperdir=" RW
		  "/upper,workdir=" RW "/work")) {
		snprintf(why, len, "overlayfs over %s: %s", dev, strerror(errno));
		return -errno;
	}
	return 0;
}

/* Move @path (a mount) to the same place below NEWROOT, if it is mounted. */
static int move(const char *path)
{
	char to[64];

	snprintf(to, sizeof(to), NEWROOT "%s", path);
	mkdir(to, 0755);
	return mount(path, to, NULL, MS_MOVE, NULL) && errno != EINVAL ? -errno : 0;
}

static int switch_root(char *why, size_t len)
{
	static const char *const mounts[] = { "/dev", "/proc", "/sys", "/data" };
	size_t i;
	int ret;

	ret = file_copy(AGENT_GUEST_CVMFN, NEWROOT AGENT_GUEST_CVMFN, 0755) ?:
	      file_copy(AGENT_GUEST_SELF, NEWROOT AGENT_GUEST_SELF, 0755);
	if (!ret && !access(AGENT_GUEST_CVMLOAD, X_OK))
		ret = file_copy(AGENT_GUEST_CVMLOAD, NEWROOT AGENT_GUEST_CVMLOAD, 0755);
	if (ret) {
		snprintf(why, len, "copying cvmfn, the agent and cvmload: %s", strerror(-ret));
		return ret;
	}
	for (i = 0; i < sizeof(mounts) / sizeof(mounts[0]); i++)
		if (move(mounts[i])) {
			snprintf(why, len, "moving %s: %s", mounts[i], strerror(errno));
			return -errno;
		}
	if (chdir(NEWROOT) || mount(".", "/", NULL, MS_MOVE, NULL) || chroot(".") || chdir("/")) {
		snprintf(why, len, "switching the root: %s", strerror(errno));
		return -errno;
	}
	return 0;
}

int agent_rootfs_switch(char *why, size_t len)
{
	char want[64], dev[32];
	int ret;

	if (agent_cmdline_value("cvmbench.rootfs", want, sizeof(want)))
		return 0;
	if (strcmp(want, AGENT_GUEST_ROOTFS_LABEL) ||
	    find_disk(AGENT_GUEST_ROOTFS_LABEL, dev, sizeof(dev))) {
		snprintf(why, len, "no virtio disk labelled %s", want);
		return -ENODEV;
	}
	ret = overlay(dev, why, len);
	return ret ? ret : switch_root(why, len) ?: 1;
}
