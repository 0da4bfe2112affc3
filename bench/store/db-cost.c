// SPDX-License-Identifier: MIT
/*
 * db-cost.c - what `run --shard I/N --balance DB` reads of the earlier
 * runs in DB: each run's config text, and the wall time of the current
 * row of each of its cells that ended ok (superseded rows left out,
 * DB_CELL_CURRENT of db.h). Nothing is written.
 */
#include <errno.h>

#include "db-cost.h"
#include "db-local.h"
#include "log.h"

/**
 * db_runs_each() - call @fn with the id and config text of every run of
 * @db, in id order. Returns 0 or -EIO (reported).
 */
int db_runs_each(struct db *db, db_run_text_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "SELECT id, config_text FROM run ORDER BY id", -1, &st,
			       NULL) != SQLITE_OK) {
		pr_err("%s: %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, sqlite3_column_int64(st, 0), (const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/**
 * db_run_ok_cells() - call @fn with the key and the wall time in µs
 * (ended_at - started_at, as SQLite reads the timestamps: to the
 * millisecond) of the current row of each cell of run @run_id that ended
 * ok, in id order; a time SQLite cannot read is skipped. Returns 0 or -EIO
 * (reported).
 */
int db_run_ok_cells(struct db *db, int64_t run_id, db_cell_time_fn fn, void *ctx)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(db->h, "SELECT cell_key, CAST(round((julianday(ended_at) - "
			       "julianday(started_at)) * 86400e6) AS INTEGER) AS us FROM cell "
			       "WHERE run_id = ?1 AND status = 'ok' AND us >= 0 "
			       "AND " DB_CELL_CURRENT " ORDER BY id", -1, &st, NULL) != SQLITE_OK) {
		pr_err("%s: %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	sqlite3_bind_int64(st, 1, run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		fn(ctx, (const char *)sqlite3_column_text(st, 0), sqlite3_column_int64(st, 1));
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}
