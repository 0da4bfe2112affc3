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
 * its own pid and closes its journal entries. With `pin`, every VM's vCPU
 * threads are bound once it is up (qemu_vms_pin(), knobs/pin-vcpu.c).
 * The guest (built or the user's: qemu-cell.c) and the accelerator
 * (qemu-accel.c) are recorded per cell; a SEV-SNP or TDX cell runs only
 * where the host offers every piece it needs (cvm-host.c), else it is a
 * skip naming what is missing; a cell whose guest kernel cannot have the
 * memory acceptance it asks for (guest-accept.c) is a skip naming the
 * kernel. The cell's `idle` is the guest's: on its kernel command line,
 * checked against every guest's facts after boot and again at the cell's
 * end (qemu_vms_idle()), noted as idle.applied_in = guest. Not yet:
 * mode = cold.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-guest.h"
#include "backend.h"
#include "cvm-host.h"
#include "guest.h"
#include "guest-accept.h"
#include "idle-guest.h"
#include "qemu-accel.h"
#include "qemu-cell.h"
#include "qemu-seed.h"
#include "qemu-vms.h"
#include "vm-boot.h"
#include "vm.h"

struct qemu_state {
	struct qemu_vms vms;
	struct qemu_guest guest;
	struct qemu_accel acc;
	char accept[512];         /* what guest-accept gave it: cell_param qemu.guest_accept */
	int scratch_mib;          /* scratch-disk: a writable disk per VM on /scratch */
	struct qemu_seed seed;    /* seed-layer: a seed per VM */
};

/* The QEMU binary of @c (its qemu key, else qemu-system-x86_64 in PATH). */
static int qemu_found(const struct cell *c, char *why, size_t len)
{
	char path[4096];

	if (!vm_find_qemu(c->qemu[0] ? c->qemu : NULL, path, sizeof(path)))
		return 1;
	if (c->qemu[0])
		snprintf(why, len, "qemu = %s: not found or not executable", c->qemu);
	else
		snprintf(why, len, "qemu: %s not found", QEMU_DEFAULT_BINARY);
	return 0;
}

/* A SEV-SNP or TDX cell: every piece of the host it needs (cvm-host.c). */
static int cvm_supported(const struct cell *c, char *why, size_t len)
{
	char miss[2048];

	if (!strcmp(c->accel, "tcg")) {
		snprintf(why, len, "confidential = %s needs accel = kvm (or auto), not tcg",
			 c->confidential);
		return 0;
	}
	if (cvm_host_check(c->confidential, c->qemu, c->firmware, miss, sizeof(miss)))
		return 1;
	snprintf(why, len, "confidential = %s: this host lacks: %s", c->confidential, miss);
	return 0;
}

/* A firmware the cell names must be there (a CVM's is checked with the host). */
static int firmware_found(const struct cell *c, char *why, size_t len)
{
	if (!c->firmware[0] || !access(c->firmware, R_OK))
		return 1;
	snprintf(why, len, "firmware = %s: %s", c->firmware, strerror(errno));
	return 0;
}

static int qemu_supported(const struct cell *c, char *why, size_t len)
{
	struct qemu_accel acc;

	if (!backend_runtime_supported(c, why, len) || !qemu_found(c, why, len))
		return 0;
	if (qemu_cell_cvm(c)) {
		if (!cvm_supported(c, why, len))
			return 0;
	} else if (!firmware_found(c, why, len)) {
		return 0;
	}
	if (!qemu_accel_for_cell(c, &acc)) {
		snprintf(why, len, "%s", acc.reason);
		return 0;
	}
	if (!strcmp(c->mode, "cold")) {
		snprintf(why, len, "qemu: mode = cold not yet (warm instances only)");
		return 0;
	}
	return qemu_seed_supported(c, why, len) && qemu_vms_layout(c, why, len);
}

/*
 * The guest is found (or built) first: its kernel decides whether the cell
 * can have the memory acceptance it asks for (guest-accept.c), a skip if not.
 */
static int qemu_cell_begin(const struct cell *c, const struct backend_env *env,
			   void **state, char *err, size_t errlen)
{
	struct qemu_state *st = calloc(1, sizeof(*st));
	const char *value;
	int ret;

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	st->scratch_mib = c->scratch_disk;
	qemu_seed_init(&st->seed, c, env);
	ret = qemu_cell_guest(c, &st->guest, err, errlen);
	if (!ret && guest_accept_plan(c->confidential, c->guest_accept, st->guest.release,
				      &value, st->accept, sizeof(st->accept))) {
		snprintf(err, errlen, "%s", st->accept);
		ret = BACKEND_SKIP;
	}
	if (ret) {
		free(st);
		return ret;
	}
	*state = st;
	return 0;
}

/*
 * What the cell booted and under which accelerator, and what its guests
 * said of themselves (guest.*: kernel, cpuidle, CVM evidence), for its
 * rows; also after a failed boot (what was learned until then).
 */
/* Where and how the cell's idle policy was applied: in the guest. */
static void note_idle(const struct cell *c, const struct backend_env *env,
		      struct qemu_state *st)
{
	char applied[512], why[512];   /* qemu_vms_idle(): both of @len bytes */
	struct idle_policy p;

	if (idle_policy_parse(c->idle, &p) || p.kind == IDLE_DEFAULT || !st->vms.n)
		return;
	env->note(env->note_ctx, "idle.applied_in", "guest");
	env->note(env->note_ctx, "idle.applied_by", idle_guest_applied_by(&p));
	if (!qemu_vms_idle(&st->vms, c, 0, applied, why, sizeof(why)))
		env->note(env->note_ctx, "idle.applied", applied);
}

static void note_boot(const struct cell *c, const struct backend_env *env,
		      struct qemu_state *st)
{
	char key[96], val[PATH_MAX * 2 + 64];

	if (!env->note)
		return;
	qemu_vms_describe(&st->vms, env->note, env->note_ctx);
	note_idle(c, env, st);
	if (st->acc.used[0]) {    /* empty: no VM got as far as starting */
		qemu_accel_note(&st->acc, env->note, env->note_ctx);
		env->note(env->note_ctx, "qemu.scratch", st->scratch_mib ?
			  "/scratch on a writable ext4 disk per VM (scratch-disk, an image file "
			  "in the host's state directory)" : AGENT_GUEST_SCRATCH_NOTE);
	}
	if (st->accept[0])
		env->note(env->note_ctx, "qemu.guest_accept", st->accept);
	if (!st->guest.hash[0])
		return;
	env->note(env->note_ctx, "qemu.guest_hash", st->guest.hash);
	if (st->guest.release[0])
		env->note(env->note_ctx, "qemu.guest_release", st->guest.release);
	if (st->guest.rootfs_hash[0]) {
		env->note(env->note_ctx, "rootfs.name", st->guest.rootfs_name);
		env->note(env->note_ctx, "rootfs.hash", st->guest.rootfs_hash);
	}
	env->note(env->note_ctx, "qemu.guest_source", st->guest.source);
	if (!env->env_note)
		return;
	snprintf(key, sizeof(key), "guest.image.%s", st->guest.hash);
	snprintf(val, sizeof(val), "%s kernel=%s initrd=%s", st->guest.source,
		 st->guest.kernel, st->guest.initrd);
	env->env_note(env->note_ctx, key, val,
		      "SHA-256 of the booted kernel's bytes followed by the initrd's");
}

/* The boot phases of every VM, booted or not (one never started has none). */
static void store_boots(const struct backend_env *env, const struct qemu_vms *v)
{
	int i;

	for (i = 0; i < v->n; i++)
		vm_boot_store(env->sink, i, &v->vm[i].vm);
}

static int qemu_prepare(const struct cell *c, const struct backend_env *env, void *state,
			char *err, size_t errlen)
{
	struct qemu_state *st = state;
	struct vm_config vc;
	int ret;

	qemu_cell_vm_config(c, c->accel, &st->guest, &vc);
	ret = qemu_vms_boot(&st->vms, c, &vc, &st->acc, err, errlen);
	if (!ret)
		ret = qemu_vms_pin(&st->vms, c, env->note, env->note_ctx, err, errlen);
	if (!ret)
		ret = qemu_seed_start(&st->seed, &st->vms, c, err, errlen);
	note_boot(c, env, st);
	store_boots(env, &st->vms);
	return ret;
}

static int qemu_spawn(const struct cell *c, const struct backend_env *env, void *state,
		      struct instance *in, char *err, size_t errlen)
{
	struct qemu_state *st = state;

	qemu_seed_before_fork(&st->seed, &st->vms);
	return qemu_vms_spawn(&st->vms, c, env, in, err, errlen);
}

static void qemu_cleanup(void *state, struct instance *in)
{
	qemu_seed_gone(&((struct qemu_state *)state)->vms, in);
}

static int qemu_agent_link(void *state, int *to_fd, int *from_fd, char *who, size_t len)
{
	return qemu_vms_agent_link(&((struct qemu_state *)state)->vms, to_fd, from_fd, who, len);
}

/* backend_ops.cell_accel: qemu_accel_for_cell()'s choice; @why what /dev/kvm said. */
static int qemu_svc_host_port(void *state)
{
	return qemu_vms_svc_port(&((struct qemu_state *)state)->vms);
}

static const char *qemu_cell_accel(const struct cell *c, char *why, size_t len)
{
	struct qemu_accel acc;

	qemu_accel_for_cell(c, &acc);
	snprintf(why, len, "%s", acc.host);
	return strcmp(acc.used, "kvm") ? "tcg" : "kvm";
}

static const char *qemu_accel_used(void *state)
{
	const struct qemu_state *st = state;

	return st->acc.used[0] ? st->acc.used : NULL;
}

/*
 * The seeds' records and their children's memory (qemu-seed.h), then the
 * cell's idle policy, read again inside every guest at the cell's end.
 */
static int qemu_verify(void *state, const struct cell *c, char *why, size_t len)
{
	struct qemu_state *st = state;
	char e[512];
	int ret = qemu_seed_verify(&st->seed, &st->vms, why, len);

	if (ret)
		return ret;
	ret = qemu_vms_idle(&st->vms, c, 1, NULL, e, sizeof(e));
	if (!ret)
		return 0;
	snprintf(why, len, "%s at the cell's end: %s", ret == -EIO ?
		 "the idle policy could not be checked" : "did not hold", e);
	return -EAGAIN;
}

static void qemu_cell_end(void *state)
{
	struct qemu_state *st = state;

	qemu_vms_stop(&st->vms);
	free(st);
}

const struct backend_ops backend_qemu = {
	.name = "qemu",
	.flags = BACKEND_GUEST | BACKEND_SEED_LAYER,
	.supported = qemu_supported,
	.cell_begin = qemu_cell_begin,
	.prepare = qemu_prepare,
	.spawn = qemu_spawn,
	.verify = qemu_verify,
	.cleanup = qemu_cleanup,
	.cell_end = qemu_cell_end,
	.agent_link = qemu_agent_link,
	.svc_host_port = qemu_svc_host_port,
	.cell_accel = qemu_cell_accel,
	.accel = qemu_accel_used,
	.env_facts = qemu_accel_env_facts,
};
