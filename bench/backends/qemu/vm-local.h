/* SPDX-License-Identifier: MIT */
/* vm-local.h - between vm.c (the process) and vm-io.c (the guest's lines). */
#ifndef CVMBENCH_VM_LOCAL_H
#define CVMBENCH_VM_LOCAL_H

#include "vm.h"

/**
 * vm_prepare() - zero @vm, make its private directory and listening
 * sockets: the agent's and @nports instance ports' (iN.sock).
 */
int vm_prepare(struct vm *vm, unsigned int nports);
/** vm_accept_ports() - accept QEMU's connection to each instance port's socket. */
int vm_accept_ports(struct vm *vm, int timeout_ms);
/** vm_spawn() - fork, journal the child's pid, then let it exec @a. */
int vm_spawn(struct vm *vm, const struct qemu_argv *a);

#endif
