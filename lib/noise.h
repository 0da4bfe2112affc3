/* SPDX-License-Identifier: MIT */
/*
 * noise.h - how busy the machine was around a cell, apart from the cell:
 * load average and run-queue length before and after, the CPU time of
 * everything that is not the cell's processes, and steal. Read from /proc
 * through sysroot() so that tests can give a fake tree.
 */
#ifndef CVMBENCH_NOISE_H
#define CVMBENCH_NOISE_H

#include <stddef.h>
#include <sys/types.h>

#define NOISE_MAX_PROCS 65536   /* processes of /proc looked at */

struct noise_snap {
	double load1;                  /* /proc/loadavg, 1 min; NAN: unread */
	long procs_running;            /* /proc/stat; -1: unread */
	unsigned long long busy, steal; /* all CPUs, USER_HZ ticks ("cpu " line) */
	unsigned long long own;        /* the cell's processes, ticks */
	int nown;                      /* live processes below cvmbench */
	int ncpus;                     /* cpuN lines */
	double t_ns;                   /* CLOCK_MONOTONIC */
	int ok;                        /* /proc/stat was read */
};

struct noise {
	struct noise_snap a, b;
};

struct noise_result {
	double wall_ms, busy_ms, own_ms;
	double other_ms;               /* busy - own, never below 0 */
	double other_pct, steal_ms, steal_pct;  /* % of all CPUs' time */
	double resolution_ms;          /* the tick counts' rounding, at most */
	double other_low_pct, steal_low_pct;    /* less the rounding: flagged on */
	int ncpus;
};

int noise_snap_read(struct noise_snap *s);
int noise_begin(struct noise *n);
int noise_end(struct noise *n);
int noise_result(const struct noise *n, long hz, struct noise_result *r);
int noise_over(const struct noise_result *r, double threshold_pct);

#endif
