/* SPDX-License-Identifier: MIT */
/*
 * guest-kernel.h - the guest's kernel from a Debian linux-image-* package
 * (guest-kernel.c): resolve, fetch and unpack, pick the modules.
 */
#ifndef CVMBENCH_GUEST_KERNEL_H
#define CVMBENCH_GUEST_KERNEL_H

#include <limits.h>
#include <stddef.h>

/**
 * struct guest_kernel - @package as asked (maybe a meta package), @real the
 * image package it resolves to, @version its version; after fetching:
 * @root the unpacked tree, @vmlinuz the kernel, @release its uname -r.
 */
struct guest_kernel {
	char package[128];
	char real[128];
	char version[128];
	char root[PATH_MAX];
	char vmlinuz[PATH_MAX];
	char release[128];
};

/** guest_kernel_name_ok() - 1 if @name is a linux-image-* package name. */
int guest_kernel_name_ok(const char *name);
/** guest_kernel_resolve() - the real package and version of @pkg (apt-cache). */
int guest_kernel_resolve(const char *pkg, struct guest_kernel *k, char *err, size_t errlen);
/** guest_kernel_fetch() - apt-get download and dpkg -x it into @tmp. */
int guest_kernel_fetch(struct guest_kernel *k, const char *tmp, char *err, size_t errlen);
/**
 * guest_kernel_module() - the path of module @name (a plain .ko: a .ko.xz
 * is decompressed into @tmp). 0 or -errno with @err.
 */
int guest_kernel_module(const struct guest_kernel *k, const char *name, const char *tmp,
			char *path, size_t len, char *err, size_t errlen);

#endif
