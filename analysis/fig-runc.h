/* SPDX-License-Identifier: MIT */
/*
 * fig-runc.h - what the runc figures (fig-runc-phases.c, fig-runc-sweep.c,
 * fig-runc-contention.c) share: the cells of a run that have container
 * starts traced by the runc probe, each with a label (runtime, workload
 * when several, and every runc/crun key not at its default) and the
 * statistics of its starts.
 */
#ifndef CVMBENCH_FIG_RUNC_H
#define CVMBENCH_FIG_RUNC_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

struct runc_cell {
	int64_t id;
	char label[160];          /* "runc seccomp=off" */
	char series[160];         /* the label without the swept key */
	double x;                 /* the swept key's value; -1 if not set */
	int all;                  /* x is cpus = 0, "all", drawn at the CPU count */
	size_t nstarts;
	double median_ms, p25_ms, p75_ms;    /* fork to reply (cold start) */
	double total_ms, blocked_ms;         /* means per start */
};

/**
 * runc_cells_load() - the cells of @run_id with traced starts, in cell
 * order; @sweep (a key name, or NULL) fills x and series. *@out is
 * malloc'd. Returns 0 or -errno.
 */
int runc_cells_load(struct sqlite3 *h, int64_t run_id, const char *sweep,
		    struct runc_cell **out, size_t *n);

/**
 * runc_cells_measured() - keep, in order, the cells of @v that have a
 * measured cold start (the others have nothing to draw); their count.
 */
size_t runc_cells_measured(struct runc_cell *v, size_t n);

/**
 * runc_cell_tick() - the x label of a bar of cell @c: its label and the
 * number of starts behind it, "runc seccomp=off (N=20)", into @buf.
 * Returns @buf.
 */
const char *runc_cell_tick(const struct runc_cell *c, char *buf, size_t len);

#endif
