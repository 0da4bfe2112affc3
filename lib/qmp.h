/* SPDX-License-Identifier: MIT */
/*
 * qmp.h - a QEMU Machine Protocol client (qmp-cpus.h asks it for the vCPU
 * threads; qmp_execute() is the plain exchange) for KVM's per-vCPU
 * statistics of a running QEMU (`query-stats`, QEMU 7.1 and later), summed
 * over its vCPUs. The socket is found on the QEMU process's own command
 * line (-qmp unix:PATH,...), and the VM's index in its cell there too
 * (cvmbench.vm=I on the kernel command line, bench/backends/qemu).
 * Built with cJSON (HAVE_CJSON); without it (the static guest agent) every
 * call returns -ENOTSUP.
 */
#ifndef CVMBENCH_QMP_H
#define CVMBENCH_QMP_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A statistic the reply did not carry reads as this. */
#define QMP_STAT_ABSENT UINT64_MAX

/**
 * qmp_cmdline_find() - from a process's command line @cmd (@len bytes of
 * NUL-separated arguments, /proc/PID/cmdline) the path of its `-qmp unix:`
 * socket into @path and the VM index of its `cvmbench.vm=I` into @vm_idx
 * (-1 when absent). 0, or -ENOENT when it has no unix QMP socket.
 */
int qmp_cmdline_find(const char *cmd, size_t len, char *path, size_t plen, int *vm_idx);

/** qmp_pid_find() - qmp_cmdline_find() on /proc/@pid/cmdline. 0 or -errno. */
int qmp_pid_find(pid_t pid, char *path, size_t plen, int *vm_idx);

struct qmp;

/**
 * qmp_open() - connect to the QMP socket @path, read the greeting, leave
 * capabilities negotiation (qmp_capabilities), within @timeout_ms each.
 * The connection into *@out. 0, or -errno with @err.
 */
int qmp_open(struct qmp **out, const char *path, int timeout_ms, char *err, size_t errlen);
/** qmp_close() - close and free @q (NULL is fine). */
void qmp_close(struct qmp *q);

/**
 * qmp_execute() - send @cmd (one JSON object and a newline) and read the
 * reply line (events QEMU sends in between are skipped) into *@reply,
 * malloc'ed, within @timeout_ms. 0 or -errno (-EPIPE: QEMU is gone).
 */
int qmp_execute(struct qmp *q, const char *cmd, char **reply, int timeout_ms);

/**
 * qmp_stats_parse() - a `query-stats` reply @json (target vcpu, provider
 * kvm): each statistic named in @names (@n) summed over the vCPUs into
 * @sums (QMP_STAT_ABSENT: no vCPU had it; histograms are not summed), the
 * vCPUs into @nvcpus. 0; -ENODATA: no kvm vCPU in the reply (QEMU not under
 * KVM); -EREMOTEIO: QEMU answered an error (its class and desc in @err);
 * -EPROTO: not a reply.
 */
int qmp_stats_parse(const char *json, const char *const *names, size_t n, uint64_t *sums,
		    int *nvcpus, char *err, size_t errlen);

/**
 * qmp_vcpu_stats() - ask @q for query-stats (vcpu, kvm, only @names: QEMU
 * 7.1's StatsRequest names; each of [A-Za-z0-9_], else -EINVAL) and parse the
 * reply as qmp_stats_parse() (events QEMU sends in between are skipped),
 * waiting up to @timeout_ms. 0 or -errno with @err.
 */
int qmp_vcpu_stats(struct qmp *q, const char *const *names, size_t n, uint64_t *sums, int *nvcpus,
		   int timeout_ms, char *err, size_t errlen);

#endif
