/* SPDX-License-Identifier: MIT */
/*
 * rootfs-local.h - the steps of a rootfs build shared by the files of
 * bench/backends/rootfs/: the list read and resolved into an inputs key,
 * the build itself, the manifest.
 */
#ifndef CVMBENCH_ROOTFS_LOCAL_H
#define CVMBENCH_ROOTFS_LOCAL_H

#include <limits.h>
#include <stddef.h>

#include "guest-local.h"
#include "rootfs.h"

#define ROOTFS_MAX_PKGS 64
#define ROOTFS_SUITE "bookworm"
#define ROOTFS_VARIANT "minbase"

/* The apt sources of every build (as `deb` lines: one mmdebstrap argument each). */
extern const char *const rootfs_sources[];
extern const size_t rootfs_nsources;

/**
 * struct rootfs_inputs - what a build is made from: the list @name at
 * @list_path (its bytes' SHA-256 @list_sha), its packages @pkg and their
 * candidate versions @ver (rootfs_resolve()); @key the SHA-256 of all of
 * it, the cache index.
 */
struct rootfs_inputs {
	char name[ROOTFS_NAME_MAX];
	char list_path[PATH_MAX];
	char list_sha[SHA256_HEX];
	char pkg[ROOTFS_MAX_PKGS][64];
	char ver[ROOTFS_MAX_PKGS][96];
	size_t npkgs;
	char key[SHA256_HEX];
};

/**
 * rootfs_list_read() - the packages of @configs/rootfs/@name.list (@configs
 * NULL: find_configs_dir()) into @in (one name a line, '#' comments). -EINVAL with "FILE:LINE: ..." in @err
 * for a bad name or line, -ENOENT when there is no such list.
 */
int rootfs_list_read(const char *configs, const char *name, struct rootfs_inputs *in,
		     char *err, size_t errlen);

/**
 * rootfs_resolve() - each package's candidate version on this machine
 * (one `apt-cache policy`), then @in->key. -EINVAL naming the list's
 * package apt does not know.
 */
int rootfs_resolve(struct rootfs_inputs *in, char *err, size_t errlen);

/**
 * rootfs_make() - build @in under @root (<cache>/rootfs) in a private
 * .build-XXXXXX directory, write its manifest and rename it to
 * @root/<hash> when complete. 0 with @hash, or -errno with @err.
 */
int rootfs_make(const struct rootfs_inputs *in, const char *root, char hash[SHA256_HEX],
		char *err, size_t errlen);

/**
 * rootfs_build_dir_make() - a fresh private @root/.build-XXXXXX into @dir,
 * journalled (kind "rootfs-build-dir", *@id its entry; 0 when no journal
 * is open) before it is made. 0 or -errno.
 */
int rootfs_build_dir_make(const char *root, char *dir, size_t len, long *id);
/**
 * rootfs_build_dir_remove() - a failed build's @dir removed: what is still
 * mounted in it unmounted (deepest first), then the tree, never crossing
 * a mount; the entry *@id closed (kept open for `cvmbench restore`, with a
 * warning, when that fails).
 */
void rootfs_build_dir_remove(const char *dir, long *id);
/** rootfs_build_dir_done() - the directory was renamed into the cache: close *@id. */
void rootfs_build_dir_done(long *id);

/**
 * struct rootfs_built - what a finished build measured, for the manifest.
 * @seconds: mmdebstrap's wall time; @bytes, @files: the tree's disk use
 * and entries; @tool: "mmdebstrap 1.3.5"
 */
struct rootfs_built {
	double seconds;
	long long bytes, files;
	char tool[64];
};

/**
 * rootfs_manifest_write() - @dir/manifest.json of the tree @dir/root:
 * @in, @b, every installed package and version (@pkgs: dpkg-query's
 * "NAME\tVERSION" lines) and @hash. 0 or -errno.
 */
int rootfs_manifest_write(const struct rootfs_inputs *in, const struct rootfs_built *b,
			  const char *pkgs, const char *dir, const char *hash);

/**
 * rootfs_manifest_get() - the string or whole number @field of
 * @dir/manifest.json into @buf. 0, or -ENOENT when there is no manifest or no such string.
 */
int rootfs_manifest_get(const char *dir, const char *field, char *buf, size_t len);

#endif
