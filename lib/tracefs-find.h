/* SPDX-License-Identifier: MIT */
/*
 * tracefs-find.h - is tracefs mounted, or could it be, found without
 * mounting it (libtracefs's tracefs_tracing_dir() mounts it as a side
 * effect, so `list`, `env` and the probes' supported() checks use this).
 * A run that needs it mounts it through tracefs_host_dir() (tracefs-host.h),
 * which journals the mount so the end of the run or `restore` undoes it.
 */
#ifndef CVMBENCH_TRACEFS_FIND_H
#define CVMBENCH_TRACEFS_FIND_H

#include <stddef.h>

#define TRACEFS_MOUNT_POINT "/sys/kernel/tracing"

struct tracefs_place {
	int mounted;              /* a tracefs line in /proc/self/mountinfo */
	char dir[256];            /* where, when mounted */
	int in_kernel;            /* "tracefs" in /proc/filesystems */
	int mount_point;          /* /sys/kernel/tracing exists (empty dir) */
	char why[256];            /* when neither mounted nor mountable */
};

/**
 * tracefs_find() - fill @p from /proc/self/mountinfo, /proc/filesystems
 * and the mount point's existence; reads only, mounts nothing.
 * Return: 1 if tracefs is mounted or mountable (needs root), else 0 with
 * the reason in @p->why.
 */
int tracefs_find(struct tracefs_place *p);
/**
 * tracefs_usable() - 1 if tracefs is mounted or this process could mount
 * it; else 0 with the reason in @why. Mounts nothing.
 */
int tracefs_usable(char *why, size_t len);
#endif
