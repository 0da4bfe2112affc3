/* SPDX-License-Identifier: MIT */
/*
 * guest-local.h - helpers shared by the guest image and data disk builders
 * (bench/backends/qemu/guest-*.c): running programs from argv arrays,
 * SHA-256 of files, the cache directory, the newc cpio writer.
 */
#ifndef CVMBENCH_GUEST_LOCAL_H
#define CVMBENCH_GUEST_LOCAL_H

#include <stddef.h>
#include <stdio.h>
#include <limits.h>
#include <openssl/evp.h>

#define SHA256_HEX 65                    /* 64 hex digits and the NUL */

/**
 * guest_which() - @name as given if it has a '/', else the first entry of
 * PATH (then /usr/sbin, /sbin: root's tools are there) where it is
 * executable, into @buf. 0 or -ENOENT.
 */
int guest_which(const char *name, char *buf, size_t len);

/**
 * guest_exec() - run @argv (argv[0] looked up in PATH, then /usr/sbin and
 * /sbin) in @cwd (NULL: here), stdin from /dev/null. Its stdout goes to
 * @out (up to @outlen - 1 bytes kept, NUL-terminated; NULL: discarded) or,
 * if @out_path is set, into that file; stderr is kept in @err (NULL:
 * inherited). Returns 0 when it exited 0, else -errno or -ECHILD with
 * "PROG: exit status N: <its stderr>" in @err.
 */
int guest_exec(char *const argv[], const char *cwd, char *out, size_t outlen,
	       const char *out_path, char *err, size_t errlen);

/**
 * guest_exec_tied() - guest_exec() of a long child (mmdebstrap), its
 * output discarded, that must not outlive cvmbench: it gets
 * PR_SET_PDEATHSIG (SIGKILL) and execs only once its pid is journalled
 * (when a journal is open), so `cvmbench restore` ends it by that pid; the
 * entry is closed when it is reaped. Same returns.
 */
int guest_exec_tied(char *const argv[], char *err, size_t errlen);

/** guest_sha256_file() - the SHA-256 of the file @path as hex. 0 or -errno. */
int guest_sha256_file(const char *path, char hex[SHA256_HEX]);
/** guest_sha256_update_file() - feed the file @path into @ctx. 0 or -errno. */
int guest_sha256_update_file(EVP_MD_CTX *ctx, const char *path);
/** guest_sha256_final() - finish @ctx (and free it) into @hex. */
void guest_sha256_final(EVP_MD_CTX *ctx, char hex[SHA256_HEX]);
/** guest_sha256_str() - the SHA-256 of the string @s as hex. */
void guest_sha256_str(const char *s, char hex[SHA256_HEX]);

/**
 * guest_path() - snprintf for paths: -ENAMETOOLONG instead of a cut path.
 */
int guest_path(char *buf, size_t len, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** guest_rm_tree() - remove the private temporary tree @dir (made by us). */
void guest_rm_tree(const char *dir);
/** guest_is_static() - 1 if the ELF file @path has no interpreter, 0 if it has, -errno. */
int guest_is_static(const char *path);

/* --- newc cpio writer (guest-cpio.c) --- */
struct cpio;
/** cpio_open() - start a newc archive in @path. NULL on error (errno set). */
struct cpio *cpio_open(const char *path);
/** cpio_dir() - add the directory @name (no leading '/'). */
int cpio_dir(struct cpio *c, const char *name);
/** cpio_symlink() - add @name -> @target. */
int cpio_symlink(struct cpio *c, const char *name, const char *target);
/** cpio_data() - add the regular file @name with @len bytes @data, @mode. */
int cpio_data(struct cpio *c, const char *name, const void *data, size_t len,
	      unsigned int mode);
/** cpio_file() - add the regular file @name with the contents of @path. */
int cpio_file(struct cpio *c, const char *name, const char *path, unsigned int mode);
/** cpio_close() - write the trailer and close; 0 or the first error. */
int cpio_close(struct cpio *c);

/* The modules in the guest image, in load order (guest-image.c). */
extern const char *const guest_modules[];
extern const size_t guest_nmodules;
/* the first guest_nboot_modules are loaded at boot; the rest on request */
extern const size_t guest_nboot_modules;
#define GUEST_MAX_MODULES 16

#include "guest-kernel.h"

/**
 * struct guest_inputs - everything a guest image is built from; @key is
 * the SHA-256 of their description (the cache index), @mod the module
 * files once the kernel is unpacked.
 */
struct guest_inputs {
	struct guest_kernel k;
	char busybox[PATH_MAX], busybox_sha[SHA256_HEX], busybox_version[128];
	char cvmfn[PATH_MAX], cvmfn_sha[SHA256_HEX];
	char agent[PATH_MAX], agent_sha[SHA256_HEX];      /* "" without an agent */
	char cvmload[PATH_MAX], cvmload_sha[SHA256_HEX];  /* "" without cvmload */
	char cvmfn_ship[PATH_MAX], agent_ship[PATH_MAX];  /* the stripped copies */
	char cvmload_ship[PATH_MAX];
	int stripped;                                     /* strip was found */
	char init[8192], init_sha[SHA256_HEX];
	char key[SHA256_HEX];
	char mod[GUEST_MAX_MODULES][PATH_MAX];
};

/** guest_initramfs_write() - the newc initramfs of @in into @path. */
int guest_initramfs_write(const struct guest_inputs *in, const char *path);
/**
 * guest_manifest_write() - manifest.json of the image in @dir: @hash,
 * the inputs and the sizes of its files. 0 or -errno.
 */
int guest_manifest_write(const struct guest_inputs *in, const char *dir, const char *hash);
struct cJSON;
/** guest_json_write() - @m as text into the new file @path, then free @m. 0 or -EIO. */
int guest_json_write(struct cJSON *m, const char *path);
/**
 * guest_cache_link() - @root/@sub/@name -> ../@hash (replacing it), @sub
 * made 0700 if missing: the cache's index links. 0 or -errno.
 */
int guest_cache_link(const char *root, const char *sub, const char *name, const char *hash);
/** guest_manifest_hash() - the "hash" of @dir/manifest.json if its "inputs" is @key. */
int guest_manifest_hash(const char *dir, const char *key, char hash[SHA256_HEX]);

/** guest_strip_available() - 1 if `strip` is on PATH (or /usr/sbin, /sbin). */
int guest_strip_available(void);
/**
 * guest_strip_copy() - @in without symbols and debug information, as
 * @dir/@name (its path into @out); without strip on the host, @out is @in.
 * 0 or -errno with strip's message in @err.
 */
int guest_strip_copy(const char *in, const char *dir, const char *name, char *out,
		     size_t len, char *err, size_t errlen);

/** guest_init_script() - the text of /init for the modules @mods (@n). */
int guest_init_script(const char *const *mods, size_t n, char *buf, size_t len);

#endif
