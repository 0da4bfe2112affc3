/* SPDX-License-Identifier: MIT */
/*
 * pidns.h - which pid namespace this process is in. Thread ids given to the
 * counting engine are ids of this process's namespace; the kernel's trace
 * records (common_pid, set_event_pid) and bpf_get_current_pid_tgid() use the
 * ids of the initial namespace, so a method that compares them must know
 * whether the two are the same (tpcount-bpf.c, tpcount-stream.c).
 */
#ifndef CVMBENCH_PIDNS_H
#define CVMBENCH_PIDNS_H

#include <stdint.h>
#include <sys/types.h>

/* The initial pid namespace's inode number (PROC_PID_INIT_INO, include/linux/proc_ns.h). */
#define PIDNS_INIT_INO 0xEFFFFFFCu

/* A pid namespace as bpf_get_ns_current_pid_tgid() takes it. */
struct pidns_id {
	uint64_t dev;             /* the nsfs device, in the kernel's encoding (MKDEV) */
	uint64_t ino;
};

/** pidns_self() - this process's pid namespace (/proc/self/ns/pid); 0 or -errno. */
int pidns_self(struct pidns_id *ns);
/**
 * pidns_is_initial() - 1 when @ns is the initial pid namespace, whose ids
 * the kernel's trace records carry, else 0.
 */
int pidns_is_initial(const struct pidns_id *ns);
/**
 * pidns_of_task() - 0 when thread @tid is in pid namespace @ns itself (not
 * a child of it), -EXDEV when it is in another, else -errno.
 */
int pidns_of_task(pid_t tid, const struct pidns_id *ns);

#endif
