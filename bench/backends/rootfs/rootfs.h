/* SPDX-License-Identifier: MIT */
/*
 * rootfs.h - one Debian root filesystem for containers and guests, built
 * from a package list kept in the repository (configs/rootfs/NAME.list)
 * with mmdebstrap against deb.debian.org, cached under
 * guest_cache_dir()/rootfs/<hash> with a manifest, and an ext4 image of it
 * for a guest's read-only virtio disk. See docs/rootfs.md.
 */
#ifndef CVMBENCH_ROOTFS_H
#define CVMBENCH_ROOTFS_H

#include <limits.h>
#include <stddef.h>

#include "agent-guest.h"

#define ROOTFS_NAME_MAX 32
/* The ext4 label of a rootfs disk: how the guest tells it from a data disk. */
#define ROOTFS_DISK_LABEL AGENT_GUEST_ROOTFS_LABEL
/* The kernel command line word that asks the guest to switch to it. */
#define ROOTFS_CMDLINE "cvmbench.rootfs=" AGENT_GUEST_ROOTFS_LABEL

/**
 * struct rootfs - a built root filesystem.
 * @name: its list's name; @hash: SHA-256 of the list and the resolved
 * versions of every installed package (names the directory)
 * @dir: <cache>/rootfs/<hash>; @tree: @dir/root, the file tree;
 * @manifest: @dir/manifest.json; @cached: reused, not built now
 */
struct rootfs {
	char name[ROOTFS_NAME_MAX];
	char hash[65];
	char dir[PATH_MAX];
	char tree[PATH_MAX];
	char manifest[PATH_MAX];
	int cached;
};

/**
 * rootfs_name_ok() - @name is a list name: 1 to 31 of [a-z0-9-], not
 * starting with '-'. 1 or 0.
 */
int rootfs_name_ok(const char *name);

/**
 * rootfs_list_path() - @configs/rootfs/@name.list (@configs NULL:
 * find_configs_dir()) into @buf. 0 or -ENAMETOOLONG.
 */
int rootfs_list_path(const char *configs, const char *name, char *buf, size_t len);

/**
 * rootfs_build() - the root filesystem of list @name: the cached one built
 * from the same list and the same candidate versions of its packages, else
 * a new build (mmdebstrap, minutes). 0, -EINVAL for a bad name or list
 * (@err names the file and line), or -errno with the reason in @err.
 */
int rootfs_build(const char *name, struct rootfs *r, char *err, size_t errlen);

/**
 * rootfs_find() - as rootfs_build() without building: 0 with @r when the
 * list and its candidate versions (inputs key @key) are built here,
 * -ENOENT when not (a build would run), or another -errno with @err.
 */
int rootfs_find(const char *name, struct rootfs *r, char key[65], char *err, size_t errlen);

/**
 * rootfs_disk() - the read-only ext4 image of @r (label ROOTFS_DISK_LABEL)
 * into @path, made once with mkfs.ext4 -d beside the tree. 0 or -errno
 * with @err.
 */
int rootfs_disk(const struct rootfs *r, char *path, size_t len, char *err, size_t errlen);

/**
 * rootfs_state() - whether list @name of @configs (NULL: find_configs_dir())
 * is built here: 0 with its hash in
 * @hash when the last build of @name is from the list as it is now; else
 * -ENOENT with the reason in @why (not built, or built from an older list).
 * Reads files only (no apt), for `cvmbench list`.
 */
int rootfs_state(const char *configs, const char *name, char hash[65], char *why,
		 size_t len);

#endif
