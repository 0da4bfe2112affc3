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
	const char *config, *db;          /* --config, --db (plan-db.c) */
	struct plan_policy policy[PLAN_MAX_POLICIES];
	int npolicy, csv;
	uint64_t seed;
	enum sim_spread spread;
	double price, inst_mib, cold_ms, warm_ms;
};

/* A trace as read (the 2019 counts, or the 2021 file scanned). */
struct plan_trace {
	int is21;
	struct trace19 t19;
	struct trace21 t21;
	size_t nfn;
	double horizon;
};

/**
 * plan_trace_load() - the trace of @a (a->trace; a->format, else from its
 * header; a->durations, a->memory) into *@t. Returns 0, EXIT_USAGE (a
 * malformed or empty trace, named) or EXIT_FAILED.
 */
int plan_trace_load(const struct plan_args *a, struct plan_trace *t);
/** plan_trace_free() - free what plan_trace_load() took. */
void plan_trace_free(struct plan_trace *t);

/** plan_run() - run @a, the table on @out; an exit code (exitcode.h). */
int plan_run(const struct plan_args *a, FILE *out);

#endif
