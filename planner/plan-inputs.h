/* SPDX-License-Identifier: MIT */
/*
 * plan-inputs.h - what a plan takes from the database, per platform (a
 * set of cells, plan-config.h) and measured function (a workload): the
 * host memory of one warm instance, the cold-start latencies and the warm
 * latencies, with the cells and runs they came from (docs/capacity.md,
 * "Inputs").
 */
#ifndef CVMBENCH_PLAN_INPUTS_H
#define CVMBENCH_PLAN_INPUTS_H

#include <stddef.h>

#include "plan-config.h"

struct sqlite3;

/* One platform's measurements of one function. */
struct plan_meas {
	double *mem_kb;          /* per warm cell: host kB / instances */
	size_t nmem;
	int n_memcg, n_pss;      /* cells whose figure was memcg_usage_kb, pss_kb */
	int minmem;              /* mem_kb is `cvmbench minmem`'s answer (one value) */
	double *cold, *warm;     /* seconds */
	size_t ncold, nwarm;
	char cold_src[64];       /* the cold sources seen, joined by '+' */
	char *cells, *runs;      /* "3,4,9" (malloc'd) */
	size_t trace_fns;        /* trace functions mapped to it (plan-map.c) */
};

struct plan_inputs {
	int nplat, nwl;
	char (*wl)[64];          /* the measured functions, sorted */
	struct plan_meas *m;     /* m[p * nwl + w] */
};

/**
 * plan_inputs_read() - the measurements of every platform of @c for every
 * function (@c's workloads, else every workload any platform's cells
 * have) from @h into *@in. Returns 0, EXIT_USAGE after naming every
 * platform and function without the measurements it needs and the cells
 * to run, or EXIT_FAILED.
 */
int plan_inputs_read(struct sqlite3 *h, const struct plan_config *c, struct plan_inputs *in);
/** plan_meas_mem() - the mean per-instance memory (kB) of @m. */
double plan_meas_mem(const struct plan_meas *m);
/** plan_meas_source() - memcg, pss or memcg+pss. */
const char *plan_meas_source(const struct plan_meas *m);
void plan_inputs_free(struct plan_inputs *in);

#endif
