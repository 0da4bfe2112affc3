/* SPDX-License-Identifier: MIT */
/*
 * plan-table.h - the newest capacity plan of a database (tables plan_*,
 * results-schema/010-plan.sql, written by `cvmbench plan --config`):
 * `show --table plan`, the report's section and the plan figures' query.
 */
#ifndef CVMBENCH_PLAN_TABLE_H
#define CVMBENCH_PLAN_TABLE_H

#include <stdint.h>
#include <stdio.h>

struct sqlite3;
struct cJSON;

/** plan_table_latest() - the newest plan's id, 0 when none (or no plan tables). */
int64_t plan_table_latest(struct sqlite3 *h);
/**
 * plan_table_show() - the newest plan's inputs, targets and budget rows
 * on @out (@json: one JSON object). Returns 0, -ENODATA (no plan) or -EIO.
 */
int plan_table_show(struct sqlite3 *h, int json, FILE *out);

/**
 * plan_table_json() - the newest plan as {"plan", "inputs", "targets",
 * "budget"} (arrays of row objects); NULL when there is none.
 */
struct cJSON *plan_table_json(struct sqlite3 *h);

#endif
