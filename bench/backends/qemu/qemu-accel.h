/* SPDX-License-Identifier: MIT */
/*
 * qemu-accel.h - which accelerator and CPU model a qemu cell's VMs run
 * under, and why: `accel = kvm` or `tcg` as asked (never changed), `auto`
 * honestly: KVM only when /dev/kvm opens and QEMU under KVM gets the guest
 * going. A QEMU that ends under KVM before the guest's first console byte
 * with a KVM or MSR error (QEMU 7.2 -cpu host on a nested host: "failed to
 * set MSR 0x10a") is started again under KVM with other models (a cell
 * with cpu = auto: host,-arch-capabilities, then qemu64; accel = kvm too,
 * the accelerator as asked), then under TCG (auto only);
 * the outcome is remembered for the process (per QEMU binary). The choice
 * and the reason are recorded per cell (cell_param qemu.accel,
 * qemu.accel_reason, qemu.cpu, qemu.cpu_reason). Which accelerator and
 * model a cell starts under is decided in one place, qemu_accel_for_cell():
 * the backend's supported() and cell_accel() (the PLE knob, `cvmbench
 * list`), `cvmbench qemu-argv`, `cvmbench env` and qemu_accel_start() all ask it.
 */
#ifndef CVMBENCH_QEMU_ACCEL_H
#define CVMBENCH_QEMU_ACCEL_H

#include <stddef.h>

#include "cell.h"
#include "env.h"
#include "vm.h"

/**
 * struct qemu_accel - @used "kvm" or "tcg"; @reason: why, in one line;
 * @host: what this host said of /dev/kvm where that decided (accel = auto,
 * not a CVM: "/dev/kvm opens" or why not) or refused (accel = kvm), else
 * ""; @cpu: the -cpu model the VMs get (QEMU_TCG_DEFAULT_CPU where the argv
 * gives none); @cpu_reason: why; @cpu_arg: the -cpu this decision sets over
 * the cell's ("" = the cell's own, qemu_accel_vm_config()); @fallback: 1
 * when a run starts the VM again under TCG if QEMU under KVM dies before
 * the guest's first console byte (auto, a regular or model VM, on KVM);
 * @cpu_retry: 1 when it first tries the other CPU models under KVM (a
 * regular or model VM with cpu = auto, accel auto or kvm, on KVM).
 */
struct qemu_accel {
	char used[8];
	char reason[1024];
	char host[256];
	char cpu[64];
	char cpu_reason[1024];
	char cpu_arg[64];
	int fallback;
	int cpu_retry;
};

/**
 * qemu_accel_for_cell() - the accelerator and CPU model cell @c's VMs
 * start under, into @acc: accel = kvm or tcg as asked; auto: kvm for a
 * SEV-SNP or TDX guest, else kvm where /dev/kvm opens (with
 * @acc->fallback), else tcg; where this process already found what KVM
 * takes from the same QEMU (a cpu = auto cell), that model, or tcg. Changes
 * nothing. Returns 1, or 0 when it cannot be had here (accel = kvm where
 * /dev/kvm does not open; @acc->reason says so).
 */
int qemu_accel_for_cell(const struct cell *c, struct qemu_accel *acc);

/**
 * qemu_accel_start() - vm_start() @vc (its accel set here) for cell @c
 * within @timeout_s under qemu_accel_for_cell()'s accelerator, falling
 * back to other models and TCG as above; @acc says which and why (also on
 * failure: the last one tried). 0 or vm_start()'s error.
 */
int qemu_accel_start(const struct cell *c, struct vm *vm, struct vm_config *vc,
		     double timeout_s, struct qemu_accel *acc, char *err, size_t errlen);

/**
 * qemu_accel_vm_config() - give @vc @acc's accelerator and, where @acc
 * sets one, its -cpu model (the later VMs of a cell start as the first).
 */
void qemu_accel_vm_config(const struct qemu_accel *acc, struct vm_config *vc);

/**
 * qemu_accel_note() - @acc as the cell's params, through @note: qemu.accel,
 * qemu.accel_reason, qemu.cpu, qemu.cpu_reason.
 */
void qemu_accel_note(const struct qemu_accel *acc,
		     void (*note)(void *ctx, const char *key, const char *value), void *ctx);

/**
 * qemu_accel_env_facts() - qemu.accel and qemu.cpu for `cvmbench env`: what
 * a cell with accel = auto and cpu = auto would start with here, as far as
 * it is known without starting QEMU (backend_ops.env_facts).
 */
void qemu_accel_env_facts(env_emit_fn emit, void *ctx);

/** qemu_accel_forget() - drop what this process found under KVM (for tests). */
void qemu_accel_forget(void);

#endif
