/* SPDX-License-Identifier: MIT */
/*
 * runc-metrics.h - the names under which the runc probe (runc.c,
 * runc-timeline.c) stores the phases of a container start, for the probe
 * and the analysis that reads them (analysis/fig-runc-phases.c). The order
 * is the phase's number (runc_phase.seq): new phases are appended, so that
 * the seq of an older database keeps its meaning; the figure draws them in
 * its own order. Meanings: docs/probes/runc.md.
 *
 *   X(enum constant, phase name)
 */
#ifndef CVMBENCH_RUNC_METRICS_H
#define CVMBENCH_RUNC_METRICS_H

#define RUNC_PROBE "runc"

#define RUNC_PHASES(X) \
	X(RT_RUNTIME_START, "runtime-start") \
	X(RT_CGROUP, "cgroup") \
	X(RT_NAMESPACES, "namespaces") \
	X(RT_NETNS, "netns") \
	X(RT_MOUNTS, "mounts") \
	X(RT_PIVOT_ROOT, "pivot-root") \
	X(RT_SECCOMP, "seccomp") \
	X(RT_EXEC_PHASE, "exec") \
	X(RT_FUNCTION_INIT, "function-init") \
	X(RT_FIRST_RESPONSE, "first-response") \
	X(RT_TEARDOWN, "teardown") \
	X(RT_OTHER, "other") \
	X(RT_RUNTIME, "runtime") \
	X(RT_INIT_START, "init-start") \
	X(RT_INIT, "init") \
	X(RT_STATE, "state") \
	X(RT_SCHED_WAIT, "sched-wait") \
	X(RT_LOCK_WAIT, "lock-wait") \
	X(RT_BLOCKED, "blocked") \
	X(RT_RUNTIME_EXEC, "runtime-exec")

/*
 * The order the runc-phases figure stacks them in, bottom up: the start's
 * chronology (runtime, its state and cgroup, init and what it sets up),
 * the waits, the container's exec to its reply, teardown, other.
 */
#define RUNC_PHASES_DRAWN(Y) \
	Y(RT_RUNTIME_EXEC) Y(RT_RUNTIME_START) Y(RT_RUNTIME) Y(RT_STATE) Y(RT_CGROUP) \
	Y(RT_INIT_START) Y(RT_INIT) Y(RT_NAMESPACES) Y(RT_NETNS) Y(RT_MOUNTS) \
	Y(RT_PIVOT_ROOT) Y(RT_SECCOMP) \
	Y(RT_SCHED_WAIT) Y(RT_LOCK_WAIT) Y(RT_BLOCKED) \
	Y(RT_EXEC_PHASE) Y(RT_FUNCTION_INIT) Y(RT_FIRST_RESPONSE) Y(RT_TEARDOWN) \
	Y(RT_OTHER)

#endif
