/* SPDX-License-Identifier: MIT */
/*
 * knob-pin.h - the `pin` key (placement.h): the CPUs each instance of a
 * cell runs on. The knob resolves the spec against the topology when the
 * cell starts (an object the machine lacks skips the cell with the reason);
 * the qemu backend binds its VMs' vCPU threads once they are up
 * (pin-vcpu.h pin_vcpus()); for the other backends the cell binds its own thread to
 * instance i's CPUs around that instance's spawn (the child inherits them)
 * and reads back what the instance obtained with sched_getaffinity(2).
 */
#ifndef CVMBENCH_KNOB_PIN_H
#define CVMBENCH_KNOB_PIN_H

#include <sched.h>
#include <stddef.h>
#include <sys/types.h>

#include "knob.h"

/* Room for any CPU list these functions write (placement.h's PLACEMENT_CPUS_TEXT_MAX). */
#define PIN_CPUS_TEXT_MAX 2048

/** pin_instance_cpus() - instance @idx's CPUs: 1, or 0 when unpinned. */
int pin_instance_cpus(int idx, cpu_set_t *set);
/** pin_spawn_enter() - bind this thread for instance @idx: 0 or -errno. */
int pin_spawn_enter(int idx);
/**
 * pin_spawn_cpus() - "CPUS" that pin_spawn_enter() bound this thread to for
 * the spawn in progress (for a container's config.json): 1, or 0 when the
 * cell is unpinned or no spawn is in progress, or -ENOSPC when @len cannot
 * hold the whole list (never hand on part of it: PIN_CPUS_TEXT_MAX can).
 */
int pin_spawn_cpus(char *buf, size_t len);
/** pin_spawn_leave() - give this thread its CPUs back. */
void pin_spawn_leave(void);
/**
 * pin_obtained() - "CPUS" that @pid may run on, read back: 0 or -errno
 * (-ENOSPC: @len too short, @buf ends in ",..."; PIN_CPUS_TEXT_MAX is not).
 */
int pin_obtained(pid_t pid, char *buf, size_t len);
/**
 * pin_obtained_child() - "CPUS" that the last descendant of @pid may run
 * on (a container runtime's container: runc's child is its cvmfn), read
 * back: 0, -ESRCH when @pid has none, or -errno.
 */
int pin_obtained_child(pid_t pid, char *buf, size_t len);
/** pin_vcpus_note() - pin_vcpus() (pin-vcpu.h) pinned one more VM of the cell. */
void pin_vcpus_note(void);
/** pin_vcpus_pinned() - how many VMs of the cell pin_vcpus() pinned (0 after the cell). */
int pin_vcpus_pinned(void);
/**
 * pin_sanity() - the setup flags of the cell (stored as cell_param
 * "sanity.*", listed by `cvmbench show`): the vCPU threads of @backend's
 * guests unpinned (a backend that boots guests, pin_vcpus_pinned() 0); a co-runner (@corunner > 0: its
 * pid) under a last-level cache that the instance @pid also runs under.
 */
void pin_sanity(const char *backend, pid_t pid, pid_t corunner,
		void (*put)(void *ctx, const char *key, const char *value), void *ctx);

#endif
