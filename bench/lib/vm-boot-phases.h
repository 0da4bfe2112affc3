/* SPDX-License-Identifier: MIT */
/*
 * vm-boot-phases.h - the names of a VM's boot phases (table vm_boot,
 * results-schema/005-vm-boot.sql), in boot order: the one list the qemu
 * backend writes (bench/backends/qemu/vm-boot.c) and the analysis reads
 * (`show`, the vm-boot figure). A phase's seq is 10 times its place here,
 * so finer phases (kvm_pio markers under KVM) fit between.
 *
 *   X(ident, name, clock)
 */
#ifndef CVMBENCH_VM_BOOT_PHASES_H
#define CVMBENCH_VM_BOOT_PHASES_H

#define VM_BOOT_PHASES(X) \
	X(QEMU_SPAWN, "qemu-spawn", "host-monotonic") \
	X(FIRST_CONSOLE, "first-console", "host-monotonic") \
	X(CONSOLE_ENABLED, "console-enabled", "guest-kernel") \
	X(RUN_INIT, "run-init", "guest-kernel") \
	X(INIT_START, "init-start", "guest-kernel") \
	X(GUEST_READY, "guest-ready", "guest-kernel") \
	X(READY, "ready", "host-monotonic")

#define VM_BOOT_ENUM_(id, name, clock) VM_BOOT_##id,
enum vm_boot_phase_id { VM_BOOT_PHASES(VM_BOOT_ENUM_) VM_BOOT_NPHASES };
#undef VM_BOOT_ENUM_

#define VM_BOOT_SEQ_STEP 10

#define VM_CLOCK_HOST_NAME "host-monotonic"
#define VM_CLOCK_GUEST_NAME "guest-kernel"

#endif
