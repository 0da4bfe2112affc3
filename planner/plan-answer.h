/* SPDX-License-Identifier: MIT */
/*
 * plan-answer.h - a plan's answers (docs/capacity.md, "Answers"): every
 * platform under the TTL ladder and, with a budget, lru and gdsf at the
 * budget, for each seed and each bootstrap resample of the measurements
 * (resample 0: the measurements as they are); at each cold-start target
 * the mean warm memory the TTL ladder needs (interpolated between the two
 * TTLs around the target) and a CVM platform's extra over its twin.
 */
#ifndef CVMBENCH_PLAN_ANSWER_H
#define CVMBENCH_PLAN_ANSWER_H

#include <stddef.h>
#include <stdint.h>

#include "plan-config.h"
#include "plan-inputs.h"
#include "plan-policy.h"
#include "plan-run.h"
#include "sim.h"

/* One simulated point of resample 0. */
struct plan_point {
	int plat;
	struct plan_policy pol;
	int budget;               /* 1: the budget question, 0: the ladder */
	uint64_t seed;
	struct sim_result r;
};

/* The answer at one target for one (CVM platform, twin) pair. */
struct plan_target_row {
	int plat, twin;
	double target;            /* fraction */
	double mem, twin_mem;     /* MiB, resample 0, median over seeds; NaN: not reached */
	double extra, lo, hi;     /* MiB */
	int replicates;
};

struct plan_answer {
	struct plan_point *pts;
	size_t npts;
	struct plan_target_row *rows;
	size_t nrows;
};

/**
 * plan_answer_run() - simulate @t under @c with the measurements @in
 * (trace function f stands for workload @map[f]) into *@a. Returns 0,
 * EXIT_USAGE (a budget below one instance) or EXIT_FAILED.
 */
int plan_answer_run(const struct plan_config *c, const struct plan_inputs *in,
		    struct plan_trace *t, const uint32_t *map, struct plan_answer *a);
void plan_answer_free(struct plan_answer *a);

#endif
