/* SPDX-License-Identifier: MIT */
/*
 * probe.h - the one ops table every probe implements.
 *
 * The runner brackets each window (a whole cell, or one invocation) the
 * way stress-ng brackets a stressor: start every probe, run, stop them in
 * reverse order (probes marked .outer start first and stop last), then let
 * each emit its rows. Probes never see SQLite:
 * they write through a sink. The list of probes is probes/probe-list.h.
 *
 * Each probe says which side it measures (.side): the host (the process
 * that runs cvmbench and its machine: runc phases, later VMEXITs, host
 * memory, KSM) runs in cvmbench itself; the instance's machine (idle states,
 * CPU time, exit cost) runs where the instance runs, driven through the
 * agent protocol (bench/agent/agent-proto.h): in-process for the native and
 * container backends, inside the guest for a VM.
 */
#ifndef CVMBENCH_PROBE_H
#define CVMBENCH_PROBE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "cell.h"

#define PROBE_OPS_VERSION 1

enum probe_window {
	PROBE_WINDOW_CELL = 1,
	PROBE_WINDOW_INVOCATION = 2,
};

/* Which machine a probe measures, and so where it runs. */
enum probe_side {
	PROBE_HOST = 1,               /* cvmbench's process and machine */
	PROBE_INSTANCE = 2,           /* the instance's machine: through the agent */
};

struct backend_ops;

/*
 * What the probe measures around: the cell, where its instances run, the
 * instances, their results. @pids are the instances of the window: in warm
 * mode the cell's serving instances (set before the cell window starts);
 * in cold mode, for an invocation window the instances of that call (set
 * once they are started, so a probe reads them from stop() on), and for
 * the cell window every instance started so far.
 */
struct probe_target {
	const struct cell *cell;
	const struct backend_ops *backend;  /* the cell's backend (backend.h) */
	void *backend_state;          /* its cell state from cell_begin(), or NULL */
	const pid_t *pids;            /* instance processes of the window */
	int npids;
	const double *latency_ns;     /* measured round trips so far */
	const double *fn_ns;          /* function times so far */
	size_t nresults;
	/*
	 * The host's MemAvailable (kB) read after the cell's knobs were
	 * applied and before its backend's cell_begin() (a VM backend boots
	 * the cell's VMs in prepare(), before probes open); -1: not read.
	 */
	long long mem_available_before_kb;
	/*
	 * The free pages on per-CPU lists (kB, lib/procmem.h pcp_free_read())
	 * read with it: free, but not in MemAvailable; -1: not read.
	 */
	long long pcp_free_before_kb;
	/*
	 * The accelerator the cell's VMs run under as the backend used it
	 * ("kvm", "tcg": after a fallback, not the cell's accel = auto), set
	 * after the backend's prepare(); NULL: the backend runs no VM (or
	 * does not say).
	 */
	const char *accel;
};

struct sink;

struct probe {
	const struct probe_ops *ops;
	const struct probe_target *target;
	void *priv;
	unsigned int skipped;         /* windows (PROBE_WINDOW_*) whose start or stop failed */
	char error[256];
};

struct probe_ops {
	int version;                  /* PROBE_OPS_VERSION */
	const char *name;
	const char *measures;         /* one line: what, and where it comes from */
	unsigned int windows;         /* PROBE_WINDOW_* it wants */
	enum probe_side side;         /* the machine it measures */
	/*
	 * 1: its windows enclose every other probe's. The probe set starts
	 * such probes before the others and stops them after every other probe
	 * has stopped (bench/run/probe-set.c), so a wait in its stop (hostmem's
	 * and ksm's KSM convergence, up to ksm-timeout) lies outside the other
	 * probes' windows and does not stretch them (exits per second, CPU
	 * time of the window). Host probes only; 0 for the rest.
	 */
	int outer;
	/* 1 if it can measure here; else 0 with the reason in @why. NULL = always. */
	int (*supported)(char *why, size_t len);
	/*
	 * 1 if it can measure cell @c whose VMs run under @accel ("kvm",
	 * "tcg"; NULL: the backend runs no VM); else 0 with the reason in @why.
	 * Decided from the cell and the accelerator only, before anything
	 * runs: the probe set asks it before open() with the accelerator the
	 * backend used (probe_target.accel), `cvmbench list` with the one the
	 * backend will choose (backend_cell_accel()). NULL = every cell.
	 */
	int (*cell_supported)(const struct cell *c, const char *accel, char *why, size_t len);
	int (*open)(struct probe *p);
	int (*start)(struct probe *p, enum probe_window w);
	int (*stop)(struct probe *p, enum probe_window w);
	/* Emit the rows of the window just stopped. */
	int (*emit)(struct probe *p, enum probe_window w, struct sink *s);
	void (*close)(struct probe *p);
};

/** probe_side_name() - "host" or "instance". */
const char *probe_side_name(enum probe_side side);
/** probe_find() - the ops for @name, or NULL. */
const struct probe_ops *probe_find(const char *name);
size_t probe_count(void);
const struct probe_ops *probe_at(size_t i);
/**
 * probe_supported() - 1, or 0 with the reason (also for a missing library,
 * and for @ops NULL: a name probe_find() does not know).
 */
int probe_supported(const struct probe_ops *ops, char *why, size_t len);
/**
 * probe_cell_supported() - probe_supported(), then whether @ops can measure
 * cell @c whose VMs run under @accel (probe_ops.cell_supported): 1, or 0
 * with the reason. The one decision behind a probe's skip row stored before
 * it opens (probe-set.c) and `cvmbench list`'s "would skip" (cell-check.c).
 */
int probe_cell_supported(const struct probe_ops *ops, const struct cell *c,
			 const char *accel, char *why, size_t len);
/** probe_error() - record the first error of a probe, return @err. */
int probe_error(struct probe *p, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
