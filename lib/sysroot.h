/* SPDX-License-Identifier: MIT */
/*
 * sysroot.h - where the kernel's files are read from. Normally "/", but the
 * tests set CVMBENCH_SYSROOT to a captured tree (tests/fixtures/machines/)
 * so that the tool's own detection code (cpuidle, hypervisor, tracefs,
 * environment, probe and knob checks) runs against another machine.
 * Only tests set it; `cvmbench env` names it when it is set.
 */
#ifndef CVMBENCH_SYSROOT_H
#define CVMBENCH_SYSROOT_H

#include <stddef.h>
#include <stdio.h>

#define SYSROOT_ENV "CVMBENCH_SYSROOT"

/** sysroot() - the override directory, or NULL when files are read from /. */
const char *sysroot(void);
/** sysroot_path() - @path under the override (into @buf), or @path itself. */
const char *sysroot_path(const char *path, char *buf, size_t len);
/** sysroot_open() - open(2) of @path under the override. */
int sysroot_open(const char *path, int flags);
/** sysroot_access() - access(2) of @path under the override. */
int sysroot_access(const char *path, int mode);
/** sysroot_fopen() - fopen(3) of @path under the override. */
FILE *sysroot_fopen(const char *path, const char *mode);

#endif
