// SPDX-License-Identifier: MIT
/*
 * tests/unit/cell-order.c - cell_order_sort() (analysis/cell-order.c) on
 * a run of 10 000 synthetic cells in an in-memory database with the
 * run -> cell columns and index of the real schema, and a run without a
 * config text (so every cell falls back to its key's first row): keys
 * first measured in a shuffled order, one key in seven measured again
 * (a newer row), a cell whose key has no row at all, and another run's
 * rows of the same keys with smaller ids (which must not count). The
 * expected order is built from the generated rows: each key at its first
 * row, its rows by id. The sort's SQLite work, counted by a progress
 * handler (VM instructions, not time), must stay linear in the cells:
 * one query per cell over the run's rows was quadratic (7.8 s for these
 * cells here, 286 million VM instructions; now 0.09 s and 324 000).
 * That database has no cell.matrix_index (a database before
 * 009-cell-matrix-index.sql, not migrated by the readers). A second one
 * has it: run 1's keys measured in the shuffled order with their stored
 * index the key's number, so that only the stored index gives the
 * expected order (no config to expand: the fallback alone would give the
 * first rows' order); one key in seven measured again, one in eleven
 * with rows from before the migration (NULL: after the indexed ones, by
 * their first row).
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cell-order.h"
#include "tap.h"

#define N 10000
#define OTHER 100                 /* rows of run 2, ids 1..OTHER */
#define STEP 1000                 /* VM instructions per progress call */

static const char schema[] =
	"CREATE TABLE run (id INTEGER PRIMARY KEY, config_text TEXT);"
	"CREATE TABLE cell (id INTEGER PRIMARY KEY, run_id INTEGER NOT NULL, "
	"cell_key TEXT NOT NULL);"
	"CREATE INDEX cell_run ON cell(run_id);"
	"INSERT INTO run (id) VALUES (1), (2);";
static const char migration_009[] = "ALTER TABLE cell ADD COLUMN matrix_index INTEGER;";

struct row {
	long long id;
	char key[16];
};

static struct row expect[N + N / 7 + 2];  /* run 1's cells in the expected order */
static size_t nexp;

static int progress(void *arg)
{
	++*(long long *)arg;
	return 0;
}

/* A row; @index < 0: none (NULL; ignored when @st has no ?4, no such column). */
static int insert(sqlite3_stmt *st, long long id, int run, const char *key, int index)
{
	sqlite3_reset(st);
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, run);
	sqlite3_bind_text(st, 3, key, -1, SQLITE_TRANSIENT);
	if (index >= 0)
		sqlite3_bind_int(st, 4, index);
	else
		sqlite3_bind_null(st, 4);
	return sqlite3_step(st) != SQLITE_DONE;
}

static void expect_add(long long id, const char *key)
{
	expect[nexp].id = id;
	snprintf(expect[nexp++].key, sizeof(expect->key), "%s", key);
}

