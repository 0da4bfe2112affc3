/* SPDX-License-Identifier: MIT */
/*
 * qemu-vms.h - the VMs of one qemu cell and the agent in each (backend-qemu.c
 * is the ops table): boot them all, ask each guest for its environment,
 * check a CVM cell landed in a CVM, start instances on their ports through
 * the agent, hand VM 0's agent to the instance probes, say what the guests
 * said as cell_param rows, stop them all.
 */
#ifndef CVMBENCH_QEMU_VMS_H
#define CVMBENCH_QEMU_VMS_H

#include <limits.h>
#include <stddef.h>

#include "backend.h"
#include "qemu-accel.h"
#include "vm.h"

#define QEMU_MAX_FACTS 96

struct qemu_fact {
	char key[96];
	char value[1024];
};

/** struct qemu_vm - one VM of the cell and what its agent said. */
struct qemu_vm {
	struct vm vm;
	int booted;
	char agent[64];                /* the agent's version from the ready line */
	struct qemu_fact *facts;       /* the guest's environment (env request) */
	int nfacts;
	char workload[48];             /* vm-workloads: this VM's; empty: the cell's */
	char disk[PATH_MAX];           /* vm-workloads: its data disk */
	char scratch[PATH_MAX];        /* scratch-disk: its image, if scratch_id */
	long scratch_id;
	int seed_pid;                  /* seed-layer: its seed in the guest (qemu-seed.h) */
	int kids[QEMU_MAX_INSTANCE_PORTS];     /* ... and its live children, guest pids */
	int nkids;
};

/** struct qemu_vms - the cell's VMs; instance k runs in VM k % n, port k / n. */
struct qemu_vms {
	struct qemu_vm *vm;
	int n;
	int per_vm;
	int nspawned;
	int svc_host_port;             /* > 0: VM 0's service forward (loadgen = host) */
};

/**
 * qemu_vms_layout() - whether @c's instances fit its VMs (vms <= instances
 * <= vms x instances-per-vm: every VM runs one at least, so the host probes,
 * which watch the instances' QEMUs, see every VM) and the host's MemAvailable holds every VM
 * (vms x (memory + 64 MiB)), checked before any VM starts. 1, or 0 with @why.
 */
int qemu_vms_layout(const struct cell *c, char *why, size_t len);
/**
 * qemu_vms_boot() - boot @c's VMs one after the other from @vc (each with
 * its instance ports and cvmbench.vm=V on its kernel command line), get
 * each guest's facts, and check the confidential type against them. VM 0
 * settles the accelerator (qemu-accel.c: accel = auto falls back to TCG
 * where QEMU cannot run under KVM), into @acc; the others use the same.
 * 0, BACKEND_SKIP when a guest does not run under the cell's idle policy
 * (qemu_vms_idle(), @err says why), or -errno with @err naming the VM; the
 * VMs already up stay for qemu_vms_stop().
 */
int qemu_vms_boot(struct qemu_vms *v, const struct cell *c, const struct vm_config *vc,
		  struct qemu_accel *acc, char *err, size_t errlen);
/**
 * qemu_vms_vm_config() - VM @i's config from the cell's @vc into @out: its
 * instance ports (instances-per-vm) and `cvmbench.vm=I` (and
 * `cvmbench.fault=F` for the tests) after @vc's kernel arguments, kept in
 * @append. What qemu_vms_boot() starts and `cvmbench qemu-argv` prints.
 */
void qemu_vms_vm_config(const struct cell *c, int i, const char *fault,
			const struct vm_config *vc, struct vm_config *out, char *append,
			size_t len);
/**
 * qemu_vms_pin() - bind every VM's vCPU threads as @c's pin says (pin-vcpu.h
 * pin_vcpus(): VM i's vCPUs are the cell's vCPUs i x vcpus onwards), the
 * CPUs read back to @note. 0, or -errno with @err naming the VM.
 */
int qemu_vms_pin(struct qemu_vms *v, const struct cell *c, backend_note_fn note, void *ctx,
		 char *err, size_t errlen);
/**
 * qemu_vms_spawn() - the next instance: `spawn PORT serve ...` to its VM's
 * agent, or with @c's seed-layer `fork PORT` (the VM's seed forks it; its
 * guest pid is kept in the VM's kids and in @in->priv, qemu_vms_kid()).
 */
int qemu_vms_spawn(struct qemu_vms *v, const struct cell *c, const struct backend_env *env,
		   struct instance *in, char *err, size_t errlen);
/** qemu_vms_kid() - the VM index and guest pid of a forked instance's @priv. */
void qemu_vms_kid(const void *priv, int *vi, int *pid);
/**
 * qemu_vms_svc_nic() - whether VM @i of @c gets the service's NIC: VM 0 of
 * a cell with loadgen = host (its kernel command line then has
 * cvmbench.net=AGENT_GUEST_NET_ADDR, its QEMU a forward from a free port on
 * the host's 127.0.0.1 to AGENT_GUEST_SVC_PORT, chosen at boot).
 */
int qemu_vms_svc_nic(const struct cell *c, int i);
/** qemu_vms_svc_port() - that forward's host port, or -ENOENT. */
int qemu_vms_svc_port(const struct qemu_vms *v);
/** qemu_vms_agent_link() - VM 0's agent control channel for the instance probes. */
int qemu_vms_agent_link(struct qemu_vms *v, int *to_fd, int *from_fd, char *who,
			size_t len);
/**
 * qemu_vms_idle() - does every VM's guest run under @c's idle policy, by
 * the facts its agent reported (idle_guest_check())? 0, or -EPERM with
 * @why naming the VM. With @refresh the facts are asked for again first
 * (at the cell's end: the guest's state then, read inside the guest); -EIO
 * when a VM's agent did not send them.
 * On 0, @applied (NULL, or @len bytes) says what VM 0 runs under.
 */
int qemu_vms_idle(struct qemu_vms *v, const struct cell *c, int refresh, char *applied,
		  char *why, size_t len);
/** qemu_vms_describe() - guest.* cell_param rows: VM 0's facts, the others' differences. */
void qemu_vms_describe(const struct qemu_vms *v, backend_note_fn note, void *ctx);
/** qemu_vms_stop() - kill every VM by its pid, free @v's arrays. */
void qemu_vms_stop(struct qemu_vms *v);
/**
 * qemu_cvm_verdict() - whether a guest whose env says cvm.type =
 * @guest_type (NULL: it said nothing) is what a cell with confidential =
 * @asked needs: sev-snp and tdx need that very type; none and model
 * anything. 0, or -EPERM with @why (a CVM cell in a regular guest fails).
 */
int qemu_cvm_verdict(const char *asked, const char *guest_type, char *why, size_t len);

#endif
