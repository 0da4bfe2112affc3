/* SPDX-License-Identifier: MIT */
/*
 * db-cost.h - the earlier runs of a database that `run --balance` reads:
 * their configs and their ok cells' wall time (the cells' cost).
 */
#ifndef CVMBENCH_DB_COST_H
#define CVMBENCH_DB_COST_H

#include <stdint.h>

struct db;

typedef void (*db_run_text_fn)(void *ctx, int64_t run_id, const char *config_text);
typedef void (*db_cell_time_fn)(void *ctx, const char *key, int64_t wall_us);

int db_runs_each(struct db *db, db_run_text_fn fn, void *ctx);
int db_run_ok_cells(struct db *db, int64_t run_id, db_cell_time_fn fn, void *ctx);

#endif
