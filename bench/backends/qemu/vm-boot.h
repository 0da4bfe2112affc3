/* SPDX-License-Identifier: MIT */
/*
 * vm-boot.h - the boot phases of one VM (table vm_boot,
 * results-schema/005-vm-boot.sql): the host's view (QEMU spawned, first
 * console byte, ready line) and the guest kernel's own timestamps read
 * from its serial console (console enabled, Run /init, /init started) and
 * the ready line (guest uptime). Each phase says which clock it is on.
 */
#ifndef CVMBENCH_VM_BOOT_H
#define CVMBENCH_VM_BOOT_H

#include <stddef.h>

struct sink;
struct vm;

enum vm_boot_clock { VM_CLOCK_HOST, VM_CLOCK_GUEST };

/* One phase seen: @t_ns on @clock (host: CLOCK_MONOTONIC; guest: since its kernel started). */
struct vm_boot_phase {
	const char *phase;
	int seq;
	long long t_ns;
	enum vm_boot_clock clock;
	const char *source;
	long long resolution_ns;
};

#define VM_BOOT_MAX_PHASES 8

/**
 * vm_boot_console_scan() - the guest-clock phases printed on a console
 * (text @buf of @len bytes): the printk timestamps of "printk: console
 * [ttyS0] enabled" and "Run /init as init process", and the uptime /init
 * logs as "cvmbench-init: start uptime=S". Only those found are written to
 * @out (at most @max); returns how many.
 */
size_t vm_boot_console_scan(const char *buf, size_t len, struct vm_boot_phase *out,
			    size_t max);

/**
 * vm_boot_phases() - every phase of @vm's boot seen so far, in order: the
 * host's (from struct vm_phases) and, while its console file exists, the
 * guest's. Returns how many were written to @out (at most @max).
 */
size_t vm_boot_phases(const struct vm *vm, struct vm_boot_phase *out, size_t max);

/**
 * vm_boot_store() - write the phases of @vm (the cell's VM number @vm_idx)
 * to @s's vm_boot table. Nothing when @s is NULL (no run: `guest boot`).
 * Returns 0 or the first -errno of a row.
 */
int vm_boot_store(struct sink *s, int vm_idx, const struct vm *vm);

#endif
