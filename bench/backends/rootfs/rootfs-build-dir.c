// SPDX-License-Identifier: MIT
/*
 * rootfs-build-dir.c - the private <cache>/rootfs/.build-XXXXXX directory
 * of one rootfs build, journalled (kind "rootfs-build-dir") before it is
 * made. mmdebstrap --mode=root mounts /proc, /sys and /dev (and binds
 * /dev's files) inside the tree it builds; a build killed with kill -9
 * leaves them mounted. The undo, at the end of a failed build or in
 * `cvmbench restore`, unmounts every mount still at or below that
 * directory (/proc/self/mountinfo, deepest first), then removes that
 * directory only: never while a mount is left in it, never crossing
 * onto another file system or out through a symlink.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>

#include "journal.h"
#include "log.h"
#include "mount-point.h"
#include "rootfs-local.h"
#include "state-dir.h"

#define BUILD_PREFIX ".build-"

/* @dir's parent into @top, when @dir is <something>/rootfs/.build-X. */
static int build_dir_parent(const char *dir, char *top, size_t len)
{
	const char *base = strrchr(dir, '/'), *up;

	if (dir[0] != '/' || !base || strncmp(base + 1, BUILD_PREFIX, strlen(BUILD_PREFIX)) ||
	    !base[1 + strlen(BUILD_PREFIX)] || strstr(dir, "/../") || strstr(dir, "/./"))
		return -EINVAL;
	if ((size_t)(base - dir) >= len)
		return -ENAMETOOLONG;
	memcpy(top, dir, (size_t)(base - dir));
	top[base - dir] = '\0';
	up = strrchr(top, '/');
	return up && !strcmp(up, "/rootfs") ? 0 : -EINVAL;
}

/* Journal kind "rootfs-build-dir": its mounts, then the tree itself. */
static int build_dir_undo(const char *dir)
{
	char top[PATH_MAX];
	int ret = build_dir_parent(dir, top, sizeof(top));

	if (ret)
		return ret;
	ret = mount_unmount_under(dir);
	if (ret < 0)
		return ret;
	if (ret > 0)
		pr_info("%s: unmounted %d mount(s) a killed build left", dir, ret);
	/* nothing may be mounted there any more: the walk must not reach another tree */
	if (mount_unmount_under(dir) != 0)
		return -EBUSY;
	return state_dir_remove_tree_in(top, dir);
}

static const struct journal_kind kind_build_dir = { "rootfs-build-dir", build_dir_undo };
JOURNAL_KIND_REGISTER(kind_build_dir)

/* A fresh name @root/.build-XXXXXX (6 random letters and digits) into @dir. */
static int fresh_name(const char *root, char *dir, size_t len)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char r[6];
	char tag[7];
	size_t i;

	if (getrandom(r, sizeof(r), 0) != sizeof(r))
		return -EIO;
	for (i = 0; i < sizeof(r); i++)
		tag[i] = set[r[i] % (sizeof(set) - 1)];
	tag[6] = '\0';
	return guest_path(dir, len, "%s/" BUILD_PREFIX "%s", root, tag);
}

int rootfs_build_dir_make(const char *root, char *dir, size_t len, long *id)
{
	struct stat st;
	int ret, tries;

	*id = 0;
	ret = state_dir_create(root);
	for (tries = 0; !ret && tries < 100; tries++) {
		ret = fresh_name(root, dir, len);
		if (ret || !lstat(dir, &st))
			continue;
		*id = journal_object(kind_build_dir.kind, dir);
		if (*id < 0 && *id != -EBADF)      /* -EBADF: no journal open */
			return (int)*id;
		*id = *id > 0 ? *id : 0;
		if (!mkdir(dir, 0755))     /* as a system tree is (the cache above: 0700) */
			return chmod(dir, 0755) ? -errno : 0;
		ret = errno == EEXIST ? 0 : -errno;
		if (*id > 0 && journal_forget(*id))
			pr_warn("journal %s: cannot close entry %ld", journal_path(), *id);
		*id = 0;
	}
	return ret ? ret : -EEXIST;
}

void rootfs_build_dir_remove(const char *dir, long *id)
{
	int ret;

	if (*id > 0) {
		journal_undo_or_warn(id, "rootfs build");
		return;
	}
	ret = build_dir_undo(dir);
	if (ret)
		pr_warn("%s: cannot remove this failed build: %s (unmount what `mount` lists "
			"there, then rm -rf --one-file-system)", dir, strerror(-ret));
}

void rootfs_build_dir_done(long *id)
{
	if (*id > 0 && journal_forget(*id))
		pr_warn("journal %s: cannot close entry %ld", journal_path(), *id);
	*id = 0;
}
