// SPDX-License-Identifier: MIT
/*
 * vmexit-kvmstats.c - KVM's per-vCPU statistics of the cell's VMs beside
 * the vmexit probe's tracepoint counts (vmexit-kvmstats.h). The QMP socket
 * and the VM's index are read from the QEMU process's own command line
 * (qmp.h: -qmp unix:PATH, cvmbench.vm=I, as bench/backends/qemu starts
 * it), so the probe needs nothing from the backend but the pids. A VM
 * process without one is read through the binary statistics descriptors
 * it keeps open: the entries /proc/PID/fd/N that are
 * "anon_inode:kvm-vcpu-stats:I", copied into cvmbench with pidfd_getfd()
 * (root, Linux 5.6) and read with pread (kvm-stats.h), which needs no vCPU
 * to leave the guest. (A copy of a vCPU descriptor itself is no use: KVM
 * refuses its ioctls from another address space with EIO.)
 * query-stats makes QEMU visit every vCPU (run_on_cpu), which kicks it out
 * of the guest: its own exits. The probe reads it before the tracepoint
 * counters at a window's start and after them at its end, so the counted
 * window holds none of them; KVM's window holds up to a few per vCPU more.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "kvm-stats.h"
#include "qmp.h"
#include "vmexit-kvmstats.h"
#include "vmexit-metrics.h"
#include "vmexit-sink.h"

#define QMP_TIMEOUT_MS 2000

#define STAT_NAME(n) n,
static const char *const stat_names[] = { VMEXIT_STAT_NAMES(STAT_NAME) };
#undef STAT_NAME
_Static_assert(sizeof(stat_names) / sizeof(stat_names[0]) == VX_NSTATS,
	       "VX_NSTATS follows VMEXIT_STAT_NAMES");

const char *const *vx_kstats_names(void)
{
	return stat_names;
}

static int seen(const pid_t *pids, int i)
{
	int j;

	for (j = 0; j < i; j++)
		if (pids[j] == pids[i])
			return 1;
	return 0;
}

/* Our copy of descriptor @fd of the process of @pidfd, appended to @m. */
static int vcpu_add(struct vx_kvm *m, int pidfd, int fd)
{
	int *v = realloc(m->vcpu, (size_t)(m->nvcpu + 1) * sizeof(*v)), c;

	if (!v)
		return -ENOMEM;
	m->vcpu = v;
	c = (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
	if (c < 0)
		return -errno;
	v[m->nvcpu++] = c;
	return 0;
}

/* Every kvm-vcpu-stats descriptor of @m's process, copied; 0 or -errno (-ENOENT: none). */
static int vcpus_grab(struct vx_kvm *m)
{
	char dir[64], path[320], link[64];
	struct dirent *e;
	ssize_t l;
	int pidfd = (int)syscall(SYS_pidfd_open, m->pid, 0), ret = 0;
	DIR *d;

	if (pidfd < 0)
		return -errno;
	snprintf(dir, sizeof(dir), "/proc/%d/fd", (int)m->pid);
	d = opendir(dir);
	while (d && !ret && (e = readdir(d))) {
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		l = readlink(path, link, sizeof(link) - 1);
		if (l <= 0)
			continue;
		link[l] = '\0';
		if (!strncmp(link, "anon_inode:kvm-vcpu-stats:", 26))
			ret = vcpu_add(m, pidfd, atoi(e->d_name));
	}
	ret = d ? ret : -errno;
	if (d)
		closedir(d);
	close(pidfd);
	return ret ?: m->nvcpu ? 0 : -ENOENT;
}

/* No QMP socket: KVM's binary statistics through the process's own stats descriptors. */
static void vm_binary(struct vx_kvm *m)
{
	int ret = vcpus_grab(m);

	m->method = "binary-stats";
	if (ret == -ENOENT)
		snprintf(m->why, sizeof(m->why), "VM process %d has no QMP socket on its "
			 "command line (-qmp unix:PATH) and no KVM statistics descriptor open "
			 "(kvm-vcpu-stats): KVM's statistics not read", (int)m->pid);
	else if (ret)
		snprintf(m->why, sizeof(m->why), "VM process %d has no QMP socket, and its "
			 "statistics descriptors cannot be copied (pidfd_getfd): %s", (int)m->pid,
			 strerror(-ret));
}

static void vm_connect(struct vx_kvm *m)
{
	char path[256], err[256];
	int ret = qmp_pid_find(m->pid, path, sizeof(path), &m->idx);

	m->method = "qmp";
	if (ret == -ENOENT)
		return vm_binary(m);
	if (ret) {
		snprintf(m->why, sizeof(m->why), "command line of VM process %d: %s",
			 (int)m->pid, strerror(-ret));
		return;
	}
	if (qmp_open(&m->q, path, QMP_TIMEOUT_MS, err, sizeof(err)))
		snprintf(m->why, sizeof(m->why), "%s", err);
}

int vx_kstats_open(struct vx_kstats *k, const pid_t *pids, int n)
{
	int i, place = 0;

	vx_kstats_close(k);
	k->vm = calloc(n > 0 ? (size_t)n : 1, sizeof(*k->vm));
	if (!k->vm)
		return -ENOMEM;
	for (i = 0; i < n; i++) {
		if (seen(pids, i))
			continue;
		k->vm[k->n].pid = pids[i];
		k->vm[k->n].idx = -1;     /* not on its command line: its place */
		vm_connect(&k->vm[k->n]);
		if (k->vm[k->n].idx < 0)
			k->vm[k->n].idx = place;
		place++;
		k->n++;
	}
	return 0;
}

/* @m's vCPUs' binary statistics summed into @sums; 0 or -errno with m->why. */
static int binary_read(struct vx_kvm *m, uint64_t *sums)
{
	uint64_t v[VX_NSTATS];
	int i, s, ret;

	for (s = 0; s < VX_NSTATS; s++)
		sums[s] = QMP_STAT_ABSENT;
	for (i = 0; i < m->nvcpu; i++) {
		ret = kvm_stats_read_stats_fd(m->vcpu[i], stat_names, VX_NSTATS, v);
		if (ret) {
			snprintf(m->why, sizeof(m->why), "KVM's binary statistics of VM process "
				 "%d: %s", (int)m->pid, strerror(-ret));
			return ret;
		}
		for (s = 0; s < VX_NSTATS; s++)
			if (v[s] != UINT64_MAX)
				sums[s] = (sums[s] == QMP_STAT_ABSENT ? 0 : sums[s]) + v[s];
	}
	return 0;
}

void vx_kstats_read(struct vx_kstats *k, int w, int end)
{
	long long a = clock_now_ns();
	struct vx_kvm *m;
	int i, nv;

	for (i = 0; i < k->n; i++) {
		m = &k->vm[i];
		m->ok[w][end] = 0;
		if (m->why[0])
			continue;
		if (m->nvcpu) {
			m->ok[w][end] = !binary_read(m, m->v[w][end]);
			continue;
		}
		if (m->q && !qmp_vcpu_stats(m->q, stat_names, VX_NSTATS, m->v[w][end], &nv,
				    QMP_TIMEOUT_MS, m->why, sizeof(m->why))) {
			m->ok[w][end] = 1;
			m->kicks[w] = end ? nv : 0;
		}
	}
	k->read_ns[w] = (end ? k->read_ns[w] : 0) + (double)(clock_now_ns() - a);
}

/* One statistic of VM @m in window @w: a count, or (a *_ns one) a time. */
static int put_stat(struct sink *sk, const struct vx_kvm *m, int w, int s)
{
	uint64_t a = m->v[w][0][s], b = m->v[w][1][s];
	const char *name = stat_names[s];
	size_t l = strlen(name);
	struct vmexit_row r;

	vmexit_row_init(&r, VMEXIT_KVM_STATS, m->method, VMEXIT_KVM_STATS);
	r.vm_idx = m->idx;
	r.reason_name = name;
	if (a == QMP_STAT_ABSENT || b == QMP_STAT_ABSENT)
		r.skip = "this kernel's KVM has no such statistic";
	else if (l > 3 && !strcmp(name + l - 3, "_ns"))
		r.time_ns = (long long)(b - a);
	else
		r.count = (long long)(b - a);
	return vmexit_put(sk, &r);
}

static int put_skip(struct sink *sk, const struct vx_kvm *m, const char *why)
{
	struct vmexit_row r;

	vmexit_row_init(&r, VMEXIT_KVM_STATS, m->method, VMEXIT_KVM_STATS);
	r.vm_idx = m->idx;
	r.reason_name = "exits";
	r.skip = why;
	return vmexit_put(sk, &r);
}

int vx_kstats_emit(const struct vx_kstats *k, struct sink *sk, int w, double *exits,
		   double *kicks)
{
	const struct vx_kvm *m;
	int i, s, ret = 0;

	*exits = k->n ? 0 : -1;
	*kicks = 0;
	for (i = 0; i < k->n && !ret; i++) {
		m = &k->vm[i];
		if (!m->ok[w][0] || !m->ok[w][1]) {
			*exits = -1;
			ret = put_skip(sk, m, m->why[0] ? m->why :
				       "a read of KVM's statistics at a window boundary failed");
			continue;
		}
		for (s = 0; s < VX_NSTATS && !ret; s++)
			ret = put_stat(sk, m, w, s);
		if (m->v[w][0][0] == QMP_STAT_ABSENT || m->v[w][1][0] == QMP_STAT_ABSENT)
			*exits = -1;
		else if (*exits >= 0)
			*exits += (double)(m->v[w][1][0] - m->v[w][0][0]);
		*kicks += m->q ? m->kicks[w] : 0;
	}
	return ret;
}

void vx_kstats_close(struct vx_kstats *k)
{
	int i, j;

	for (i = 0; k->vm && i < k->n; i++) {
		qmp_close(k->vm[i].q);
		for (j = 0; j < k->vm[i].nvcpu; j++)
			close(k->vm[i].vcpu[j]);
		free(k->vm[i].vcpu);
	}
	free(k->vm);
	k->vm = NULL;
	k->n = 0;
}
