// SPDX-License-Identifier: MIT
/*
 * tests/unit/schema.c - the migrations on an in-memory database: applied
 * in order up to the newest, idempotent, foreign keys enforced, and a
 * database from a newer schema refused with a message saying so.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>

#include "db.h"
#include "tap.h"

static int scalar(sqlite3 *h, const char *sql)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

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

int main(void)
{
	sqlite3 *h;

	tap_plan(8);
	if (sqlite3_open(":memory:", &h) != SQLITE_OK) {
		printf("Bail out! cannot open an in-memory database\n");
		return 1;
	}
	test_fresh(h);
	test_constraints(h);
	test_newer(h);
	sqlite3_close(h);
	return tap_done();
}
