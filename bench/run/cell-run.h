/* SPDX-License-Identifier: MIT */
/*
 * cell-run.h - measure one cell (cell-run.c) of the run that hands it
 * its struct cell_ctx: how the cell ended (enum cell_status), and its
 * error rows.
 */
#ifndef CVMBENCH_CELL_RUN_H
#define CVMBENCH_CELL_RUN_H

#include "cell-ctx.h"

enum cell_status { CELL_OK, CELL_SKIPPED, CELL_FAILED, CELL_INTERRUPTED };

/** cell_run() - measure one cell; every row is written as it is made. */
enum cell_status cell_run(struct cell_ctx *ctx);
/** cell_fail() - record an error row for the cell (file:line of the caller). */
#define cell_fail(ctx, ...) cell_fail_at(ctx, __FILE__, __LINE__, __func__, __VA_ARGS__)
void cell_fail_at(struct cell_ctx *ctx, const char *file, int line, const char *func,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
