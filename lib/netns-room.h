/* SPDX-License-Identifier: MIT */
/*
 * netns-room.h - how many more network namespaces this host allows: the
 * kernel's limit for the user (/proc/sys/user/max_net_namespaces, the
 * ucount every new namespace takes, root included) less the network
 * namespaces its processes hold (distinct /proc/PID/ns/net; read through
 * sysroot.h, so tests use fake trees). A pool of namespaces larger than
 * this cannot be made (`netns-pool`).
 */
#ifndef CVMBENCH_NETNS_ROOM_H
#define CVMBENCH_NETNS_ROOM_H

#include <stddef.h>

/**
 * netns_room() - the room left, with the limit in *@max and the namespaces
 * in use in *@used; -1 with @why when the limit cannot be read.
 */
long netns_room(long *max, long *used, char *why, size_t len);

#endif
