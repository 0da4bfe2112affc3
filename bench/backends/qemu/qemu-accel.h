/* SPDX-License-Identifier: MIT */
/*
 * qemu-accel.h - which accelerator a qemu cell's VM runs under, and why:
 * `accel = kvm` or `tcg` as asked (never changed), `auto` honestly: KVM
 * only when /dev/kvm opens and QEMU under KVM gets the guest going; a QEMU
 * that ends under KVM before the guest's first console byte with a KVM
 * error (QEMU 7.2 -cpu host on a nested host: "failed to set MSR 0x10a")
 * is started once more under TCG. The choice and the reason are recorded
 * per cell (cell_param qemu.accel, qemu.accel_reason).
 */
#ifndef CVMBENCH_QEMU_ACCEL_H
#define CVMBENCH_QEMU_ACCEL_H

#include <stddef.h>

#include "cell.h"
#include "vm.h"

/** struct qemu_accel - @used "kvm" or "tcg"; @reason: why, in one line. */
struct qemu_accel {
	char used[8];
	char reason[640];
};

/**
 * qemu_accel_start() - vm_start() @vc (its accel set here) for cell @c
 * within @timeout_s, choosing the accelerator as above; @acc says which
 * and why (also on failure: the last one tried). 0 or vm_start()'s error.
 */
int qemu_accel_start(const struct cell *c, struct vm *vm, struct vm_config *vc,
		     double timeout_s, struct qemu_accel *acc, char *err, size_t errlen);

#endif
