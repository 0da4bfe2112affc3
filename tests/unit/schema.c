// SPDX-License-Identifier: MIT
/*
 * tests/unit/schema.c - the migrations on an in-memory database: applied
 * in order up to the newest, idempotent, foreign keys enforced, and a
 * database from a newer schema refused with a message saying so. Then
 * db_open() on files: names that are not files, another program's SQLite
 * file, the application_id mark, and a refusal that changes nothing.
 */
#include <dirent.h>
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db-schema.h"
#include "db.h"
#include "sql-test.h"
#include "tap.h"

static void test_fresh(sqlite3 *h)
{
	static const char *const tables[] = {
		"run", "environment", "cell", "cell_param", "instance", "invocation",
		"metric", "skip", "error",
	};
	char err[512] = "", sql[256];
	size_t i;
	int missing = 0;

	tap_ok(db_migrate(h, ":memory:", err, sizeof(err)) == 0, "migrations apply (%s)", err);
	tap_ok(scalar(h, "PRAGMA user_version") == db_schema_latest(),
	       "user_version is the newest migration (%d)", db_schema_latest());
	for (i = 0; i < sizeof(tables) / sizeof(tables[0]); i++) {
		snprintf(sql, sizeof(sql), "SELECT count(*) FROM sqlite_master WHERE "
			 "type = 'table' AND name = '%s'", tables[i]);
		if (scalar(h, sql) != 1) {
			printf("# missing table %s\n", tables[i]);
			missing++;
		}
	}
	tap_ok(!missing, "every table of the data model exists");
	tap_ok(db_migrate(h, ":memory:", err, sizeof(err)) == 0 &&
	       scalar(h, "PRAGMA user_version") == db_schema_latest(),
	       "migrating again changes nothing");
}

/* The highest NNN of results-schema/NNN-*.sql, read from the directory; -1 if none. */
static int newest_file_number(void)
{
	DIR *d = opendir("results-schema");
	struct dirent *e;
	int n, max = -1;

	while (d && (e = readdir(d)))
		if (sscanf(e->d_name, "%3d-", &n) == 1 && strstr(e->d_name, ".sql") && n > max)
			max = n;
	if (d)
		closedir(d);
	return max;
}

/*
 * Issue 11.6: a migration's number is the one in its file name and user_version
 * is that number; two files with one number, or a gap, are an error.
 */
static void test_numbers(sqlite3 *h)
{
	static const struct db_migration ok[] = {
		{ 1, "001-a.sql", "" }, { 2, "002-b.sql", "" }, { 3, "003-c.sql", "" } };
	static const struct db_migration dup[] = {
		{ 1, "001-a.sql", "" }, { 2, "002-b.sql", "" }, { 3, "003-c.sql", "" },
		{ 3, "003-d.sql", "" } };
	static const struct db_migration gap[] = {
		{ 1, "001-a.sql", "" }, { 2, "002-b.sql", "" }, { 4, "004-d.sql", "" } };
	static const struct db_migration late[] = { { 2, "002-b.sql", "" } };
	int newest = newest_file_number();
	char err[512] = "";

	if (newest < 0)
		printf("ok %d # SKIP results-schema/ not found: run from the top directory\n",
		       ++tap_count);
	else
		tap_ok(scalar(h, "PRAGMA user_version") == newest,
		       "user_version is the number in the newest file's name (%d)", newest);
	tap_ok(!db_schema_check(ok, 3, err, sizeof(err)), "1, 2, 3 are in order");
	tap_ok(db_schema_check(dup, 4, err, sizeof(err)) == -EINVAL,
	       "two migrations numbered 3 are an error");
	tap_contains(err, "003-c.sql and 003-d.sql have one number (3)", "naming both");
	tap_ok(db_schema_check(gap, 3, err, sizeof(err)) == -EINVAL &&
	       strstr(err, "004-d.sql") && strstr(err, "gap"), "a gap is an error (%s)", err);
	tap_ok(db_schema_check(late, 1, err, sizeof(err)) == -EINVAL,
	       "numbers start at 1");
	tap_ok(!db_schema_check(db_migrations, db_migration_count, err, sizeof(err)) &&
	       db_schema_latest() == (int)db_migration_count,
	       "this build's %zu migrations are in order", db_migration_count);
}

