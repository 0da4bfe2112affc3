// SPDX-License-Identifier: MIT
/*
 * tracefs-find.c - where tracefs is, found without mounting it: the mount
 * table (/proc/self/mountinfo), the kernel's file systems
 * (/proc/filesystems) and the mount point /sys/kernel/tracing (a plain
 * sysfs directory, not an automount like debugfs's tracing/). Also the one
 * mount a run may make, and its undoing at the end of the run.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "mount-point.h"
#include "sysroot.h"
#include "tracefs-find.h"


/* 1 and the mount point in @dir if @line mounts a tracefs. */
static int mountinfo_tracefs(const char *line, char *dir, size_t len)
{
	char type[64];
	const char *sep = strstr(line, " - ");

	if (!sep || sscanf(sep + 3, "%63s", type) != 1 || strcmp(type, "tracefs"))
		return 0;
	return !mountinfo_point(line, dir, len);   /* never a cut path */
}

static void find_mounted(struct tracefs_place *p)
{
	char line[2048], dir[256];
	FILE *f = sysroot_fopen("/proc/self/mountinfo", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f))
		if (mountinfo_tracefs(line, dir, sizeof(dir)) &&
		    (!p->mounted || !strcmp(dir, TRACEFS_MOUNT_POINT))) {
			p->mounted = 1;
			snprintf(p->dir, sizeof(p->dir), "%s", dir);
		}
	fclose(f);
}

static void find_in_kernel(struct tracefs_place *p)
{
	char line[256], a[64], b[64];
	FILE *f = sysroot_fopen("/proc/filesystems", "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		int n = sscanf(line, "%63s %63s", a, b);

		if ((n == 1 && !strcmp(a, "tracefs")) || (n == 2 && !strcmp(b, "tracefs")))
			p->in_kernel = 1;
	}
	fclose(f);
}

int tracefs_find(struct tracefs_place *p)
{
	struct stat st;
	char buf[4096];

	memset(p, 0, sizeof(*p));
	find_mounted(p);
	if (p->mounted)
		return 1;
	find_in_kernel(p);
	p->mount_point = !stat(sysroot_path(TRACEFS_MOUNT_POINT, buf, sizeof(buf)), &st) &&
			 S_ISDIR(st.st_mode);
	if (p->in_kernel && p->mount_point)
		return 1;
	snprintf(p->why, sizeof(p->why), "tracefs is not mounted and %s",
		 !p->in_kernel ? "the kernel has no tracefs (/proc/filesystems)" :
		 "there is no " TRACEFS_MOUNT_POINT " to mount it on");
	return 0;
}

int tracefs_usable(char *why, size_t len)
{
	struct tracefs_place p;

	if (!tracefs_find(&p)) {
		snprintf(why, len, "%s", p.why);
		return 0;
	}
	if (!p.mounted && geteuid()) {
		snprintf(why, len, "tracefs is not mounted, and mounting it needs root");
		return 0;
	}
	return 1;
}
