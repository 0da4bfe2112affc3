/* SPDX-License-Identifier: MIT */
/*
 * cgroup2-mount.h - where cgroup2 is mounted and with which options, read
 * from /proc/self/mountinfo (the favordynmods knob, the crun backend).
 */
#ifndef CVMBENCH_CGROUP2_MOUNT_H
#define CVMBENCH_CGROUP2_MOUNT_H

#include <stddef.h>

/**
 * cgroup2_mount() - the first cgroup2 mount point into @path and its
 * superblock options without favordynmods, ro and rw into @opts; *@favor
 * is 1 when favordynmods is among them. 0, or -ENOENT when none is mounted.
 */
int cgroup2_mount(char *path, size_t plen, char *opts, size_t olen, int *favor);

#endif
