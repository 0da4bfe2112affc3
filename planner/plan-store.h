/* SPDX-License-Identifier: MIT */
/*
 * plan-store.h - a plan into the database (tables plan, plan_input,
 * plan_point, plan_target: results-schema/010-plan.sql) in one
 * transaction, and its answers on stdout.
 */
#ifndef CVMBENCH_PLAN_STORE_H
#define CVMBENCH_PLAN_STORE_H

#include <stdint.h>
#include <stdio.h>

#include "plan-answer.h"

struct sqlite3;

/** plan_store() - write the plan; its id into *@id. Returns 0 or EXIT_FAILED. */
int plan_store(struct sqlite3 *h, const struct plan_config *c, const struct plan_inputs *in,
	       const struct plan_answer *a, int64_t *id);
/** plan_print() - the inputs, the target table and the budget table on @out. */
void plan_print(FILE *out, const struct plan_config *c, const struct plan_inputs *in,
		const struct plan_answer *a);

#endif
