/* SPDX-License-Identifier: MIT */
/*
 * qmp-cpus.h - the host threads of a running QEMU's vCPUs, from QMP
 * `query-cpus-fast` (qapi/machine.json CpuInfoFast): each vCPU's
 * cpu-index and thread-id. Under KVM and multi-threaded TCG every vCPU has
 * a thread of its own; under single-threaded TCG they all report the one
 * TCG thread.
 */
#ifndef CVMBENCH_QMP_CPUS_H
#define CVMBENCH_QMP_CPUS_H

#include <stddef.h>
#include <sys/types.h>

#include "qmp.h"

/** struct qmp_vcpu - one vCPU: QEMU's cpu-index and its host thread id. */
struct qmp_vcpu {
	int index;
	pid_t tid;
};

/**
 * qmp_cpus_parse() - a `query-cpus-fast` reply @json into @out (at most
 * @max, in the reply's order), their number into @n. The top-level
 * thread-id is the host thread (props.thread-id is a topology index).
 * 0; -EREMOTEIO: QEMU answered an error (its class and desc in @err);
 * -EPROTO: not such a reply, or a vCPU without a positive thread-id or a
 * cpu-index; -ENOSPC: more than @max vCPUs; -ENODATA: none.
 */
int qmp_cpus_parse(const char *json, struct qmp_vcpu *out, int max, int *n, char *err,
		   size_t errlen);

/**
 * qmp_vcpu_threads() - ask @q for query-cpus-fast and parse the reply as
 * qmp_cpus_parse(), within @timeout_ms. 0 or -errno with @err.
 */
int qmp_vcpu_threads(struct qmp *q, struct qmp_vcpu *out, int max, int *n, int timeout_ms,
		     char *err, size_t errlen);

#endif
