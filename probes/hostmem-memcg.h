/* SPDX-License-Identifier: MIT */
/*
 * hostmem-memcg.h - the hostmem probe's view through memory cgroups: each
 * instance process's memory cgroup, when it holds that process alone (the
 * qemu backend gives every VM's QEMU one: vm-memcg.h), read for its charged
 * memory and memory.stat. This counts what smaps cannot: a confidential
 * guest's private memory (guest_memfd) is charged there and mapped nowhere.
 */
#ifndef CVMBENCH_HOSTMEM_MEMCG_H
#define CVMBENCH_HOSTMEM_MEMCG_H

#include <limits.h>
#include <sys/types.h>

#include "memcg.h"

struct sink;

struct hm_memcg {
	char path[PATH_MAX];      /* "": not the process's own (why says why) */
	enum memcg_version version;
	char why[300];
	long long usage;          /* kB, last sample; < 0: unread */
	struct memcg_stat st;
};

/** hm_memcg_open() - find process @pid's own memory cgroup, or why there is none. */
void hm_memcg_open(struct hm_memcg *m, const struct memcg_host *h, pid_t pid);
/** hm_memcg_sample() - read its usage and memory.stat (usage -1 when unreadable). */
void hm_memcg_sample(struct hm_memcg *m);
/**
 * hm_memcg_emit() - per process and summed over the @n processes: the
 * charged memory and memory.stat's lines, and how the sum compares with
 * the summed PSS @pss_sum (< 0: none). A process without a cgroup of its
 * own is a skip row when the cell's instances are VMs (@vms: each should
 * have one), else a note (native and container instances share theirs).
 */
void hm_memcg_emit(struct sink *s, const struct hm_memcg *m, int n, long long pss_sum,
		   int vms);

#endif
