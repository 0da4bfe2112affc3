/* SPDX-License-Identifier: MIT */
/*
 * pin-vcpu.h - the `pin` key for the qemu backend's vCPU threads
 * (pin-vcpu.c): the CPUs come from the pin knob (knob-pin.h
 * pin_instance_cpus()), the threads from QMP query-cpus-fast.
 */
#ifndef CVMBENCH_PIN_VCPU_H
#define CVMBENCH_PIN_VCPU_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

/**
 * pin_vcpus() - bind the vCPU threads of the VM @vm of a qemu cell (QEMU
 * @qemu, its QMP socket @qmp_path) as the cell's pin says: the VM's vCPU j
 * as instance @first + j, QEMU's other threads to the union;
 * what each vCPU thread obtained, read back, goes to @put as
 * pin.obtained.vcpuJ (VM 0) or pin.obtained.vmV.vcpuJ. 0 (also when the
 * cell is unpinned), or -errno with @err.
 */
int pin_vcpus(pid_t qemu, const char *qmp_path, int vm, int first,
	      void (*put)(void *ctx, const char *key, const char *value), void *ctx,
	      char *err, size_t errlen);

/**
 * pin_vcpus_on() - as pin_vcpus() for a VM that is not the cell's (the
 * co-runner VM): its vCPU j on @sets[j % @nsets], QEMU's other threads on
 * their union, what each vCPU thread obtained as @prefix vcpuJ through @put.
 * 0 or -errno with @err.
 */
int pin_vcpus_on(pid_t qemu, const char *qmp_path, const cpu_set_t *sets, int nsets,
		 const char *prefix, void (*put)(void *ctx, const char *key, const char *value),
		 void *ctx, char *err, size_t errlen);

#endif
