/* SPDX-License-Identifier: MIT */
/*
 * cell-ctx.h - what the runner hands the code that measures one cell
 * (cell-run.c) and stores its rows (cell-noise.c): the database, the
 * cell's log of invocation rows, the run's and the cell's row ids, the
 * cell, and the environment of its backend.
 */
#ifndef CVMBENCH_CELL_CTX_H
#define CVMBENCH_CELL_CTX_H

#include <stdint.h>

#include "backend.h"
#include "cell.h"

struct db;
struct call_log;

struct cell_ctx {
	struct db *db;
	struct call_log *calls;   /* the invocation rows, folded into db in batches */
	int64_t run_id;
	int64_t cell_id;
	const struct cell *cell;
	struct backend_env env;
};

#endif
