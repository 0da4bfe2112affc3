/* SPDX-License-Identifier: MIT */
/*
 * cgroup-room.h - how many more cgroups this host allows: the memory
 * controller's ID space (the kernel's MEM_CGROUP_ID_MAX, 65535, for v1
 * and v2 alike) less the memory cgroups that exist (/proc/cgroups,
 * num_cgroups; read through sysroot.h, so tests use fake trees). A pool
 * of cgroups larger than this cannot be made (`cgroup-pool`).
 */
#ifndef CVMBENCH_CGROUP_ROOM_H
#define CVMBENCH_CGROUP_ROOM_H

#include <stddef.h>

#define CGROUP_MEMCG_ID_MAX 65535

/**
 * cgroup_room() - the cgroups that can still be made, or -1 with the
 * reason in @why when /proc/cgroups has no enabled memory controller (no
 * limit known: the caller decides).
 */
long cgroup_room(char *why, size_t len);

#endif
