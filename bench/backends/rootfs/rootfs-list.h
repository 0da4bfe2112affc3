/* SPDX-License-Identifier: MIT */
/*
 * rootfs-list.h - the rootfs lists of a configs directory for `cvmbench
 * list`: which are built here (rootfs-state.c).
 */
#ifndef CVMBENCH_ROOTFS_LIST_H
#define CVMBENCH_ROOTFS_LIST_H

struct cJSON;

/**
 * rootfs_list_json() - one {name, about, supported, reason, hash} per
 * @configs/rootfs/NAME.list into @arr: supported when built here from the
 * list as it is now (rootfs_state()), else why not.
 */
void rootfs_list_json(struct cJSON *arr, const char *configs);

#endif
