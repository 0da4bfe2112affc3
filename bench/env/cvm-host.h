/* SPDX-License-Identifier: MIT */
/*
 * cvm-host.h - what this machine offers as a host of confidential guests
 * (SEV-SNP, TDX), piece by piece: /dev/kvm, the VM types KVM accepts
 * (KVM_CAP_VM_TYPES), the kvm_amd sev_snp / kvm_intel tdx parameters, a
 * QEMU that lists the guest object, a firmware file. Read through the test
 * root (sysroot.h): there /dev/kvm is the file "dev-kvm" ("present" or
 * "absent") and the KVM_CAP_VM_TYPES mask the file "kvm-vm-types" (a
 * number; absent: not captured). The qemu backend's supported(), `cvmbench
 * env` and `cvmbench list` all ask these.
 */
#ifndef CVMBENCH_CVM_HOST_H
#define CVMBENCH_CVM_HOST_H

#include <stddef.h>

/* KVM_X86_*_VM of <asm/kvm.h> (Linux 6.10+), bits of KVM_CAP_VM_TYPES */
#define CVM_HOST_KVM_X86_SNP_VM 4
#define CVM_HOST_KVM_X86_TDX_VM 5
#define CVM_HOST_KVM_CAP_VM_TYPES 235

/**
 * cvm_host_kvm_opens() - 1 when /dev/kvm opens read-write (test root: its
 * "dev-kvm" file says present), else 0 with the reason in @why.
 */
int cvm_host_kvm_opens(char *why, size_t len);

/**
 * cvm_host_vm_types() - the KVM_CAP_VM_TYPES mask into @mask (0 when the
 * kernel does not know the capability). 0, or -errno with @why.
 */
int cvm_host_vm_types(unsigned int *mask, char *why, size_t len);

/**
 * cvm_host_qemu_has() - 1 when `@qemu -object help` lists @object (a line
 * of its own), 0 when not or when it cannot be asked, @why saying which:
 * a QEMU that answers -version is named by it ("QEMU 10.0 (PATH) has no
 * tdx-guest (needs >= 10.1)").
 * @qemu: a path, a name looked up in PATH, or NULL/"" for
 * qemu-system-x86_64. The listing of a binary is read once per process.
 */
int cvm_host_qemu_has(const char *qemu, const char *object, char *why, size_t len);

/**
 * cvm_host_check() - can this host launch a @type ("sev-snp" or "tdx")
 * guest with @qemu and @firmware (NULL: not checked)? 1, or 0 with every
 * missing piece in @why ("; " between them). Changes nothing.
 */
int cvm_host_check(const char *type, const char *qemu, const char *firmware,
		   char *why, size_t len);

#endif
