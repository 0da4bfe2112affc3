// SPDX-License-Identifier: MIT
/*
 * sysroot.c - the root directory the kernel's files are read from: "/" on
 * a real run, a captured machine tree when a test sets CVMBENCH_SYSROOT.
 * Every reader of sysfs and procfs facts goes through these helpers, so a
 * test of another machine exercises the code the tool runs.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sysroot.h"

const char *sysroot(void)
{
	const char *r = getenv(SYSROOT_ENV);

	return r && *r && !(r[0] == '/' && !r[1]) ? r : NULL;
}

const char *sysroot_path(const char *path, char *buf, size_t len)
{
	const char *r = sysroot();

	if (!r || path[0] != '/')
		return path;
	if ((size_t)snprintf(buf, len, "%s%s", r, path) >= len)
		buf[0] = '\0';   /* too long: no file, never the real one */
	return buf;
}

int sysroot_open(const char *path, int flags)
{
	char buf[4096];

	return open(sysroot_path(path, buf, sizeof(buf)), flags);
}

int sysroot_access(const char *path, int mode)
{
	char buf[4096];

	return access(sysroot_path(path, buf, sizeof(buf)), mode);
}

FILE *sysroot_fopen(const char *path, const char *mode)
{
	char buf[4096];

	return fopen(sysroot_path(path, buf, sizeof(buf)), mode);
}
