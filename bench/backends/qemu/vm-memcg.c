// SPDX-License-Identifier: MIT
/*
 * vm-memcg.c - a memory cgroup of its own for each VM's QEMU (vm-memcg.h):
 * "cvmbench-vm-PID-N" below the cgroup memcg_detect() finds, made after the
 * fork and before QEMU is exec'd (vm.c's go byte), so that every page QEMU
 * and KVM allocate for the guest is charged there.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "journal.h"
#include "log.h"
#include "memcg.h"
#include "sysfs.h"
#include "sysroot.h"
#include "vm.h"
#include "vm-memcg.h"

#define MEMCG_PREFIX "cvmbench-vm-"

/* Undo: remove the cgroup (its QEMU died with cvmbench: wait for it to empty). */
static int memcg_undo(const char *path)
{
	const char *base = strrchr(path, '/');
	char real[PATH_MAX];

	if (!base || strncmp(base + 1, MEMCG_PREFIX, strlen(MEMCG_PREFIX)))
		return -EINVAL;
	return sysfs_rmdir_busy(sysroot_path(path, real, sizeof(real)), 2000);
}

static const struct journal_kind kind_vm_memcg = { "vm-memcg", memcg_undo };
JOURNAL_KIND_REGISTER(kind_vm_memcg)

static const struct memcg_host *host(void)
{
	static struct memcg_host h;
	static int done;

	if (!done) {
		memcg_detect(&h);
		if (h.version == MEMCG_NONE)
			pr_info("VMs run without a memory cgroup of their own: %s", h.why);
		done = 1;
	}
	return &h;
}

/* The journal entry first (when a journal is open), then the directory. */
static int make(struct vm *vm, const struct memcg_host *h)
{
	static unsigned int seq;
	char name[64];
	long id;
	int ret;

	snprintf(name, sizeof(name), MEMCG_PREFIX "%d-%u", (int)getpid(), seq++);
	if ((size_t)snprintf(vm->memcg, sizeof(vm->memcg), "%s/%s", h->parent, name) >=
	    sizeof(vm->memcg))
		return -ENAMETOOLONG;
	/* no journal (`cvmbench guest boot`): no cgroup a kill would leave behind */
	id = journal_object(kind_vm_memcg.kind, vm->memcg);
	if (id < 0)
		return (int)id;
	vm->memcg_id = id;
	ret = memcg_create(h, name, vm->memcg, sizeof(vm->memcg));
	if (ret) {
		if (!journal_forget(vm->memcg_id))
			vm->memcg_id = 0;
		vm->memcg[0] = '\0';     /* not ours: never removed by us */
	}
	return ret;
}

void vm_memcg_join(struct vm *vm, pid_t pid)
{
	const struct memcg_host *h = host();
	int ret;

	vm->memcg[0] = '\0';
	if (h->version == MEMCG_NONE)
		return;
	ret = make(vm, h);
	if (ret == -EBADF)
		return;                   /* no journal open */
	if (!ret)
		ret = memcg_attach(vm->memcg, pid);
	if (ret) {
		pr_warn("VM without a memory cgroup of its own (below %s): %s", h->parent,
			strerror(-ret));
		vm_memcg_leave(vm);
	}
}

void vm_memcg_leave(struct vm *vm)
{
	int ret = vm->memcg[0] ? memcg_undo(vm->memcg) : 0;

	if (ret)
		pr_warn("memory cgroup %s stays (restore removes it): %s", vm->memcg,
			strerror(-ret));
	else if (vm->memcg_id > 0 && journal_forget(vm->memcg_id))
		pr_warn("journal entry %ld of a VM's memory cgroup stays open", vm->memcg_id);
	if (!ret)
		vm->memcg_id = 0;
	vm->memcg[0] = '\0';
}
