// SPDX-License-Identifier: MIT
/*
 * tests/unit/db-reader.c - a reader's connection (db_open(DB_READONLY),
 * what show, export, plot, report use): it refuses every change to the
 * database (an INSERT, a DELETE, a new table, writable_schema) yet creates
 * TEMP views; and, closing last, it leaves no -wal or -shm file beside a
 * WAL database, which a SQLite read-only connection does (issue 16). The
 * row count is read back through SQLite itself after the attempts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sqlite3.h>

#include "db.h"
#include "tap.h"

static int exists(const char *base, const char *suffix)
{
	char p[512];

	snprintf(p, sizeof(p), "%s%s", base, suffix);
	return !access(p, F_OK);
}

static int exec_ok(sqlite3 *h, const char *sql)
{
	return sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK;
}

static int count_runs(const char *path)
{
	sqlite3 *h;
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_open_v2(path, &h, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
	    sqlite3_prepare_v2(h, "SELECT count(*) FROM run", -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			n = sqlite3_column_int(st, 0);
		sqlite3_finalize(st);
	}
	sqlite3_close(h);
	return n;
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-reader-XXXXXX", path[256], err[512] = "";
	struct run_info info = { .vantage = "host", .command_line = "t" };
	struct db *db;
	sqlite3 *h;
	int n;

	tap_plan(7);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tap_ok(!db_open(&db, path, DB_CREATE, err, sizeof(err)) && db_run_begin(db, &info) > 0,
	       "a database with one run (%s)", err);
	db_close(db);
	tap_ok(!exists(path, "-wal") && !exists(path, "-shm"), "the writer, closing, left no -wal/-shm");
	tap_ok(!db_open(&db, path, DB_READONLY, err, sizeof(err)), "opened to read (%s)", err);
	h = db_sqlite(db);
	tap_ok(!exec_ok(h, "INSERT INTO run (started_at, vantage) VALUES ('x', 'host')") &&
	       !exec_ok(h, "DELETE FROM run") && !exec_ok(h, "CREATE TABLE t (a)") &&
	       !exec_ok(h, "PRAGMA writable_schema = ON"),
	       "the reader refuses INSERT, DELETE, CREATE TABLE and writable_schema");
	tap_ok(exec_ok(h, "CREATE TEMP VIEW v AS SELECT id FROM run") &&
	       exec_ok(h, "SELECT * FROM v"), "... and makes TEMP views");
	db_close(db);
	tap_ok(!exists(path, "-wal") && !exists(path, "-shm"),
	       "the reader, closing, left no -wal/-shm");
	n = count_runs(path);      /* (a SQLite read-only connection: after the check) */
	tap_ok(n == 1, "the run is still the only one (%d)", n);
	unlink(path);
	snprintf(err, sizeof(err), "%s-wal", path);
	unlink(err);
	snprintf(err, sizeof(err), "%s-shm", path);
	unlink(err);
	rmdir(dir);
	return tap_done();
}
