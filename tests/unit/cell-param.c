// SPDX-License-Identifier: MIT
/*
 * tests/unit/cell-param.c - db_cell_begin() stores one cell_param row per
 * line of the cell's spec, with the value of that line: an empty value is
 * empty (issue 8: runtime-path held "cpus = 0"), and every key of the
 * spec is there exactly once.
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "config-test.h"
#include "db.h"

static char *param(struct db *db, int64_t cell_id, const char *key)
{
	sqlite3_stmt *st;
	char *v = NULL;

	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT group_concat(value, '|') FROM "
			       "cell_param WHERE cell_id = ? AND key = ?", -1, &st, NULL))
		return NULL;
	sqlite3_bind_int64(st, 1, cell_id);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		v = strdup((const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
	return v;
}

static int count_params(struct db *db, int64_t cell_id)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db_sqlite(db), "SELECT count(*) FROM cell_param WHERE "
			       "cell_id = ?", -1, &st, NULL))
		return -1;
	sqlite3_bind_int64(st, 1, cell_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

static int spec_lines(const char *spec)
{
	int n = 0;

	for (; *spec; spec++)
		n += *spec == '\n';
	return n;
}

static void check_params(struct db *db, int64_t id, const struct cell *c)
{
	char *rp = param(db, id, "runtime-path"), *cpus = param(db, id, "cpus"),
	     *desc = param(db, id, "description"), *exp = param(db, id, "experiment");

	tap_ok(rp && !strcmp(rp, ""), "an empty runtime-path is stored empty (got '%s')",
	       rp ? rp : "(no row)");
	tap_ok(cpus && !strcmp(cpus, "0"), "cpus is 0 (got '%s')", cpus ? cpus : "(no row)");
	tap_ok(exp && !strcmp(exp, "p"), "the experiment is a parameter too");
	tap_ok(desc && !strcmp(desc, "a = b"), "a value holding ' = ' is kept whole (got '%s')",
	       desc ? desc : "(no row)");
	tap_ok(count_params(db, id) == spec_lines(c->spec),
	       "one row per spec line (%d rows, %d lines)", count_params(db, id),
	       spec_lines(c->spec));
	free(rp);
	free(cpus);
	free(desc);
	free(exp);
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-param-XXXXXX", path[64], err[1024];
	struct run_info info = { "guest", "test", "t.ini", "" };
	struct cell *cells;
	struct db *db = NULL;
	size_t n;
	int64_t run, id;

	tap_plan(7);
	tap_ok(mkdtemp(dir) != NULL, "a temporary directory");
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tap_ok(!db_open(&db, path, DB_CREATE, err, sizeof(err)) &&
	       !load_expand("[experiment p]\nworkload = null\n", &cells, &n, err, sizeof(err)),
	       "a database and a cell (%s)", err);
	/* a value that holds " = ", as a free-text key's might */
	free(cells[0].spec);
	cells[0].spec = strdup("experiment = p\nworkload = null\nruntime-path = \n"
			       "cpus = 0\ndescription = a = b\nrepeat = 0\n");
	run = db_run_begin(db, &info);
	id = db_cell_begin(db, run, &cells[0]);
	check_params(db, id, &cells[0]);
	config_cells_free(cells, n);
	db_close(db);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
