// SPDX-License-Identifier: MIT
/*
 * db-resume.c - what `run --resume` and `run --only` read of an earlier run
 * of the database: which run to continue, its config and selection, and the
 * current row of each of its cells. A cell run again in the same run (after
 * a kill, or by --only) gets a new row; the older rows of that cell key in
 * that run are superseded: kept, never counted (DB_CELL_CURRENT).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "db-local.h"
#include "db-resume.h"
#include "log.h"

static char *dup_col(sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	return s ? strdup(s) : NULL;
}

static const char sql_pick[] =
	"SELECT r.id, r.config_text, r.hostname, r.status, "
	" (SELECT value FROM environment WHERE run_id = r.id AND key = '" DB_FACT_ONLY "'), "
	" r.cvmbench_version FROM run AS r WHERE (SELECT value FROM environment WHERE run_id = r.id AND "
	" key = '" DB_FACT_SHARD "') IS ?1 "
	"ORDER BY (r.config_text IS ?2) DESC, r.id DESC LIMIT 1";

/**
 * db_run_pick() - the run a resume continues: the latest run of @shard
 * (NULL: an unsharded run) whose config text is @config_text, else the
 * latest run of @shard. Fills @out (free with db_prev_run_free()).
 * Returns 1 when there is one, 0 when the database has no such run, -EIO.
 */
int db_run_pick(struct db *db, const char *config_text, const char *shard,
		struct db_prev_run *out)
{
	sqlite3_stmt *st;
	int rc;

	memset(out, 0, sizeof(*out));
	if (sqlite3_prepare_v2(db->h, sql_pick, -1, &st, NULL) != SQLITE_OK) {
		pr_err("%s: %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	bind_text(st, 1, shard);
	bind_text(st, 2, config_text);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		out->id = sqlite3_column_int64(st, 0);
		out->config_text = dup_col(st, 1);
		out->hostname = dup_col(st, 2);
		out->status = dup_col(st, 3);
		out->only = dup_col(st, 4);
		out->version = dup_col(st, 5);
	}
	sqlite3_finalize(st);
	if (rc == SQLITE_ROW)
		return 1;
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/** db_prev_run_free() - free what db_run_pick() filled in. */
void db_prev_run_free(struct db_prev_run *r)
{
	free(r->config_text);
	free(r->hostname);
	free(r->status);
	free(r->only);
	free(r->version);
	memset(r, 0, sizeof(*r));
}

/**
 * db_run_cells() - call @fn with the key and status of the current row of
 * each cell of run @run_id (superseded rows left out). Returns 0 or -EIO.
 */
int db_run_cells(struct db *db, int64_t run_id, db_cell_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "SELECT cell_key, status FROM cell WHERE run_id = ?1 "
			       "AND " DB_CELL_CURRENT " ORDER BY id", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0),
		   (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/**
 * db_run_reopen() - run @run_id is measured again: status `running`, no
 * end time, until db_run_end() (or the journal's recovery) closes it.
 * Returns 0 or -EIO.
 */
int db_run_reopen(struct db *db, int64_t run_id)
{
	sqlite3_stmt *st;
	int ret;

	if (sqlite3_prepare_v2(db->h, "UPDATE run SET status = 'running', ended_at = NULL "
			       "WHERE id = ?1", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	ret = db_step(db, st);
	sqlite3_finalize(st);
	return ret;
}
