// SPDX-License-Identifier: MIT
/*
 * rootfs-disk.c - a rootfs as a guest's disk: a raw ext4 image of the
 * tree made once with mkfs.ext4 -d (an argv, no shell), labelled
 * ROOTFS_DISK_LABEL (how the guest finds it), no journal (it is attached
 * read-only), written to a temporary name beside the tree and renamed to
 * <cache>/rootfs/<hash>/rootfs.img when complete.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "rootfs-local.h"

/* The image's size in KiB: the tree's bytes plus 25 % and 64 MiB (metadata). */
static long long image_kib(const struct rootfs *r)
{
	char bytes[32];

	if (rootfs_manifest_get(r->dir, "bytes", bytes, sizeof(bytes)))
		return -1;
	return atoll(bytes) / 1024 * 5 / 4 + 64 * 1024;
}

int rootfs_disk(const struct rootfs *r, char *path, size_t len, char *err, size_t errlen)
{
	char tmp[PATH_MAX], size[32];
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-d", (char *)r->tree, "-L", ROOTFS_DISK_LABEL,
			 "-O", "^has_journal", "-m", "0", "-E", "root_owner=0:0", tmp, size,
			 NULL };
	int fd, ret;

	err[0] = '\0';

	if (guest_path(path, len, "%s/rootfs.img", r->dir) ||
	    guest_path(tmp, sizeof(tmp), "%s/.rootfs.img.XXXXXX", r->dir))
		return -ENAMETOOLONG;
	if (!access(path, R_OK))
		return 0;
	fd = mkstemp(tmp);
	if (fd < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	close(fd);
	snprintf(size, sizeof(size), "%lldk", image_kib(r));
	ret = size[0] == '-' ? -ENOENT : guest_exec(mkfs, NULL, NULL, 0, NULL, err, errlen);
	if (!ret && (chmod(tmp, 0444) || rename(tmp, path))) {
		ret = -errno;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
	}
	if (ret == -ENOENT && !err[0])
		snprintf(err, errlen, "%s: no size in the manifest", r->manifest);
	if (ret)
		unlink(tmp);
	return ret;
}
