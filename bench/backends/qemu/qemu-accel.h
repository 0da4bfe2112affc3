/* SPDX-License-Identifier: MIT */
/*
 * qemu-accel.h - which accelerator a qemu cell's VM runs under, and why:
 * `accel = kvm` or `tcg` as asked (never changed), `auto` honestly: KVM
 * only when /dev/kvm opens and QEMU under KVM gets the guest going; a QEMU
 * that ends under KVM before the guest's first console byte with a KVM
 * error (QEMU 7.2 -cpu host on a nested host: "failed to set MSR 0x10a")
 * is started once more under TCG. The choice and the reason are recorded
 * per cell (cell_param qemu.accel, qemu.accel_reason). Which accelerator a
 * cell starts under is decided in one place, qemu_accel_for_cell(): the
 * backend's supported() and cell_accel() (the PLE knob, `cvmbench list`),
 * `cvmbench qemu-argv` and qemu_accel_start() all ask it.
 */
#ifndef CVMBENCH_QEMU_ACCEL_H
#define CVMBENCH_QEMU_ACCEL_H

#include <stddef.h>

#include "cell.h"
#include "vm.h"

/**
 * struct qemu_accel - @used "kvm" or "tcg"; @reason: why, in one line;
 * @host: what this host said of /dev/kvm where that decided (accel = auto,
 * not a CVM: "/dev/kvm opens" or why not) or refused (accel = kvm), else
 * ""; @fallback: 1
 * when a run starts the VM again under TCG if QEMU under KVM dies before
 * the guest's first console byte (auto, a regular or model VM, on KVM).
 */
struct qemu_accel {
	char used[8];
	char reason[640];
	char host[256];
	int fallback;
};

/**
 * qemu_accel_for_cell() - the accelerator cell @c's VMs start under, into
 * @acc: accel = kvm or tcg as asked; auto: kvm for a SEV-SNP or TDX guest,
 * else kvm where /dev/kvm opens (with @acc->fallback), else tcg. Changes
 * nothing. Returns 1, or 0 when it cannot be had here (accel = kvm where
 * /dev/kvm does not open; @acc->reason says so).
 */
int qemu_accel_for_cell(const struct cell *c, struct qemu_accel *acc);

/**
 * qemu_accel_start() - vm_start() @vc (its accel set here) for cell @c
 * within @timeout_s under qemu_accel_for_cell()'s accelerator, falling
 * back to TCG as above; @acc says which and why (also on failure: the
 * last one tried). 0 or vm_start()'s error.
 */
int qemu_accel_start(const struct cell *c, struct vm *vm, struct vm_config *vc,
		     double timeout_s, struct qemu_accel *acc, char *err, size_t errlen);

#endif
