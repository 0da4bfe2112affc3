/* SPDX-License-Identifier: MIT */
/*
 * corunner-vm.h - the co-runner VM (corunner-in = vm, corunner-vm.c): a
 * second, regular VM beside a qemu cell's VMs, booted from the cell's
 * guest image with the `system` rootfs (redis-server, redis-tools), whose
 * agent runs the kv co-runner inside it (agent-kv.c). The study's Fig. 7
 * ran memtier in such a VM, pinned to the function VM's cores.
 */
#ifndef CVMBENCH_CORUNNER_VM_H
#define CVMBENCH_CORUNNER_VM_H

#include <sched.h>
#include <stddef.h>

#include "cell.h"
#include "qemu-accel.h"
#include "qemu-cell.h"
#include "vm.h"

/* the rootfs the co-runner VM boots (configs/rootfs/system.list) */
#define CORUNNER_VM_ROOTFS "system"
#define CORUNNER_VM_VCPUS 2          /* vCPU 0: the server, vCPU 1: the load */
#define CORUNNER_VM_MEMORY_MIB 1024

/** struct corunner_vm - a running co-runner VM; read only. */
struct corunner_vm {
	struct vm vm;
	struct qemu_guest guest;
	struct qemu_accel acc;
	int booted;
	char append[512];
};

/**
 * corunner_vm_start() - boot the co-runner VM of cell @c (its QEMU, guest
 * kernel and initramfs, accelerator and CPU model; the rootfs
 * CORUNNER_VM_ROOTFS, built if it is not cached; CORUNNER_VM_VCPUS vCPUs,
 * CORUNNER_VM_MEMORY_MIB; never confidential), and with @cpus (NULL:
 * unpinned) its vCPU j on @cpus[j], what each obtained through @put as
 * corunner.vm.vcpuJ. 0, or -errno with @why (the VM then ended).
 */
int corunner_vm_start(struct corunner_vm *cv, const struct cell *c, const cpu_set_t cpus[2],
		      void (*put)(void *ctx, const char *key, const char *value), void *ctx,
		      char *why, size_t len);
/**
 * corunner_vm_ask() - send the request line @req to the co-runner VM's
 * agent, its reply line into @reply within @timeout_ms. 0; -EIO when the
 * reply is `error ...` (@reply holds it); -errno of the link.
 */
int corunner_vm_ask(struct corunner_vm *cv, const char *req, char *reply, size_t len,
		    int timeout_ms);
/** corunner_vm_stop() - end the VM (if booted) by its pid; nothing else. */
void corunner_vm_stop(struct corunner_vm *cv);

#endif
