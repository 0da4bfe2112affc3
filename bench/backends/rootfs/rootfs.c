// SPDX-License-Identifier: MIT
/*
 * rootfs.c - find or build a rootfs: the list read and resolved into an
 * inputs key; <cache>/rootfs/by-input/<key> -> ../<hash> finds a build of
 * the same list and versions; <cache>/rootfs/by-name/<name> -> ../<hash>
 * is the last build of each list (for `cvmbench list`). Only directories
 * this file, rootfs-make.c and rootfs-build-dir.c create are ever removed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "guest.h"
#include "log.h"
#include "rootfs-local.h"

static int cache_root(char *buf, size_t len)
{
	char dir[PATH_MAX];

	if (guest_cache_dir(dir, sizeof(dir)))
		return -ENAMETOOLONG;
	return guest_path(buf, len, "%s/rootfs", dir);
}

/* The directory @root/<link's target> of the link @root/@sub/@name. */
static int follow(const char *root, const char *sub, const char *name, char *dir, size_t len)
{
	char link[PATH_MAX], target[128];
	ssize_t n;

	if (guest_path(link, sizeof(link), "%s/%s/%s", root, sub, name))
		return -ENAMETOOLONG;
	n = readlink(link, target, sizeof(target) - 1);
	if (n <= 0)
		return -ENOENT;
	target[n] = '\0';
	if (strncmp(target, "../", 3) || strchr(target + 3, '/') || strlen(target) != 3 + 64)
		return -EINVAL;
	return guest_path(dir, len, "%s/%s", root, target + 3);
}

static void fill(struct rootfs *r, const char *name, const char *dir, int cached)
{
	snprintf(r->name, sizeof(r->name), "%s", name);
	snprintf(r->dir, sizeof(r->dir), "%s", dir);
	snprintf(r->tree, sizeof(r->tree), "%s/root", dir);
	snprintf(r->manifest, sizeof(r->manifest), "%s/manifest.json", dir);
	r->cached = cached;
}

/* The cached build of @in->key, when its manifest says it is that build. */
static int lookup(const char *root, const struct rootfs_inputs *in, struct rootfs *r)
{
	char dir[PATH_MAX], key[SHA256_HEX];

	if (follow(root, "by-input", in->key, dir, sizeof(dir)) ||
	    rootfs_manifest_get(dir, "inputs", key, sizeof(key)) || strcmp(key, in->key) ||
	    rootfs_manifest_get(dir, "hash", r->hash, sizeof(r->hash)))
		return -ENOENT;
	fill(r, in->name, dir, 1);
	return 0;
}

/* @in read and resolved, @root the cache; 0 with @r when already built. */
static int find(const char *name, struct rootfs_inputs *in, char *root, size_t len,
		struct rootfs *r, char *err, size_t errlen)
{
	int ret;

	err[0] = '\0';
	memset(in, 0, sizeof(*in));
	ret = rootfs_list_read(NULL, name, in, err, errlen) ?: rootfs_resolve(in, err, errlen);
	if (ret)
		return ret;
	if (cache_root(root, len)) {
		snprintf(err, errlen, "the cache directory's path is too long (CVMBENCH_CACHE_DIR)");
		return -ENAMETOOLONG;
	}
	return lookup(root, in, r) ? 1 : 0;
}

int rootfs_find(const char *name, struct rootfs *r, char key[65], char *err, size_t errlen)
{
	static struct rootfs_inputs in;          /* 10 KB */
	char root[PATH_MAX];
	int ret = find(name, &in, root, sizeof(root), r, err, errlen);

	snprintf(key, 65, "%s", in.key);
	if (ret == 1)
		snprintf(err, errlen, "not built here from this list and these versions");
	return ret == 1 ? -ENOENT : ret;
}

int rootfs_build(const char *name, struct rootfs *r, char *err, size_t errlen)
{
	static struct rootfs_inputs in;
	char root[PATH_MAX], dir[PATH_MAX];
	int ret = find(name, &in, root, sizeof(root), r, err, errlen);

	if (ret <= 0) {
		if (!ret)
			guest_cache_link(root, "by-name", name, r->hash);
		return ret;
	}
	ret = rootfs_make(&in, root, r->hash, err, errlen);
	if (ret)
		return ret;
	if (guest_cache_link(root, "by-input", in.key, r->hash) ||
	    guest_cache_link(root, "by-name", name, r->hash))
		pr_warn("%s: cannot index the rootfs (it is rebuilt next time)", root);
	guest_path(dir, sizeof(dir), "%s/%s", root, r->hash);
	fill(r, name, dir, 0);
	return 0;
}

int rootfs_state(const char *configs, const char *name, char hash[65], char *why,
		 size_t len)
{
	static struct rootfs_inputs in;
	char root[PATH_MAX], dir[PATH_MAX], sha[SHA256_HEX];

	memset(&in, 0, sizeof(in));
	if (rootfs_list_read(configs, name, &in, why, len))
		return -ENOENT;
	if (cache_root(root, sizeof(root)) || follow(root, "by-name", name, dir, sizeof(dir)) ||
	    rootfs_manifest_get(dir, "hash", hash, 65)) {
		snprintf(why, len, "not built here (make rootfs-%s)", name);
		return -ENOENT;
	}
	if (rootfs_manifest_get(dir, "list_sha256", sha, sizeof(sha)) || strcmp(sha, in.list_sha)) {
		snprintf(why, len, "built from an older %s.list (make rootfs-%s)", name, name);
		return -ENOENT;
	}
	return 0;
}
