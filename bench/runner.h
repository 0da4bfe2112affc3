/* SPDX-License-Identifier: MIT */
/*
 * runner.h - `cvmbench run`: load a config, expand it, and measure each
 * cell into the database (cell-run.c does one cell).
 */
#ifndef CVMBENCH_RUNNER_H
#define CVMBENCH_RUNNER_H

#include <signal.h>
#include <stdint.h>

#include "backend.h"
#include "cell.h"

struct db;

struct runner_opts {
	const char *config_path;
	const char *db_path;
	const char **only;        /* cell keys to run; NULL = all */
	int nonly;
	const char *data_dir;
	const char *cvmfn;
	const char *digest;       /* cvmfn serve --digest (every|first|N); NULL = its default */
	const char *command_line;
	int dry_run;              /* list the cells, measure nothing */
	int verbose;              /* --dry-run: every key of every cell */
	size_t max_cells;         /* refuse a config with more cells; 0 = the default */
	double wait_lock;         /* seconds to wait for the host lock */
	int resume;               /* continue the latest run of this config (run-plan.c) */
	int shard_i, shard_n;     /* --shard I/N (1 <= I <= N); N = 0: every cell */
	const char *balance_db;   /* --balance: split by the cells' cost in this database */
	const int *shard_of;      /* per cell index: its shard (0-based) of a balanced
				   * split (shard-split.c); NULL: index modulo N */
};

/* Set by SIGINT / SIGTERM: the runner stops after the call in flight. */
extern volatile sig_atomic_t runner_stop;

enum cell_status { CELL_OK, CELL_SKIPPED, CELL_FAILED, CELL_INTERRUPTED };

struct cell_ctx {
	struct db *db;
	int64_t run_id;
	int64_t cell_id;
	const struct cell *cell;
	struct backend_env env;
};

/** runner_run() - the whole run; returns an exit code (exitcode.h). */
int runner_run(const struct runner_opts *o);
/** cell_run() - measure one cell; every row is written as it is made. */
enum cell_status cell_run(struct cell_ctx *ctx);
/** cell_fail() - record an error row for the cell (file:line of the caller). */
#define cell_fail(ctx, ...) cell_fail_at(ctx, __FILE__, __LINE__, __func__, __VA_ARGS__)
void cell_fail_at(struct cell_ctx *ctx, const char *file, int line, const char *func,
		  const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#endif
