/* SPDX-License-Identifier: MIT */
/*
 * plan-run.h - one `cvmbench plan`: read the trace, build the platform,
 * run every policy over the same arrivals, print the table.
 */
#ifndef CVMBENCH_PLAN_RUN_H
#define CVMBENCH_PLAN_RUN_H

#include <stdint.h>
#include <stdio.h>

#include "plan-policy.h"
#include "sim-feed.h"

#define PLAN_MAX_POLICIES 64

struct plan_args {
	const char *trace, *format, *durations, *memory;
	struct plan_policy policy[PLAN_MAX_POLICIES];
	int npolicy, csv;
	uint64_t seed;
	enum sim_spread spread;
	double price, inst_mib, cold_ms, warm_ms;
};

/** plan_run() - run @a, the table on @out; an exit code (exitcode.h). */
int plan_run(const struct plan_args *a, FILE *out);

#endif
