// SPDX-License-Identifier: MIT
/*
 * tests/unit/run-partial.c - migration 004-run-partial.sql on a schema-2
 * database with rows: the run table is rebuilt without losing a row (runs,
 * cells and skips counted before and after; db.c migrates with foreign
 * keys off, or dropping the old table would cascade), a 'skipped' run
 * with measured cells becomes 'partial', cells still belong to their run,
 * and a new run may be 'partial' while an unknown status is refused.
 */
#include <sqlite3.h>
#include <stdio.h>

#include "db-schema.h"
#include "db.h"
#include "sql-test.h"
#include "tap.h"

/* A database at schema 2 (001, 002) with two finished runs and their rows. */
static int schema2(sqlite3 *h)
{
	static const char rows[] =
		"PRAGMA user_version = 2;"
		"INSERT INTO run (id, started_at, status, vantage, cvmbench_version, "
		"command_line, cells_total, cells_ok, cells_skipped) VALUES "
		"(1, 'now', 'skipped', 'guest', 'v', 'c', 2, 1, 1),"
		"(2, 'now', 'skipped', 'guest', 'v', 'c', 1, 0, 1);"
		"INSERT INTO cell (id, run_id, cell_key, experiment, workload, size, backend, "
		"threads, wait, mode, instances, invocations, warmup, repeat_index, seed, "
		"probes, spec, started_at, status) VALUES "
		"(1, 1, 'k1', 'e', 'w', 'test', 'native', 1, 'block', 'warm', 1, 1, 0, 0, 1, "
		"'', '', 'now', 'ok'),"
		"(2, 1, 'k2', 'e', 'w', 'test', 'native', 1, 'block', 'warm', 1, 1, 0, 0, 1, "
		"'', '', 'now', 'skipped');"
		"INSERT INTO skip (run_id, cell_id, reason) VALUES (1, 2, 'r'), (2, NULL, 'r');";

	return sqlite3_exec(h, db_migrations[0].sql, NULL, NULL, NULL) ||
	       sqlite3_exec(h, db_migrations[1].sql, NULL, NULL, NULL) ||
	       sqlite3_exec(h, rows, NULL, NULL, NULL);
}

static int insert_run(sqlite3 *h, const char *status)
{
	char sql[256];

	snprintf(sql, sizeof(sql), "INSERT INTO run (started_at, vantage, cvmbench_version, "
		 "command_line, status) VALUES ('now', 'guest', 'v', 'c', '%s')", status);
	return sqlite3_exec(h, sql, NULL, NULL, NULL);
}

int main(void)
{
	char err[512] = "";
	sqlite3 *h;

	tap_plan(6);
	if (sqlite3_open(":memory:", &h) != SQLITE_OK || schema2(h)) {
		printf("Bail out! cannot build a schema-2 database: %s\n", sqlite3_errmsg(h));
		return 1;
	}
	sqlite3_exec(h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	tap_ok(db_migrate(h, "old.db", err, sizeof(err)) == 0, "schema 2 migrates (%s)", err);
	tap_ok(scalar(h, "SELECT count(*) FROM run") == 2 &&
	       scalar(h, "SELECT count(*) FROM cell") == 2 &&
	       scalar(h, "SELECT count(*) FROM skip") == 2,
	       "003 rebuilds run and keeps every run, cell and skip");
	tap_ok(scalar(h, "SELECT count(*) FROM run WHERE id = 1 AND status = 'partial'") == 1 &&
	       scalar(h, "SELECT count(*) FROM run WHERE id = 2 AND status = 'skipped'") == 1,
	       "a 'skipped' run with measured cells is now 'partial', one without stays");
	tap_ok(insert_run(h, "partial") == SQLITE_OK && insert_run(h, "great") != SQLITE_OK,
	       "a run may be 'partial'; an unknown status is still refused");
	tap_ok(scalar(h, "PRAGMA foreign_keys") == 1 &&
	       sqlite3_exec(h, "DELETE FROM run WHERE id = 1", NULL, NULL, NULL) == SQLITE_OK &&
	       scalar(h, "SELECT count(*) FROM cell") == 0,
	       "cells still belong to run (foreign keys back on, delete cascades)");
	tap_ok(scalar(h, "SELECT count(*) FROM pragma_foreign_key_check") == 0,
	       "no foreign key is broken");
	sqlite3_close(h);
	return tap_done();
}