static void test_constraints(sqlite3 *h)
{
	sqlite3_exec(h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	tap_ok(sqlite3_exec(h, "INSERT INTO cell (run_id, cell_key, experiment, workload, "
			    "size, backend, threads, wait, mode, instances, invocations, "
			    "warmup, repeat_index, seed, probes, spec, started_at) VALUES "
			    "(999, 'k', 'e', 'w', 'test', 'native', 1, 'block', 'warm', 1, 1, "
			    "0, 0, 1, '', '', 'now')", NULL, NULL, NULL) != SQLITE_OK,
	       "a cell of a run that does not exist is refused (foreign key)");
	tap_ok(sqlite3_exec(h, "INSERT INTO run (started_at, vantage, cvmbench_version, "
			    "command_line, status) VALUES ('now', 'guest', 'v', 'c', 'great')",
			    NULL, NULL, NULL) != SQLITE_OK,
	       "an unknown run status is refused (check constraint)");
}

static void test_newer(sqlite3 *h)
{
	char err[512] = "", sql[64];

	snprintf(sql, sizeof(sql), "PRAGMA user_version = %d", db_schema_latest() + 1);
	sqlite3_exec(h, sql, NULL, NULL, NULL);
	tap_ok(db_migrate(h, "new.db", err, sizeof(err)) == -EPROTO,
	       "a database from a newer schema is refused");
	tap_contains(err, "new.db was written by a newer cvmbench", "with a clear message");
}

#define CVMB_APP_ID 0x63766d62      /* 'cvmb', independent of db-check.h */

static char dir[] = "/tmp/cvmbench-schema-XXXXXX";

/* Run @sql on file @name of the test directory; return the first column. */
static int on_file(const char *name, const char *sql)
{
	char path[256];
	sqlite3 *h;
	int v;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	if (sqlite3_open(path, &h) != SQLITE_OK)
		return -1;
	v = scalar(h, sql);
	sqlite3_close(h);
	return v;
}

static int open_file(const char *name, int flags, char *err, size_t errlen)
{
	char path[256];
	struct db *db = NULL;
	int ret;

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	ret = db_open(&db, path, flags, err, errlen);
	db_close(db);
	return ret;
}

static void test_names(void)
{
	struct db *db = NULL;
	char err[512] = "";

	tap_ok(db_open(&db, "", DB_CREATE, err, sizeof(err)) == -EINVAL && !db,
	       "an empty database name is refused (SQLite's temporary database)");
	tap_contains(err, "not a file", "with a message saying why");
	tap_ok(db_open(&db, ":memory:", DB_CREATE, err, sizeof(err)) == -EINVAL &&
	       db_open(&db, ":memory:", DB_READONLY, err, sizeof(err)) == -EINVAL,
	       "so is :memory:, to write and to read");
}

static void test_foreign(void)
{
	char err[512] = "";

	on_file("other.db", "CREATE TABLE notes (t)");
	tap_ok(open_file("other.db", DB_CREATE, err, sizeof(err)) == -EINVAL,
	       "another program's SQLite file is refused for writing (%s)", err);
	tap_ok(on_file("other.db", "SELECT count(*) FROM sqlite_master") == 1 &&
	       on_file("other.db", "PRAGMA user_version") == 0,
	       "and not migrated: still one table, user_version 0");
	on_file("app.db", "PRAGMA application_id = 77");
	on_file("app.db", "PRAGMA user_version = 1");
	tap_ok(open_file("app.db", DB_READONLY, err, sizeof(err)) == -EINVAL,
	       "a file with another application_id is refused for reading too");
}

static void test_mark(void)
{
	char err[512] = "";

	tap_ok(open_file("new.db", DB_CREATE, err, sizeof(err)) == 0 &&
	       on_file("new.db", "PRAGMA application_id") == CVMB_APP_ID,
	       "a new database is marked with application_id 'cvmb' (%s)", err);
	on_file("new.db", "PRAGMA application_id = 0");
	tap_ok(open_file("new.db", DB_READONLY, err, sizeof(err)) == 0 &&
	       on_file("new.db", "PRAGMA application_id") == 0,
	       "an unmarked cvmbench database opens read-only and stays unchanged");
	tap_ok(open_file("new.db", DB_CREATE, err, sizeof(err)) == 0 &&
	       on_file("new.db", "PRAGMA application_id") == CVMB_APP_ID,
	       "and is marked when opened for writing");
	on_file("newer.db", "CREATE TABLE run (x)");
	on_file("newer.db", "PRAGMA application_id = 1668705634");
	on_file("newer.db", "PRAGMA user_version = 999");
	tap_ok(open_file("newer.db", DB_CREATE, err, sizeof(err)) == -EPROTO,
	       "a newer schema is refused for writing");
	tap_ok(on_file("newer.db", "SELECT journal_mode = 'delete' FROM pragma_journal_mode")
	       == 1, "and is not switched to WAL first");
}

static void remove_dir(void)
{
	static const char *const names[] = { "other.db", "app.db", "new.db", "newer.db" };
	static const char *const ext[] = { "", "-wal", "-shm", "-journal" };
	char path[256];
	size_t i, j;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		for (j = 0; j < sizeof(ext) / sizeof(ext[0]); j++) {
			snprintf(path, sizeof(path), "%s/%s%s", dir, names[i], ext[j]);
			unlink(path);
		}
	if (rmdir(dir))
		printf("# could not remove %s\n", dir);
}

int main(void)
{
	sqlite3 *h;

	tap_plan(26);
	if (sqlite3_open(":memory:", &h) != SQLITE_OK) {
		printf("Bail out! cannot open an in-memory database\n");
		return 1;
	}
	test_fresh(h);
	test_numbers(h);
	test_constraints(h);
	test_newer(h);
	sqlite3_close(h);
	if (!mkdtemp(dir)) {
		printf("Bail out! cannot make a directory in /tmp\n");
		return 1;
	}
	test_names();
	test_foreign();
	test_mark();
	remove_dir();
	return tap_done();
}
