/* SPDX-License-Identifier: MIT */
/*
 * kvm-stats.h - KVM's own per-vCPU (or per-VM) statistics through the
 * binary stats file descriptor (KVM_GET_STATS_FD, Linux 5.14+): exits,
 * io_exits, mmio_exits, halt_exits, halt polling counters, by name.
 */
#ifndef CVMBENCH_KVM_STATS_H
#define CVMBENCH_KVM_STATS_H

#include <stddef.h>
#include <stdint.h>

/**
 * kvm_stats_read() - the first value of each statistic named in @names
 * (@n of them) from the vCPU or VM file descriptor @fd into @vals; a name
 * the kernel does not have reads as UINT64_MAX. Returns 0, or -errno
 * (-ENOTTY: no binary stats in this kernel).
 */
int kvm_stats_read(int fd, const char *const *names, size_t n, uint64_t *vals);

/**
 * kvm_stats_read_stats_fd() - as kvm_stats_read() from a binary statistics
 * descriptor @sfd itself (one KVM_GET_STATS_FD gave). It needs no ioctl,
 * so it also reads a copy taken from another process (pidfd_getfd), where
 * the vCPU's own ioctls refuse (-EIO: not the VM's address space).
 */
int kvm_stats_read_stats_fd(int sfd, const char *const *names, size_t n, uint64_t *vals);

#endif
