/* SPDX-License-Identifier: MIT */
/*
 * qemu-seed.h - `seed-layer` in a qemu cell: one `cvmfn seed` per VM,
 * started inside the guest by its agent (agent-guest.h seed-start), and
 * every instance a child it forks on the instance's port (qemu_vms_spawn()
 * sends `fork I`). The children's start-up split and their memory, read in
 * the guest by the agent, go into seed_start and seed_memory through the
 * same writer as backend zygote's (seed-rows.h).
 */
#ifndef CVMBENCH_QEMU_SEED_H
#define CVMBENCH_QEMU_SEED_H

#include <stddef.h>

#include "backend.h"
#include "qemu-vms.h"
#include "seed-rows.h"

/** struct qemu_seed - a qemu cell's seeds; @on 0: the cell has none. */
struct qemu_seed {
	int on;
	struct seed_tally tally;
	const struct backend_env *env;
};

/** qemu_seed_supported() - 1 if @c's seed-layer can run in its guests, else 0 with @why. */
int qemu_seed_supported(const struct cell *c, char *why, size_t len);
/** qemu_seed_init() - for @c (nothing to do when its seed-layer is none). */
void qemu_seed_init(struct qemu_seed *s, const struct cell *c, const struct backend_env *env);
/**
 * qemu_seed_start() - a seed at @c's layer in every VM of @v; VM 0's seed
 * PSS kept for the layer metric. 0, or -errno with @err naming the VM.
 */
int qemu_seed_start(struct qemu_seed *s, struct qemu_vms *v, const struct cell *c,
		    char *err, size_t errlen);
/**
 * qemu_seed_before_fork() - seed_memory rows (called = 0) of the VM the
 * next instance goes to, when it has live children.
 */
void qemu_seed_before_fork(struct qemu_seed *s, struct qemu_vms *v);
/**
 * qemu_seed_verify() - after the calls: every VM's children's start-up
 * records, their memory (called = 1), each seed's pid and its children's
 * parents as notes seed.vmI.*, the layer metrics. 0, or -errno with @why.
 */
int qemu_seed_verify(struct qemu_seed *s, struct qemu_vms *v, char *why, size_t len);
/** qemu_seed_gone() - instance @in (a child in a VM) has been closed. */
void qemu_seed_gone(struct qemu_vms *v, const struct instance *in);

#endif
