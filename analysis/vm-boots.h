/* SPDX-License-Identifier: MIT */
/*
 * vm-boots.h - the VM boots of a run (table vm_boot, 005-vm-boot.sql), one
 * record per VM with each known phase's time, for `show` and the vm-boot
 * figure. Host-clock phases are given from the VM's qemu-spawn; guest-clock
 * phases from the guest kernel's start.
 */
#ifndef CVMBENCH_VM_BOOTS_H
#define CVMBENCH_VM_BOOTS_H

#include <stddef.h>
#include <stdint.h>

#include "vm-boot-phases.h"

struct sqlite3;
struct cJSON;

struct vm_boot_rec {
	int64_t cell_id;
	char cell_key[64];
	char accel[8];                     /* the one used (qemu.accel), else asked */
	char confidential[12];
	int vm_idx, vcpus, memory_mib;
	long long t_ns[VM_BOOT_NPHASES];   /* -1: not seen */
	int guest[VM_BOOT_NPHASES];        /* 1: on the guest kernel's clock */
};

/**
 * vm_boots_load() - every VM boot of @run_id, in cell and VM order, into
 * *@out (malloc'd; free() it). A database without the table, or a run
 * without boots, gives none. Returns 0 or -errno.
 */
int vm_boots_load(struct sqlite3 *h, int64_t run_id, struct vm_boot_rec **out, size_t *n);

/** vm_boot_phase_name() - the name of phase @id (vm-boot-phases.h). */
const char *vm_boot_phase_name(int id);

/** vm_boots_print() - the boots of @run_id as a table on stdout (nothing if none). */
void vm_boots_print(struct sqlite3 *h, int64_t run_id);

/** vm_boots_json() - the boots of @run_id as a JSON array; NULL on error. */
struct cJSON *vm_boots_json(struct sqlite3 *h, int64_t run_id);

#endif
