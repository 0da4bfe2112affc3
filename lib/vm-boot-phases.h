/* SPDX-License-Identifier: MIT */
/*
 * vm-boot-phases.h - the names of a VM's boot phases (table vm_boot,
 * results-schema/005-vm-boot.sql), in boot order: the one list the qemu
 * backend writes (bench/backends/qemu/vm-boot.c) and the analysis reads
 * (`show`, the vm-boot figure). A phase's seq is 10 times its place here,
 * so finer phases (kvm_pio markers under KVM) fit between.
 *
 *   X(ident, name, guest)   guest: 1 = on the guest kernel's clock, 0 = the host's
 */
#ifndef CVMBENCH_VM_BOOT_PHASES_H
#define CVMBENCH_VM_BOOT_PHASES_H

#define VM_BOOT_PHASES(X) \
	X(QEMU_SPAWN, "qemu-spawn", 0) \
	X(FIRST_CONSOLE, "first-console", 0) \
	X(CONSOLE_ENABLED, "console-enabled", 1) \
	X(RUN_INIT, "run-init", 1) \
	X(INIT_START, "init-start", 1) \
	X(GUEST_READY, "guest-ready", 1) \
	X(READY, "ready", 0)

#define VM_BOOT_ENUM_(id, name, guest) VM_BOOT_##id,
enum vm_boot_phase_id { VM_BOOT_PHASES(VM_BOOT_ENUM_) VM_BOOT_NPHASES };
#undef VM_BOOT_ENUM_

#define VM_BOOT_SEQ_STEP 10

#define VM_CLOCK_HOST_NAME "host-monotonic"
#define VM_CLOCK_GUEST_NAME "guest-kernel"

#endif
