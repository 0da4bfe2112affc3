/* SPDX-License-Identifier: MIT */
/*
 * tracefs-find.h - is tracefs mounted, or could it be, found without
 * mounting it (libtracefs's tracefs_tracing_dir() mounts it as a side
 * effect, so `list`, `env` and the probes' supported() checks use this).
 * A run that needs it mounts it through tracefs_mount_for_run() and
 * unmounts what it mounted with tracefs_unmount_ours().
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
/**
 * tracefs_mount_for_run() - make sure tracefs is mounted before libtracefs
 * is asked for it: 0 when it was already mounted, 1 when this call mounted
 * it at TRACEFS_MOUNT_POINT (remembered for tracefs_unmount_ours()), or
 * -errno with the reason in @why.
 */
int tracefs_mount_for_run(char *why, size_t len);
/**
 * tracefs_unmount_ours() - unmount tracefs if tracefs_mount_for_run()
 * mounted it; 1 if it did, 0 if there was nothing of ours, or -errno.
 */
int tracefs_unmount_ours(void);

#endif
