/* SPDX-License-Identifier: MIT */
/*
 * vmexit-kvmstats.h - the vmexit probe's second source: KVM's own per-vCPU
 * statistics (exits, halt_exits, ..., VMEXIT_STAT_NAMES) of each of the
 * cell's VMs, summed over its vCPUs, read over QMP (query-stats) at the
 * same window boundaries as the tracepoint counters, and written into the
 * vmexit table as source kvm-stats, method qmp. A VM process without a QMP
 * socket (the micro-VM, another VMM) is read through the binary statistics
 * descriptors it keeps open instead (pidfd_getfd: method binary-stats). A VM whose statistics cannot be read (neither, QEMU
 * before 7.1, not under KVM) gets a row with the reason, never zeros.
 */
#ifndef CVMBENCH_VMEXIT_KVMSTATS_H
#define CVMBENCH_VMEXIT_KVMSTATS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "sink.h"

#define VX_NSTATS 11

struct qmp;

/* One VM: its QEMU process, QMP connection, and reads [window][start, stop]. */
struct vx_kvm {
	pid_t pid;
	int idx;                  /* cvmbench.vm=I, else its place among the pids */
	struct qmp *q;
	int *vcpu;                /* binary-stats: our copies of its vCPU stats descriptors */
	int nvcpu;
	const char *method;       /* "qmp" or "binary-stats" */
	uint64_t v[2][2][VX_NSTATS];
	int ok[2][2];             /* the read succeeded */
	int kicks[2];             /* vCPUs the window's closing query-stats kicked */
	char why[256];            /* why it has no statistics ("" while it has) */
};

struct vx_kstats {
	struct vx_kvm *vm;
	int n;
	double read_ns[2];
};

/** vx_kstats_names() - the statistics read, VX_NSTATS of them. */
const char *const *vx_kstats_names(void);
/**
 * vx_kstats_open() - one entry per distinct pid of @pids (@n), each
 * connected to its QEMU's QMP socket or with the reason it is not.
 * 0 or -ENOMEM.
 */
int vx_kstats_open(struct vx_kstats *k, const pid_t *pids, int n);
/** vx_kstats_read() - every VM's statistics into read [@w][@end]. */
void vx_kstats_read(struct vx_kstats *k, int w, int end);
/**
 * vx_kstats_emit() - the rows of window @w: per VM a row per statistic, or
 * one with the reason; the VMs' `exits` summed into @exits (-1 when any VM
 * has none), the vCPUs the closing query-stats kicked into @kicks (QMP
 * only: reading binary statistics kicks none). 0 or -errno from the sink.
 */
int vx_kstats_emit(const struct vx_kstats *k, struct sink *sk, int w, double *exits,
		   double *kicks);
/** vx_kstats_close() - close every connection, free the entries. */
void vx_kstats_close(struct vx_kstats *k);

#endif
