/* SPDX-License-Identifier: MIT */
/*
 * kvm-toy.h - a micro-VM made with plain KVM ioctls: one VM, one vCPU in
 * real mode, 32 KiB of RAM and a few bytes of guest code that make exactly
 * the requested numbers of port-I/O, MMIO and HLT exits, then announce the
 * end on a port of its own. No in-kernel interrupt controller, so every
 * one of them is also an exit to user space (kvm_userspace_exit). It is the
 * independent count the vmexit probe is calibrated against.
 */
#ifndef CVMBENCH_KVM_TOY_H
#define CVMBENCH_KVM_TOY_H

#include <stddef.h>
#include <stdint.h>

#define KVM_TOY_IO_PORT   0x10    /* the counted port writes */
#define KVM_TOY_DONE_PORT 0x11    /* the one write that ends a run */
#define KVM_TOY_MMIO_GPA  0x9000  /* outside RAM: every write is an MMIO exit */

struct kvm_toy;

/* What one run asks for, and what user space saw of it. */
struct kvm_toy_run {
	uint32_t io, mmio, hlt;   /* requested */
	long seen_io, seen_mmio, seen_hlt, seen_done, seen_other;
};

/** kvm_toy_code() - the guest code into @buf (at least 64 bytes); its length. */
size_t kvm_toy_code(uint8_t *buf, size_t len);
/**
 * kvm_toy_open() - /dev/kvm, a VM, its memory with the guest code, one
 * vCPU. Returns 0, or -errno with the reason in @err.
 */
int kvm_toy_open(struct kvm_toy **out, char *err, size_t errlen);
/**
 * kvm_toy_exec() - run the guest once from its start: @r->io port writes,
 * @r->mmio MMIO writes, @r->hlt HLTs, then the done port. Fills @r->seen_*.
 * Returns 0, or -errno with the reason in @err.
 */
int kvm_toy_exec(struct kvm_toy *t, struct kvm_toy_run *r, char *err, size_t errlen);
/** kvm_toy_vcpu_fd() - the vCPU's file descriptor (for its KVM stats). */
int kvm_toy_vcpu_fd(const struct kvm_toy *t);
/** kvm_toy_close() - the vCPU, VM and memory released (NULL is fine). */
void kvm_toy_close(struct kvm_toy *t);

#endif
