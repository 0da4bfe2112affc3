/* SPDX-License-Identifier: MIT */
/*
 * vm-memcg.h - each VM's QEMU in a memory cgroup of its own (memcg.h), so
 * that the hostmem probe can count memory QEMU never maps: a confidential
 * guest's private memory (guest_memfd) is charged to that cgroup and is
 * absent from QEMU's smaps. Journalled before it is made (kind
 * "vm-memcg"), removed when the VM ends, by restore after a kill.
 */
#ifndef CVMBENCH_VM_MEMCG_H
#define CVMBENCH_VM_MEMCG_H

#include <sys/types.h>

struct vm;

/**
 * vm_memcg_join() - put the child @pid (not yet exec'd) into a new memory
 * cgroup of its own. Where the machine has none, or it cannot be made,
 * the VM runs where cvmbench runs (the probe then says so); logged once.
 * Without an open journal (`cvmbench guest boot`) no cgroup is made.
 */
void vm_memcg_join(struct vm *vm, pid_t pid);
/** vm_memcg_leave() - remove the VM's cgroup once QEMU is reaped. */
void vm_memcg_leave(struct vm *vm);

#endif
