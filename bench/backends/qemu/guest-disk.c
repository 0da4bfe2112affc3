// SPDX-License-Identifier: MIT
/*
 * guest-disk.c - a workload's read-only data disk: the model and input
 * files `cvmfn prepare` writes for a (workload, variant, size, seed), in a
 * raw ext4 image made with mkfs.ext4 -d (no journal: the guest mounts it
 * read-only). Kept out of the initramfs, which the guest copies into its
 * RAM. Cached as <cache>/disk/<workload>[-<variant>]-<size>-<seed>-<cvmfn
 * hash>.img.
 */
#define _XOPEN_SOURCE 700
#include <errno.h>
#include <ftw.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "guest-local.h"
#include "guest.h"
#include "paths.h"
#include "state-dir.h"
#include "workload-registry.h"

static long long tree_bytes;

static int add_size(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	tree_bytes += (long long)st->st_blocks * 512 + 4096;   /* data + an inode's share */
	return 0;
}

/* Room for @dir's files with a margin: at least 8 MiB, in KiB. */
static long long disk_kib(const char *dir)
{
	long long mib;

	tree_bytes = 0;
	nftw(dir, add_size, 16, FTW_PHYS);
	mib = (tree_bytes + tree_bytes / 5) / (1 << 20) + 4;
	return (mib < 8 ? 8 : mib) * 1024;
}

static int make_disk(const char *cvmfn, const char *workload, const char *variant,
		     const char *size, unsigned long long seed, const char *tmp,
		     const char *img, char *err, size_t errlen)
{
	char data[PATH_MAX], seedstr[32], kib[32];
	char *prep[] = { (char *)cvmfn, "prepare", (char *)workload, "--size", (char *)size,
			 "--seed", seedstr, "--data-dir", data, "--variant", (char *)variant,
			 NULL };
	char *mkfs[] = { "mkfs.ext4", "-q", "-F", "-d", data, "-O", "^has_journal", "-m", "0",
			 "-L", "cvmbench-data", "-E", "root_owner=0:0", (char *)img, kib, NULL };
	int ret;

	guest_path(data, sizeof(data), "%s/data", tmp);
	snprintf(seedstr, sizeof(seedstr), "%llu", seed);
	if (!variant || !*variant)
		prep[9] = NULL;           /* no --variant: the workload's default */
	ret = state_dir_create(data);
	if (!ret)
		ret = guest_exec(prep, NULL, NULL, 0, NULL, err, errlen);
	if (ret)
		return ret;
	snprintf(kib, sizeof(kib), "%lldk", disk_kib(data));
	ret = guest_exec(mkfs, NULL, NULL, 0, NULL, err, errlen);
	if (!ret && chmod(img, 0444))
		ret = -errno;
	return ret;
}

static int disk_name(const char *workload, const char *variant, const char *size,
		     unsigned long long seed, const char *cvmfn, char *buf, size_t len,
		     char *err, size_t errlen)
{
	const struct workload_info *w = workload_find(workload);
	char sha[SHA256_HEX];
	enum wl_size sz;
	int ret;

	if (!w) {
		snprintf(err, errlen, "unknown workload '%s' (see cvmbench list)", workload);
		return -EINVAL;
	}
	if (variant && *variant && wl_variant_check(w, variant, err, errlen))
		return -EINVAL;       /* names the value and the workload's variants */
	if (wl_size_parse(size, &sz)) {
		snprintf(err, errlen, "unknown size '%s' (test, small or large)", size);
		return -EINVAL;
	}
	ret = guest_sha256_file(cvmfn, sha);
	if (ret) {
		snprintf(err, errlen, "%s: %s", cvmfn, strerror(-ret));
		return ret;
	}
	snprintf(buf, len, "%s%s%s-%s-%llu-%.16s.img", workload, variant && *variant ? "-" : "",
		 variant ? variant : "", size, seed, sha);
	return 0;
}

int guest_disk_build(const char *workload, const char *variant, const char *size,
		     unsigned long long seed, const char *cvmfn_arg, struct guest_disk *d,
		     char *err, size_t errlen)
{
	char cvmfn[PATH_MAX], root[PATH_MAX], name[256], tmp[PATH_MAX], img[PATH_MAX];
	struct stat st;
	int ret;

	err[0] = '\0';
	snprintf(cvmfn, sizeof(cvmfn), "%s", cvmfn_arg ? cvmfn_arg : "");
	if (!cvmfn_arg)
		find_cvmfn(cvmfn, sizeof(cvmfn));
	ret = disk_name(workload, variant, size, seed, cvmfn, name, sizeof(name), err, errlen);
	if (ret)
		return ret;
	if (guest_cache_dir(tmp, sizeof(tmp)) || guest_path(root, sizeof(root), "%s/disk", tmp) ||
	    guest_path(d->path, sizeof(d->path), "%s/%s", root, name)) {
		snprintf(err, errlen, "the cache directory's path is too long (CVMBENCH_CACHE_DIR)");
		return -ENAMETOOLONG;
	}
	d->cached = !stat(d->path, &st);
	if (d->cached) {
		d->bytes = st.st_size;
		return 0;
	}
	guest_path(tmp, sizeof(tmp), "%s/.build-XXXXXX", root);
	if (state_dir_create(root) || !mkdtemp(tmp)) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -errno;
	}
	guest_path(img, sizeof(img), "%s/disk.img", tmp);
	ret = make_disk(cvmfn, workload, variant, size, seed, tmp, img, err, errlen);
	if (!ret && (rename(img, d->path) || stat(d->path, &st)))
		ret = -errno;
	if (!ret)
		d->bytes = st.st_size;
	else if (!err[0])
		snprintf(err, errlen, "%s: %s", d->path, strerror(-ret));
	guest_rm_tree(tmp);
	return ret;
}
