/* SPDX-License-Identifier: MIT */
/*
 * calib-vmexit.h - the vmexit probe's sources against the micro-VM
 * (kvm-toy.h): in each window the micro-VM makes known numbers of port-I/O,
 * MMIO and HLT exits; kvm:kvm_userspace_exit by reason and kvm:kvm_exit by
 * (isa, reason) are counted for its thread with the counting engine, and
 * KVM's own per-vCPU statistics are read beside them.
 */
#ifndef CVMBENCH_CALIB_VMEXIT_H
#define CVMBENCH_CALIB_VMEXIT_H

#include <stdio.h>

struct calib_vmexit_opts {
	long io;                  /* port-I/O exits in window 0 (others scale) */
	int windows;
};

/**
 * calib_vmexit() - run it, print requested against counted on @out.
 * Returns 0 when every count that can be checked is exact, 1 on a
 * mismatch, -errno when it cannot run here (reason in @why).
 */
int calib_vmexit(const struct calib_vmexit_opts *o, FILE *out, char *why, size_t whylen);

#endif
