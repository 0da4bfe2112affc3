/* SPDX-License-Identifier: MIT */
/*
 * db-resume.h - reading an earlier run to continue it (run --resume,
 * run --only): the run, its selection, its cells' current rows.
 */
#ifndef CVMBENCH_DB_RESUME_H
#define CVMBENCH_DB_RESUME_H

#include <stdint.h>

struct db;

/* Environment facts of a run that say which cells it was asked for. */
#define DB_FACT_SHARD "run.shard"     /* "I/N" of --shard; absent: all */
#define DB_FACT_ONLY "run.only"       /* the --only keys it began with, "a,b" */

struct db_prev_run {
	int64_t id;
	char *config_text;
	char *hostname;
	char *status;
	char *version;            /* run.cvmbench_version */
	char *only;               /* DB_FACT_ONLY, or NULL: every cell (of its shard) */
};

typedef void (*db_cell_fn)(void *ctx, const char *key, const char *status);

int db_run_pick(struct db *db, const char *config_text, const char *shard,
		struct db_prev_run *out);
void db_prev_run_free(struct db_prev_run *r);
int db_run_cells(struct db *db, int64_t run_id, db_cell_fn fn, void *ctx);
int db_run_reopen(struct db *db, int64_t run_id);

#endif
