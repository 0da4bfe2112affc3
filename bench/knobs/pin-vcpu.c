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

/*
 * Where a VM's vCPUs go: the pin knob's instance CPUs from the cell-wide
 * vCPU @first on (@sets NULL), or vCPU j on @sets[j % @nsets]; the keys
 * their CPUs are read back into start with @prefix.
 */
struct vcpu_cpus {
	int first;
	const cpu_set_t *sets;
	int nsets;
	char prefix[32];
};

/* The CPUs of vCPU @v as @to says. */
static int vcpu_set(const struct qmp_vcpu *v, const struct vcpu_cpus *to, cpu_set_t *set)
{
	if (to->sets) {
		*set = to->sets[v->index % to->nsets];
		return 0;
	}
	return pin_instance_cpus(to->first + v->index, set) ? 0 : -ENOENT;
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
static int bind_vcpus(const struct qmp_vcpu *v, int n, const struct vcpu_cpus *to)
{
	cpu_set_t set, one;
	int i, j;

	for (i = 0; i < n; i++) {
		CPU_ZERO(&set);
		for (j = 0; j < n; j++) {
			if (v[j].tid != v[i].tid)
				continue;
			if (vcpu_set(&v[j], to, &one))
				return -ENOENT;
			CPU_OR(&set, &set, &one);
		}
		if (sched_setaffinity(v[i].tid, sizeof(set), &set))
			return -errno;
	}
	return 0;
}

/* Read each vCPU thread's CPUs back into PREFIX[vmV.]vcpuJ. */
static int note_obtained(const struct qmp_vcpu *v, int n, int vm, const char *prefix,
			 void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	char key[96], cpus[PIN_CPUS_TEXT_MAX];
	int i, ret;

	for (i = 0; i < n; i++) {
		ret = pin_obtained(v[i].tid, cpus, sizeof(cpus));
		if (ret)
			return ret;
		if (vm)
			snprintf(key, sizeof(key), "%svm%d.vcpu%d", prefix, vm, v[i].index);
		else
			snprintf(key, sizeof(key), "%svcpu%d", prefix, v[i].index);
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

static int pin_vm(pid_t qemu, struct qmp_vcpu *v, int n, int vm, const struct vcpu_cpus *to,
		  void (*put)(void *ctx, const char *key, const char *value), void *ctx,
		  char *err, size_t errlen)
{
	cpu_set_t all, one;
	int i, ret = 0;

	CPU_ZERO(&all);
	for (i = 0; i < n && !ret; i++) {
		ret = vcpu_set(&v[i], to, &one);
		CPU_OR(&all, &all, &one);
	}
	ret = ret ?: bind_process(qemu, &all);
	ret = ret ?: bind_vcpus(v, n, to);
	if (ret) {
		snprintf(err, errlen, "cannot bind QEMU's threads (pid %d) as pin asks: %s",
			 (int)qemu, strerror(-ret));
		return ret;
	}
	ret = note_obtained(v, n, vm, to->prefix, put, ctx);
	if (ret)
		snprintf(err, errlen, "cannot read back the vCPU threads' CPUs: %s",
			 strerror(-ret));
	return ret;
}

/* QMP's vCPU threads of @qemu, checked to be its own, bound as @to says. */
static int pin_threads(pid_t qemu, const char *qmp_path, int vm, const struct vcpu_cpus *to,
		       void (*put)(void *ctx, const char *key, const char *value), void *ctx,
		       char *err, size_t errlen)
{
	static struct qmp_vcpu v[MAX_VCPUS];
	struct qmp *q;
	int n, ret;

	ret = qmp_open(&q, qmp_path, QMP_PIN_TIMEOUT_MS, err, errlen);
	if (ret)
		return ret;
	ret = qmp_vcpu_threads(q, v, MAX_VCPUS, &n, QMP_PIN_TIMEOUT_MS, err, errlen);
	qmp_close(q);
	ret = ret ?: vcpus_of(qemu, v, n, err, errlen);
	return ret ?: pin_vm(qemu, v, n, vm, to, put, ctx, err, errlen);
}

int pin_vcpus(pid_t qemu, const char *qmp_path, int vm, int first,
	      void (*put)(void *ctx, const char *key, const char *value), void *ctx,
	      char *err, size_t errlen)
{
	struct vcpu_cpus to = { .first = first, .prefix = "pin.obtained." };
	cpu_set_t probe;
	int ret;

	if (!pin_instance_cpus(0, &probe))
		return 0;              /* pin = none */
	ret = pin_threads(qemu, qmp_path, vm, &to, put, ctx, err, errlen);
	if (!ret)
		pin_vcpus_note();
	return ret;
}

int pin_vcpus_on(pid_t qemu, const char *qmp_path, const cpu_set_t *sets, int nsets,
		 const char *prefix, void (*put)(void *ctx, const char *key, const char *value),
		 void *ctx, char *err, size_t errlen)
{
	struct vcpu_cpus to = { .sets = sets, .nsets = nsets };

	snprintf(to.prefix, sizeof(to.prefix), "%s", prefix);
	return nsets > 0 ? pin_threads(qemu, qmp_path, 0, &to, put, ctx, err, errlen) : -EINVAL;
}
