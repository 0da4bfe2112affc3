/* SPDX-License-Identifier: MIT */
/*
 * db.h - the results database (the store): open, migrate, and write rows
 * through prepared statements. Every row is committed when it is written,
 * so a crash loses at most what was in flight; the rows of a probe's window
 * (sink.h) are committed together at the window's end, and invocation rows
 * in batches through a call log that survives a kill (call-log.h).
 */
#ifndef CVMBENCH_DB_H
#define CVMBENCH_DB_H

#include <stddef.h>
#include <stdint.h>

#include "cell.h"

struct db;
struct sqlite3;
struct sink_ops;

enum db_open_flags {
	DB_READONLY = 0,
	DB_CREATE = 1,            /* create and migrate to the newest schema */
	DB_NOFOLLOW = 2,          /* with DB_CREATE: refuse a symlink planted after
				   * the caller checked the path (merge --out) */
};

/**
 * db_open() - open @path. With DB_CREATE the file is created if needed and
 * migrated, and marked as cvmbench's (PRAGMA application_id). Refused, with
 * nothing in the file changed: a name that is not a file ("" or ":memory:"),
 * another program's SQLite file, a database from a newer schema, and for
 * DB_CREATE a file that cannot be written. Read-only, a WAL database on a
 * read-only mount is opened as immutable. Errors are written to @err
 * (naming the file). Returns 0 or -errno.
 */
int db_open(struct db **out, const char *path, int flags, char *err, size_t errlen);
void db_close(struct db *db);
/** db_sqlite() - the handle, for read-only analysis code. */
struct sqlite3 *db_sqlite(struct db *db);
/** db_migrate() - apply pending migrations; used by db_open and the tests. */
int db_migrate(struct sqlite3 *h, const char *path, char *err, size_t errlen);

struct run_info {
	const char *vantage;
	const char *command_line;
	const char *config_path;
	const char *config_text;
};

int64_t db_run_begin(struct db *db, const struct run_info *info);
int db_run_end(struct db *db, int64_t run_id, const char *status, int total,
	       int ok, int skipped, int failed);
/**
 * db_run_interrupted() - mark run @run_id, if it is still `running`, and
 * its running cells `interrupted`, ended at @when (the time the journal
 * of the killed run was recovered). Returns 1 if the run was marked, 0 if
 * it had ended, or -EIO.
 */
int db_run_interrupted(struct db *db, int64_t run_id, const char *when);
int db_env_add(struct db *db, int64_t run_id, const char *key,
	       const char *value, const char *source);

/**
 * db_cell_begin() - the row of cell @c of run @run_id, with its index in the
 * whole matrix (c->index) and its cell_param rows, in one transaction.
 * Returns the cell's id, or -EIO (logged).
 */
int64_t db_cell_begin(struct db *db, int64_t run_id, const struct cell *c);
int db_cell_end(struct db *db, int64_t cell_id, const char *status);

struct instance_row {
	int64_t cell_id;
	int idx;
	int pid;
	long long init_ns, start_ns;
	long rss_kb, pss_kb;
	int threads;
};
int db_instance_add(struct db *db, const struct instance_row *row);

struct invocation_row {
	int64_t cell_id;
	int instance_idx;
	long seq;
	const char *phase;        /* warmup | measured */
	const char *start;        /* warm | cold */
	const char *started_at;
	long long latency_ns;     /* < 0: unknown */
	long long fn_ns;          /* < 0: unknown */
	int ok;
	const char *digest;       /* NULL: not hashed (or failed) */
	const char *error;
	long long digest_ns;      /* < 0: not hashed */
};
/** db_invocation_add() - a row under the next id; the id, or -EIO. */
int64_t db_invocation_add(struct db *db, const struct invocation_row *row);
/**
 * db_invocation_put() - a row under invocation id @id (0: the next one).
 * The same call already there under @id (a log folded again) is left as it
 * is; another call there is -EEXIST. 0 or -errno.
 */
int db_invocation_put(struct db *db, int64_t id, const struct invocation_row *row);
/** db_invocation_max_id() - the largest invocation id (0: none), or -EIO. */
int64_t db_invocation_max_id(struct db *db);
/** db_begin() - a write transaction (BEGIN IMMEDIATE); 0 or -EIO. */
int db_begin(struct db *db);
/** db_commit() - commit when @ok, else (or if that fails) roll back; 0 or -EIO. */
int db_commit(struct db *db, int ok);

int db_metric_add(struct db *db, int64_t cell_id, int64_t invocation_id,
		  const char *probe, const char *name, double value, const char *unit);
int db_skip_add(struct db *db, int64_t run_id, int64_t cell_id,
		const char *probe, const char *reason);
int db_cell_note(struct db *db, int64_t cell_id, const char *key, const char *value);
/*
 * A cell's current row in its run: the newest row of its key. Older rows of
 * the same run and key are superseded (a cell cut off and run again): kept,
 * never counted. Every reader filters with this (analysis/views.sql shadows
 * the cell table with it); ids only grow, also through `merge`.
 */
#define DB_CELL_CURRENT \
	"id IN (SELECT max(id) FROM cell GROUP BY run_id, cell_key)"
/** db_skip_count() - how many skip rows (cells or probes) run @run_id has. */
int db_skip_count(struct db *db, int64_t run_id);
/**
 * db_probe_skip_count() - the skips of @run_id that do not belong to a
 * skipped cell: probes of measured cells, and run-wide ones. Returns the
 * count, or -1 when the database cannot say.
 */
int db_probe_skip_count(struct db *db, int64_t run_id);
int db_error_add(struct db *db, int64_t run_id, int64_t cell_id,
		 const char *source, const char *message);

/* The sink that writes into the store (probes/sink.h): metrics, skips,
 * notes and rows of a probe's own table. */
extern const struct sink_ops sink_db_ops;

/**
 * db_window_begin() - the rows written from now until db_window_end() are
 * one probe window's (sink.h): one transaction, begun at its first row.
 * Returns 0, or -EBUSY when a window is open already.
 */
int db_window_begin(struct db *db);
/**
 * db_window_end() - commit the window's rows when @ok, else roll them back
 * (and only them: rows written before the window stay). Returns 0, or -EIO
 * when the commit failed (the rows are then rolled back).
 */
int db_window_end(struct db *db, int ok);

/** utc_now() - current time as ISO 8601 UTC with microseconds. */
void utc_now(char *buf, size_t len);

#endif
