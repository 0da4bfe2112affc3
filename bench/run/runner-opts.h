/* SPDX-License-Identifier: MIT */
/*
 * runner-opts.h - the options of `cvmbench run`: cmd-run.c fills them from
 * the command line, runner.c runs by them and run-plan.c picks the cells
 * (--only, --shard, --resume) by them.
 */
#ifndef CVMBENCH_RUNNER_OPTS_H
#define CVMBENCH_RUNNER_OPTS_H

#include <stddef.h>

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

#endif
