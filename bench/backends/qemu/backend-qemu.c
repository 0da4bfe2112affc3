// SPDX-License-Identifier: MIT
/*
 * backend-qemu.c - `backend = qemu`: a cell's instances run in `vms` QEMU
 * VMs (TCG or KVM) booted in prepare() from the guest image (guest.h) with
 * the workload's data disk on /data, `instances-per-vm` instance ports
 * each (qemu-vms.c). spawn() asks the VM's agent (cvmbench-agent) to run
 * /bin/cvmfn on an instance port, so the instance's two descriptors are
 * the host end of that port's socket. instance.pid is the VM's QEMU
 * (pid_shared: closing an instance neither waits for nor kills it); probes
 * with pid targets therefore watch the QEMU process. The instance-side
 * probes run in VM 0's agent (agent_link). cell_end() kills every QEMU by
 * its own pid and closes its journal entries.
 * Not yet: mode = cold, SEV-SNP and TDX launches.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "clock.h"
#include "guest.h"
#include "qemu-vms.h"
#include "vm.h"

struct qemu_state {
	struct qemu_vms vms;
	struct guest_image img;
	struct guest_disk disk;
	char accel[8];
};

/* accel = auto: kvm when /dev/kvm opens, else tcg. */
static const char *resolve_accel(const struct cell *c)
{
	int fd;

	if (strcmp(c->accel, "auto"))
		return c->accel;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return "tcg";
	close(fd);
	return "kvm";
}

/* Why a confidential guest cannot run here (the backend does not launch one yet). */
static void cvm_reason(const struct cell *c, char *why, size_t len)
{
	const char *dev = !strcmp(c->confidential, "tdx") ? "/dev/tdx_guest" : "/dev/sev";
	int kvm = access("/dev/kvm", F_OK) ? errno : 0;

	snprintf(why, len, "confidential = %s: not yet launched by the qemu backend "
		 "(needs /dev/kvm%s, %s on the host and a QEMU with the %s-guest object)",
		 c->confidential, kvm ? ": missing here" : "", !strcmp(c->confidential, "tdx") ?
		 "TDX enabled in KVM" : dev, c->confidential);
}

static int qemu_supported(const struct cell *c, char *why, size_t len)
{
	char path[4096];
	int fd;

	if (vm_find_qemu(NULL, path, sizeof(path))) {
		snprintf(why, len, "qemu: %s not found", QEMU_DEFAULT_BINARY);
		return 0;
	}
	if (!strcmp(c->confidential, "sev-snp") || !strcmp(c->confidential, "tdx")) {
		cvm_reason(c, why, len);
		return 0;
	}
	if (!strcmp(c->accel, "kvm")) {
		fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, len, "accel = kvm: /dev/kvm: %s", strerror(errno));
			return 0;
		}
		close(fd);
	}
	if (!strcmp(c->mode, "cold")) {
		snprintf(why, len, "qemu: mode = cold not yet (warm instances only)");
		return 0;
	}
	return qemu_vms_layout(c, why, len);
}

static int qemu_cell_begin(const struct cell *c, const struct backend_env *env,
			   void **state, char *err, size_t errlen)
{
	struct qemu_state *st = calloc(1, sizeof(*st));

	(void)env;
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(st->accel, sizeof(st->accel), "%s", resolve_accel(c));
	*state = st;
	return 0;
}

static int qemu_prepare(const struct cell *c, const struct backend_env *env, void *state,
			char *err, size_t errlen)
{
	struct guest_build_opts b = { NULL, NULL, NULL, NULL };
	struct qemu_state *st = state;
	struct vm_config vc = { 0 };
	int ret;

	(void)env;
	ret = guest_image_build(&b, &st->img, err, errlen);
	if (!ret)
		ret = guest_disk_build(c->workload, c->size, (unsigned long long)c->seed, NULL,
				       &st->disk, err, errlen);
	if (ret)
		return ret;
	vc.accel = st->accel;
	vc.vcpus = (unsigned int)c->vcpus;
	vc.memory_mib = (unsigned int)c->memory;
	vc.kernel = st->img.kernel;
	vc.initrd = st->img.initrd;
	vc.data_disk = st->disk.path;
	vc.model = !strcmp(c->confidential, "model");
	return qemu_vms_boot(&st->vms, c, &vc, err, errlen);
}

static int qemu_spawn(const struct cell *c, const struct backend_env *env, void *state,
		      struct instance *in, char *err, size_t errlen)
{
	return qemu_vms_spawn(&((struct qemu_state *)state)->vms, c, env, in, err, errlen);
}

static int qemu_agent_link(void *state, int *to_fd, int *from_fd, char *who, size_t len)
{
	return qemu_vms_agent_link(&((struct qemu_state *)state)->vms, to_fd, from_fd, who, len);
}

static void qemu_describe(void *state, backend_note_fn note, void *ctx)
{
	qemu_vms_describe(&((struct qemu_state *)state)->vms, note, ctx);
}

static void qemu_cell_end(void *state)
{
	struct qemu_state *st = state;

	qemu_vms_stop(&st->vms);
	free(st);
}

const struct backend_ops backend_qemu = {
	.name = "qemu",
	.flags = BACKEND_GUEST,
	.supported = qemu_supported,
	.cell_begin = qemu_cell_begin,
	.prepare = qemu_prepare,
	.spawn = qemu_spawn,
	.cell_end = qemu_cell_end,
	.describe = qemu_describe,
	.agent_link = qemu_agent_link,
};
