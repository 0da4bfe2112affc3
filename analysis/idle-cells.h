/* SPDX-License-Identifier: MIT */
/*
 * idle-cells.h - the cells of a run seen through the idle policy: the VM
 * type they ran in, latency summary, halt and idle entries per invocation
 * (idle probe), the CPU burnt (cpu probe) and the host's VM exits of the
 * cell window (vmexit probe, idle-exits.c), for the idle-policy and
 * threads-sweep figures and the study-layout tables of idle-tables.c.
 */
#ifndef CVMBENCH_IDLE_CELLS_H
#define CVMBENCH_IDLE_CELLS_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;
struct figure_ctx;

struct idle_cell {
	int64_t id;
	char workload[64], size[16], idle[64], experiment[64];
	char vmtype[32];          /* native, container, regular, model, sev-snp, tdx */
	int vmrank;               /* that order; 6 for another type */
	int threads;              /* 0 = as many as the instance has CPUs */
	size_t n;                 /* measured successful invocations */
	double mean_ms, median_ms, p25_ms, p75_ms;
	double halt_per_inv;      /* NAN when the idle probe did not run */
	double idle_per_inv;
	double burnt_pct;         /* NAN when the cpu probe did not run */
	double burnt_ms;
	int idle_probes;          /* the cell ran (or asked for) the idle or cpu probe */
	char source[64];          /* where its idle entries came from ("tracefs
				   * power:cpu_idle"), "" if not said */
	/* the host's kvm_exit counts of the cell window (vmexit probe); NAN: none */
	double exits, hlt_exits;  /* every exit; the idle class (HLT ...) */
	double hlt_pct;           /* hlt_exits in % of exits */
	double hlt_time_pct;      /* their handling time in % of all exits' */
};

/**
 * idle_cells_load() - the warm cells of @run_id with at least one measured
 * invocation, ordered by workload, size, threads, VM type, policy. The VM
 * type of a cell (vmtype): a cell in VMs of its own (backend qemu, or a
 * cell_param qemu.accel) is the confidential type it got
 * (cell-series.h CELL_SERIES_CONF), "regular" for none; a cell in no VM of
 * its own is the type of the machine it ran on (its run's cvm.type, through
 * the same macro), "regular" for a machine that is a VM (environment
 * hypervisor.present = yes), else "native" (backend native or zygote) or "container"
 * (runc, crun). *@out is malloc'd. Returns 0 or -errno.
 */
int idle_cells_load(struct sqlite3 *h, int64_t run_id, struct idle_cell **out,
		    size_t *n);

/**
 * idle_cell_of_policy() - whether @c belongs in the idle-policy views: it
 * ran (or asked for) the idle or cpu probe, or it has VM exits counted
 * under an idle policy it set (its `idle` key).
 */
int idle_cell_of_policy(const struct idle_cell *c);

/**
 * idle_vmtypes() - how many distinct VM types the cells of @v are of.
 */
int idle_vmtypes(const struct idle_cell *v, size_t n);

/**
 * idle_policy_rgb() - the colour of idle policy @idle in the figures, as
 * 0xRRGGBB: default grey, hlt red, haltpoll orange, poll blue, spin
 * purple, anything else brown. Only the policy's name counts ("hlt, no
 * cpuidle driver" is hlt): spin is never drawn as poll.
 */
unsigned int idle_policy_rgb(const char *idle);

/**
 * idle_common_source() - the source of the idle entries of the cells of
 * @v that have halt entries: "" when none says, NULL when they differ
 * (then each label names its own).
 */
const char *idle_common_source(const struct idle_cell *v, size_t n);

/**
 * idle_halt_vars() - the gnuplot variables of an idle figure's halt panel:
 * havehalt (some cell has halt entries), haltsource (where they came
 * from, when all of @v that have them say the same; else "") and
 * haltnote, why none has (the idle probe's first skip reason, on one
 * line, or that no cell ran the probe; "" when some has).
 */
void idle_halt_vars(struct figure_ctx *ctx, const struct idle_cell *v, size_t n);

#endif
