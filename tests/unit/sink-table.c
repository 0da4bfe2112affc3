// SPDX-License-Identifier: MIT
/*
 * tests/unit/sink-table.c - a probe's own table through the sink: a test
 * table declared the way a probe declares one, rows written with
 * sink_row() inside a window, read back by a second connection (the
 * values, NULL for unknowns, the window's cell and invocation); the
 * INSERT is prepared once however many rows are written; a window's rows
 * are invisible to readers until it ends; a failed window (a failing emit,
 * or a row the database refuses) rolls back its own rows and nothing
 * written before it.
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "config-test.h"
#include "db.h"
#include "sink.h"
#include "sql-test.h"

struct t_row {
	long long n, k;
	double x;
	const char *s;
};

static const struct sink_column t_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INVOCATION("invocation_id"),
	SINK_INT(struct t_row, n),
	SINK_KNOWN(struct t_row, k),
	SINK_REAL(struct t_row, x),
	SINK_TEXT(struct t_row, s),
};
static const struct sink_table t_table = SINK_TABLE("t_sink", t_cols);
static const struct sink_table no_table = SINK_TABLE("t_missing", t_cols);

static int statements(sqlite3 *h)
{
	sqlite3_stmt *st = NULL;
	int n = 0;

	while ((st = sqlite3_next_stmt(h, st)))
		n++;
	return n;
}

/* Window 1: three rows and a metric, committed; read back from @r. */
static void good_window(struct db *db, sqlite3 *r, struct sink *s)
{
	struct t_row rows[3] = { { 1, 10, 1.5, "a" }, { 2, -1, NAN, NULL }, { 3, 0, 0, "" } };
	int64_t id[3];
	int i, before = statements(db_sqlite(db));

	tap_ok(!db_window_begin(db) && db_window_begin(db) == -EBUSY,
	       "a window begins; a second one is refused while it is open");
	for (i = 0; i < 3; i++)
		id[i] = sink_row(s, &t_table, &rows[i]);
	tap_ok(id[0] > 0 && id[1] == id[0] + 1 && id[2] == id[1] + 1,
	       "sink_row returns each new row's id (%lld %lld %lld)", (long long)id[0],
	       (long long)id[1], (long long)id[2]);
	tap_ok(statements(db_sqlite(db)) == before + 1,
	       "the table's INSERT is prepared once for three rows (%d -> %d statements)",
	       before, statements(db_sqlite(db)));
	tap_ok(!sink_metric(s, "m1", 1, "count"), "a metric in the same window");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink") == 0,
	       "a reader sees none of the window's rows before its end");
	tap_ok(!db_window_end(db, 1), "the window commits");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink") == 3, "the reader sees its 3 rows");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink WHERE cell_id = 1 AND invocation_id "
		      "IS NULL") == 3, "cell id from the window; no invocation in a cell window");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink WHERE n = 1 AND k = 10 AND x = 1.5 "
		      "AND s = 'a'") == 1, "the values of row 1 are stored as given");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink WHERE n = 2 AND k IS NULL AND x IS "
		      "NULL AND s IS NULL") == 1, "unknowns (k < 0, NaN, NULL) are NULL, not 0");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink WHERE n = 3 AND k = 0 AND x = 0 AND "
		      "s = ''") == 1, "a measured 0 and an empty text stay 0 and ''");
}

/* Window 2 fails after rows: they go, what came before stays. */
static void failed_windows(struct db *db, sqlite3 *r, struct sink *s)
{
	struct invocation_row inv = { .cell_id = s->cell_id, .phase = "measured",
				      .start = "warm", .started_at = "now", .latency_ns = 1,
				      .fn_ns = 1, .ok = 1 };
	struct t_row row = { 4, 4, 4, "b" };
	char sql[128];

	tap_ok(!sink_metric(s, "outside", 2, "count"), "a metric outside any window");
	s->invocation_id = db_invocation_add(db, &inv);
	db_window_begin(db);
	tap_ok(sink_row(s, &t_table, &row) > 0 && !sink_metric(s, "m2", 1, "count"),
	       "window 2 writes a row and a metric");
	tap_ok(!db_window_end(db, 0), "window 2 fails (its emit returned an error)");
	tap_ok(scalar(r, "SELECT count(*) FROM t_sink") == 3 &&
	       scalar(r, "SELECT count(*) FROM metric WHERE name = 'm2'") == 0,
	       "its row and its metric are rolled back");
	tap_ok(scalar(r, "SELECT count(*) FROM metric WHERE name IN ('m1', 'outside')") == 2,
	       "window 1's metric and the one outside the windows stay");
	db_window_begin(db);
	tap_ok(sink_row(s, &t_table, &row) > 0 && sink_row(s, &no_table, &row) == -EIO,
	       "window 3: a row, then a table the database does not have: -EIO");
	tap_ok(!db_window_end(db, 0) && scalar(r, "SELECT count(*) FROM t_sink") == 3,
	       "window 3 is rolled back whole");
	db_window_begin(db);
	snprintf(sql, sizeof(sql), "SELECT count(*) FROM t_sink WHERE invocation_id = %lld "
		 "AND n = 4", (long long)s->invocation_id);
	tap_ok(sink_row(s, &t_table, &row) > 0 && !db_window_end(db, 1) &&
	       scalar(r, sql) == 1, "window 4 commits: the invocation id comes from the window");
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-sink-XXXXXX", path[64], err[1024];
	struct run_info info = { "guest", "test", "t.ini", "" };
	struct sink s = { .probe = "test", .ops = &sink_db_ops };
	struct cell *cells;
	struct db *db = NULL;
	sqlite3 *r = NULL;
	size_t n;

	tap_plan(21);
	tap_ok(mkdtemp(dir) != NULL, "a temporary directory");
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tap_ok(!db_open(&db, path, DB_CREATE, err, sizeof(err)) &&
	       !load_expand("[experiment p]\nworkload = null\n", &cells, &n, err, sizeof(err)) &&
	       !sqlite3_exec(db_sqlite(db), "CREATE TABLE t_sink (id INTEGER PRIMARY KEY, "
			     "cell_id INTEGER NOT NULL, invocation_id INTEGER, n INTEGER "
			     "NOT NULL, k INTEGER, x REAL, s TEXT)", NULL, NULL, NULL) &&
	       !sqlite3_open_v2(path, &r, SQLITE_OPEN_READONLY, NULL),
	       "a database, a cell, a test table and a second connection (%s)", err);
	s.db = db;
	s.run_id = db_run_begin(db, &info);
	s.cell_id = db_cell_begin(db, s.run_id, &cells[0]);
	good_window(db, r, &s);
	failed_windows(db, r, &s);
	config_cells_free(cells, n);
	sqlite3_close(r);
	db_close(db);
	unlink(path);
	rmdir(dir);
	return tap_done();
}
