/* SPDX-License-Identifier: MIT */
/*
 * memcg.h - memory cgroups for the processes a cell starts (a VM's QEMU),
 * so that memory a process never maps is still counted: a confidential
 * guest's private memory comes from guest_memfd, charged to the memory
 * cgroup of the task that faults it and absent from /proc/PID/smaps.
 *
 * Where: cgroup v2 where the memory controller is enabled for children of
 * the caller's cgroup (its cgroup.subtree_control), else of the v2 root
 * (the usual case: a v2 cgroup that holds processes, as the caller's does,
 * cannot pass controllers to children, so on a systemd host the VMs'
 * cgroups are made at the root);
 * cgroup v1's memory hierarchy (below the caller's own memory cgroup)
 * where not; neither is a reason (memcg_host.why). All paths are read
 * through sysroot.h, so tests run this on fake trees.
 */
#ifndef CVMBENCH_MEMCG_H
#define CVMBENCH_MEMCG_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

enum memcg_version { MEMCG_NONE = 0, MEMCG_V1 = 1, MEMCG_V2 = 2 };

struct memcg_host {
	enum memcg_version version;
	char parent[PATH_MAX];    /* new cgroups are made here */
	char why[256];            /* MEMCG_NONE: why there is no memory cgroup */
};

/* memory.stat of one cgroup, kB; -1 where this version has no such line. */
struct memcg_stat {
	long long anon;           /* v2 anon, v1 rss */
	long long file;           /* v2 file, v1 cache */
	long long shmem;          /* shmem and memfd pages (in file too) */
	long long unevictable;    /* guest_memfd pages are unevictable */
	long long kernel;         /* v2 kernel (Linux >= 5.18); v1: -1 */
};

/** memcg_detect() - where this machine has memory cgroups for us. */
void memcg_detect(struct memcg_host *h);
/** memcg_create() - the cgroup @name below h->parent, path into @path; 0 or -errno. */
int memcg_create(const struct memcg_host *h, const char *name, char *path, size_t len);
/** memcg_attach() - move process @pid into the cgroup at @path; 0 or -errno. */
int memcg_attach(const char *path, pid_t pid);
/** memcg_usage_kb() - the cgroup's charged memory (v2 memory.current), or -errno. */
long long memcg_usage_kb(const char *path, enum memcg_version v);
/** memcg_stat_parse() - @text of a memory.stat of version @v into @s; 0 or -EINVAL. */
int memcg_stat_parse(const char *text, enum memcg_version v, struct memcg_stat *s);
/** memcg_stat_read() - memory.stat of the cgroup at @path; 0 or -errno. */
int memcg_stat_read(const char *path, enum memcg_version v, struct memcg_stat *s);
/**
 * memcg_of_pid() - the memory cgroup of process @pid, as a directory
 * (into @path), and its version; 0 or -errno.
 */
int memcg_of_pid(const struct memcg_host *h, pid_t pid, char *path, size_t len);
/**
 * memcg_others() - how many processes other than @pid the cgroup at @path
 * holds (its cgroup.procs), or -errno. Its figures are @pid's when 0.
 */
int memcg_others(const char *path, pid_t pid);
/**
 * memcg_remove() - remove the (empty) cgroup at @path; its charges go to
 * its parent. 0, or -errno (-EBUSY while a process is still in it).
 */
int memcg_remove(const char *path);

#endif