/* The rows of both runs, and run 1's in the order expected in expect[]. */
static int fill(sqlite3 *h, const int *perm)
{
	sqlite3_stmt *st;
	long long id = OTHER, again = OTHER + N;
	char key[16];
	int j, bad = 0;

	if (sqlite3_prepare_v2(h, "INSERT INTO cell (id, run_id, cell_key) VALUES (?1, ?2, ?3)",
			       -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (j = 0; j < OTHER; j++) {
		snprintf(key, sizeof(key), "k%05d", perm[N - 1 - j]);
		bad |= insert(st, j + 1, 2, key, -1);
	}
	for (j = 0; j < N; j++) {
		snprintf(key, sizeof(key), "k%05d", perm[j]);
		bad |= insert(st, ++id, 1, key, -1);
		expect_add(id, key);
		if (perm[j] % 7 == 0) {
			bad |= insert(st, ++again, 1, key, -1);
			expect_add(again, key);
		}
	}
	expect_add(999999, "no-row");  /* ranked at its own id: last */
	sqlite3_finalize(st);
	return bad;
}

/* Key number @k's rows: stored index @k, none for one key in eleven. */
static int stored(int k)
{
	return k % 11 == 5 ? -1 : k;
}

/*
 * The rows of run 1 with cell.matrix_index (run 2's as in fill()), and run
 * 1's expected order: the indexed keys by index, each key's rows by id,
 * then the keys without an index by their first row.
 */
static int fill_indexed(sqlite3 *h, const int *perm)
{
	static long long first[N], redo[N];
	sqlite3_stmt *st;
	long long id = OTHER, again = OTHER + N;
	char key[16];
	int j, k, bad = 0;

	if (sqlite3_prepare_v2(h, "INSERT INTO cell (id, run_id, cell_key, matrix_index) "
			       "VALUES (?1, ?2, ?3, ?4)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (j = 0; j < OTHER; j++) {
		snprintf(key, sizeof(key), "k%05d", perm[N - 1 - j]);
		bad |= insert(st, j + 1, 2, key, N - 1 - j);
	}
	for (j = 0; j < N; j++) {
		k = perm[j];
		snprintf(key, sizeof(key), "k%05d", k);
		bad |= insert(st, first[k] = ++id, 1, key, stored(k));
		redo[k] = k % 7 ? 0 : ++again;
		if (redo[k])
			bad |= insert(st, redo[k], 1, key, stored(k));
	}
	sqlite3_finalize(st);
	nexp = 0;
	for (k = 0; k < N; k++)        /* the indexed keys, by index */
		if (stored(k) >= 0) {
			snprintf(key, sizeof(key), "k%05d", k);
			expect_add(first[k], key);
			if (redo[k])
				expect_add(redo[k], key);
		}
	for (j = 0; j < N; j++)        /* then the others, by first row */
		if (stored(k = perm[j]) < 0) {
			snprintf(key, sizeof(key), "k%05d", k);
			expect_add(first[k], key);
			if (redo[k])
				expect_add(redo[k], key);
		}
	expect_add(999999, "no-row");
	return bad;
}

/* Run 1's cells as show holds them before the sort: newest id first. */
static cJSON *cells_json(void)
{
	cJSON *a = cJSON_CreateArray(), *o;
	size_t i;

	for (i = nexp; a && i-- > 0;) {
		o = cJSON_CreateObject();
		cJSON_AddNumberToObject(o, "cell_id", (double)expect[i].id);
		cJSON_AddStringToObject(o, "cell_key", expect[i].key);
		cJSON_AddItemToArray(a, o);
	}
	return a;
}

/* How many of @a's items are where expect[] has them. */
static size_t in_place(const cJSON *a)
{
	const cJSON *c;
	size_t i = 0, ok = 0;

	cJSON_ArrayForEach(c, a) {
		const cJSON *id = cJSON_GetObjectItem(c, "cell_id");

		ok += i < nexp && id && (long long)id->valuedouble == expect[i].id;
		i++;
	}
	return i == nexp ? ok : 0;
}

/* A shuffle of 0..N-1 (a fixed seed: the same every run). */
static void shuffle(int *perm)
{
	unsigned int x = 12345;
	int i, j, t;

	for (i = 0; i < N; i++)
		perm[i] = i;
	for (i = N - 1; i > 0; i--) {
		x = x * 1103515245u + 12345u;
		j = (int)((x >> 8) % (unsigned int)(i + 1));
		t = perm[i];
		perm[i] = perm[j];
		perm[j] = t;
	}
}

/* Build @h with @fill's rows; 0 or -1 (bailed out). */
static int build(sqlite3 **h, const char *extra, int (*fill_fn)(sqlite3 *, const int *),
		 const int *perm)
{
	if (sqlite3_open(":memory:", h) != SQLITE_OK ||
	    sqlite3_exec(*h, schema, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(*h, extra, NULL, NULL, NULL) != SQLITE_OK ||
	    sqlite3_exec(*h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK || fill_fn(*h, perm) ||
	    sqlite3_exec(*h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		printf("Bail out! cannot build the test database: %s\n", sqlite3_errmsg(*h));
		return -1;
	}
	return 0;
}

/* Sort run 1's cells of @h; check the order and that the work stays linear. */
static void check(sqlite3 *h, const char *what)
{
	long long calls = 0;
	cJSON *a = cells_json();
	int ret;

	sqlite3_progress_handler(h, STEP, progress, &calls);
	ret = a ? cell_order_sort(h, 1, a) : -1;
	sqlite3_progress_handler(h, 0, NULL, NULL);
	tap_ok(ret == 0, "%s: cell_order_sort() of %zu cells returns 0 (%d)", what, nexp, ret);
	tap_ok(in_place(a) == nexp, "%s: all %zu cells in order (%zu in place)", what, nexp,
	       in_place(a));
	tap_ok(calls * STEP < 200LL * (long long)nexp, "%s: SQLite work linear in the cells: "
	       "%lld VM instructions for %zu cells (at most 200 a cell)", what, calls * STEP,
	       nexp);
	cJSON_Delete(a);
}

int main(void)
{
	static int perm[N];
	sqlite3 *h;

	tap_plan(6);
	shuffle(perm);
	if (build(&h, "", fill, perm))
		return 1;
	check(h, "no matrix_index column: each key at its first row of run 1, its rows by "
	      "id, a key without a row at its own id");
	sqlite3_close(h);
	if (build(&h, migration_009, fill_indexed, perm))
		return 1;
	check(h, "matrix_index stored: the indexed keys by index, then the NULL ones by "
	      "first row, each key's rows by id");
	sqlite3_close(h);
	return tap_done();
}
