// SPDX-License-Identifier: MIT
/*
 * rootfs-make.c - one rootfs build that is not cached yet: mmdebstrap
 * (an argv, no shell) into <cache>/rootfs/.build-XXXXXX/root, the mount
 * points the backends bind into (/cvmfn, /data), the installed packages
 * read back with dpkg-query, the tree's size, the content hash and the
 * manifest; then the directory is renamed to <cache>/rootfs/<hash>. A
 * killed build leaves only a .build-* directory, never a cache entry; it
 * is journalled (rootfs-build-dir.c), and so is mmdebstrap's pid (it dies
 * with cvmbench): `cvmbench restore` ends it, unmounts what it left
 * mounted in the tree and removes the directory.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "log.h"
#include "rootfs-local.h"

/* Leave documentation out of the tree: smaller, and no behaviour changes. */
static const char *const dpkg_excludes[] = {
	"--dpkgopt=path-exclude=/usr/share/man/*",
	"--dpkgopt=path-exclude=/usr/share/doc/*",
	"--dpkgopt=path-include=/usr/share/doc/*/copyright",
	"--dpkgopt=path-exclude=/usr/share/info/*",
	"--dpkgopt=path-exclude=/usr/share/locale/*",
};

static int run_mmdebstrap(const struct rootfs_inputs *in, const char *tree,
			  char *err, size_t errlen)
{
	char include[ROOTFS_MAX_PKGS * 66 + 16], *argv[32];
	size_t i, n = 0, used;
	int ret;

	used = (size_t)snprintf(include, sizeof(include), "--include=");
	for (i = 0; i < in->npkgs; i++)
		used += (size_t)snprintf(include + used, sizeof(include) - used, "%s%s",
					 i ? "," : "", in->pkg[i]);
	argv[n++] = "mmdebstrap";
	argv[n++] = "--quiet";
	argv[n++] = "--mode=root";
	argv[n++] = "--variant=" ROOTFS_VARIANT;
	argv[n++] = "--format=directory";
	argv[n++] = include;
	for (i = 0; i < sizeof(dpkg_excludes) / sizeof(dpkg_excludes[0]); i++)
		argv[n++] = (char *)dpkg_excludes[i];
	argv[n++] = ROOTFS_SUITE;
	argv[n++] = (char *)tree;
	for (i = 0; i < rootfs_nsources; i++)
		argv[n++] = (char *)rootfs_sources[i];
	argv[n] = NULL;
	ret = guest_exec_tied(argv, err, errlen);
	if (ret == -ENOENT)
		snprintf(err, errlen, "mmdebstrap not found (apt-get install mmdebstrap; "
			 ".ci/install-deps lists it)");
	return ret;
}

/* Empty mount points the backends bind cvmfn and the data directory onto. */
static int mount_points(const char *tree)
{
	char path[PATH_MAX];
	int fd;

	if (guest_path(path, sizeof(path), "%s/data", tree) || (mkdir(path, 0755) &&
							      errno != EEXIST))
		return -errno;
	if (guest_path(path, sizeof(path), "%s/cvmfn", tree))
		return -ENAMETOOLONG;
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0755);
	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static long long tree_bytes, tree_files;

static int count_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)path;
	(void)flag;
	(void)ftw;
	tree_bytes += (long long)st->st_blocks * 512;
	tree_files++;
	return 0;
}

static void measure_tree(const char *tree, struct rootfs_built *b)
{
	tree_bytes = tree_files = 0;
	nftw(tree, count_one, 32, FTW_PHYS | FTW_MOUNT);
	b->bytes = tree_bytes;
	b->files = tree_files;
}

static void tool_version(struct rootfs_built *b)
{
	char *argv[] = { "mmdebstrap", "--version", NULL };

	if (guest_exec(argv, NULL, b->tool, sizeof(b->tool), NULL, NULL, 0))
		snprintf(b->tool, sizeof(b->tool), "mmdebstrap");
	b->tool[strcspn(b->tool, "\n")] = '\0';
}

/* "NAME\tVERSION\n" of every installed package of @tree, sorted by name. */
static int installed(const char *tree, char *out, size_t len, char *err, size_t errlen)
{
	char admin[PATH_MAX + 32];
	char *argv[] = { "dpkg-query", admin, "-W", "-f", "${Package}\t${Version}\n", NULL };

	snprintf(admin, sizeof(admin), "--admindir=%s/var/lib/dpkg", tree);
	return guest_exec(argv, NULL, out, len, NULL, err, errlen);
}

/* SHA-256 of the list's bytes and every installed package's version. */
static void content_hash(const struct rootfs_inputs *in, const char *pkgs,
			 char hash[SHA256_HEX])
{
	static char text[1 << 18];

	snprintf(text, sizeof(text), "cvmbench-rootfs 1\nlist %s\n%s", in->list_sha, pkgs);
	guest_sha256_str(text, hash);
}

/* The tree, its packages and manifest in @tmp; the hash into @hash. */
static int make_in(const struct rootfs_inputs *in, const char *tmp, char hash[SHA256_HEX],
		   char *err, size_t errlen)
{
	static char pkgs[1 << 17];
	struct rootfs_built b = { 0 };
	char tree[PATH_MAX];
	long long t0 = clock_now_ns();
	int ret;

	guest_path(tree, sizeof(tree), "%s/root", tmp);
	pr_info("rootfs %s: building with mmdebstrap (%zu packages listed)", in->name, in->npkgs);
	ret = run_mmdebstrap(in, tree, err, errlen);
	b.seconds = (double)(clock_now_ns() - t0) / 1e9;
	if (!ret)
		ret = installed(tree, pkgs, sizeof(pkgs), err, errlen);
	if (ret)
		return ret;
	ret = mount_points(tree);
	if (ret) {
		snprintf(err, errlen, "%s: mount points: %s", tree, strerror(-ret));
		return ret;
	}
	measure_tree(tree, &b);
	tool_version(&b);
	content_hash(in, pkgs, hash);
	ret = rootfs_manifest_write(in, &b, pkgs, tmp, hash);
	if (ret)
		snprintf(err, errlen, "%s/manifest.json: %s", tmp, strerror(-ret));
	return ret;
}

int rootfs_make(const struct rootfs_inputs *in, const char *root, char hash[SHA256_HEX],
		char *err, size_t errlen)
{
	char tmp[PATH_MAX], dst[PATH_MAX];
	long id;
	int ret = rootfs_build_dir_make(root, tmp, sizeof(tmp), &id);

	if (ret) {
		snprintf(err, errlen, "%s/.build-*: %s", root, strerror(-ret));
		return ret;
	}
	ret = make_in(in, tmp, hash, err, errlen);
	if (!ret && guest_path(dst, sizeof(dst), "%s/%s", root, hash))
		ret = -ENAMETOOLONG;
	/* an identical rootfs built meanwhile stays as it is */
	if (!ret && rename(tmp, dst) && errno != ENOTEMPTY && errno != EEXIST) {
		ret = -errno;
		snprintf(err, errlen, "moving %s to %s: %s", tmp, dst, strerror(errno));
	}
	if (ret || access(tmp, F_OK) == 0)
		rootfs_build_dir_remove(tmp, &id);
	else
		rootfs_build_dir_done(&id);
	return ret;
}
