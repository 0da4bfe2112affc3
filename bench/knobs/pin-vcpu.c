// SPDX-License-Identifier: MIT
/*
 * pin-vcpu.c - the `pin` key for the qemu backend (pin-vcpu.h
 * pin_vcpus()): once a VM is up, its vCPU threads come from QMP
 * query-cpus-fast (qmp-cpus.h), each checked to be one of that QEMU's
 * threads (/proc/PID/task; else the cell fails with the reason), and are
 * bound with sched_setaffinity(2):
 * the VM's vCPU j is the cell's vCPU g = first + j, placed as instance g
 * would be (placement.h: `core` puts vCPU g on core g mod cores, numa:N
 * and llc:N put every vCPU on that object's CPUs). QEMU's other threads
 * (main loop, I/O) are bound to the union of its vCPUs' CPUs first, so the
 * whole VM stays on what the cell asked for. Where vCPUs share a thread
 * (single-threaded TCG) that thread gets the union of theirs. What each
 * vCPU's thread obtained is read back and stored as pin.obtained.vcpuJ
 * (VM 0) or pin.obtained.vmV.vcpuJ. Nothing on the host changes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "knob-pin.h"
#include "pin-vcpu.h"
#include "placement.h"
#include "proc-tasks.h"
#include "qmp-cpus.h"

#define QMP_PIN_TIMEOUT_MS 10000
#define MAX_VCPUS 1024

/* The CPUs of vCPU @v of a VM whose first cell-wide vCPU is @first. */
static int vcpu_set(const struct qmp_vcpu *v, int first, cpu_set_t *set)
{
	return pin_instance_cpus(first + v->index, set) ? 0 : -ENOENT;
}

/* Every thread of @qemu onto @all; a thread that ended meanwhile is fine. */
static int bind_process(pid_t qemu, const cpu_set_t *all)
{
	pid_t *tids = NULL;
	size_t n = 0, i;
	int ret = proc_tasks(&qemu, 1, NULL, &tids, &n);

	for (i = 0; !ret && i < n; i++)
		if (sched_setaffinity(tids[i], sizeof(*all), all) && errno != ESRCH)
			ret = -errno;
	free(tids);
	return ret;
}

/* Each vCPU thread onto its vCPUs' CPUs (the union where they share one). */
static int bind_vcpus(const struct qmp_vcpu *v, int n, int first)
{
	cpu_set_t set, one;
	int i, j;

	for (i = 0; i < n; i++) {
		CPU_ZERO(&set);
		for (j = 0; j < n; j++) {
			if (v[j].tid != v[i].tid)
				continue;
			if (vcpu_set(&v[j], first, &one))
				return -ENOENT;
			CPU_OR(&set, &set, &one);
		}
		if (sched_setaffinity(v[i].tid, sizeof(set), &set))
			return -errno;
	}
	return 0;
}

/* Read each vCPU thread's CPUs back into pin.obtained.[vmV.]vcpuJ. */
static int note_obtained(const struct qmp_vcpu *v, int n, int vm,
			 void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	char key[64], cpus[PIN_CPUS_TEXT_MAX];
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = pin_obtained(v[i].tid, cpus, sizeof(cpus));
		if (ret)
			return ret;
		if (vm)
			snprintf(key, sizeof(key), "pin.obtained.vm%d.vcpu%d", vm, v[i].index);
		else
			snprintf(key, sizeof(key), "pin.obtained.vcpu%d", v[i].index);
		if (put)
			put(ctx, key, cpus);
	}
	return 0;
}

/*
 * Is every vCPU thread id QMP named one of @qemu's threads? A tid of
 * another process would be pinned (and its CPUs reported) in its stead:
 * 0, or -ESRCH/-errno with @err.
 */
static int vcpus_of(pid_t qemu, const struct qmp_vcpu *v, int n, char *err, size_t errlen)
{
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = proc_task_of(qemu, v[i].tid);
		if (ret == 1)
			continue;
		ret = ret ? ret : -ESRCH;
		snprintf(err, errlen, "QMP's thread-id %d of vCPU %d is not a thread of QEMU "
			 "(pid %d): %s", (int)v[i].tid, v[i].index, (int)qemu,
			 ret == -ESRCH ? "not in its /proc/PID/task" : strerror(-ret));
		return ret;
	}
	return 0;
}

static int pin_vm(pid_t qemu, struct qmp_vcpu *v, int n, int vm, int first,
		  void (*put)(void *ctx, const char *key, const char *value), void *ctx,
		  char *err, size_t errlen)
{
	cpu_set_t all, one;
	int i, ret = 0;

	CPU_ZERO(&all);
	for (i = 0; i < n && !ret; i++) {
		ret = vcpu_set(&v[i], first, &one);
		CPU_OR(&all, &all, &one);
	}
	ret = ret ?: bind_process(qemu, &all);
	ret = ret ?: bind_vcpus(v, n, first);
	if (ret) {
		snprintf(err, errlen, "cannot bind QEMU's threads (pid %d) as pin asks: %s",
			 (int)qemu, strerror(-ret));
		return ret;
	}
	ret = note_obtained(v, n, vm, put, ctx);
	if (ret)
		snprintf(err, errlen, "cannot read back the vCPU threads' CPUs: %s",
			 strerror(-ret));
	return ret;
}

int pin_vcpus(pid_t qemu, const char *qmp_path, int vm, int first,
	      void (*put)(void *ctx, const char *key, const char *value), void *ctx,
	      char *err, size_t errlen)
{
	static struct qmp_vcpu v[MAX_VCPUS];
	struct qmp *q;
	cpu_set_t probe;
	int n, ret;

	if (!pin_instance_cpus(0, &probe))
		return 0;              /* pin = none */
	ret = qmp_open(&q, qmp_path, QMP_PIN_TIMEOUT_MS, err, errlen);
	if (ret)
		return ret;
	ret = qmp_vcpu_threads(q, v, MAX_VCPUS, &n, QMP_PIN_TIMEOUT_MS, err, errlen);
	qmp_close(q);
	ret = ret ?: vcpus_of(qemu, v, n, err, errlen);
	ret = ret ?: pin_vm(qemu, v, n, vm, first, put, ctx, err, errlen);
	if (!ret)
		pin_vcpus_note();
	return ret;
}
