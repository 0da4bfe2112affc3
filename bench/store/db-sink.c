// SPDX-License-Identifier: MIT
/*
 * db-sink.c - the store's side of the probes' sink (probes/sink.h): metrics,
 * skips and notes, rows of a probe's own table through an INSERT prepared
 * once per table, and the window transaction that holds one probe's emit.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "db-local.h"
#include "log.h"
#include "sink.h"

static int db_sink_metric(struct sink *s, const char *name, double value,
			  const char *unit)
{
	return db_metric_add(s->db, s->cell_id, s->invocation_id, s->probe, name,
			     value, unit);
}

static int db_sink_skip(struct sink *s, const char *reason)
{
	return db_skip_add(s->db, s->run_id, s->cell_id, s->probe, reason);
}

static int db_sink_note(struct sink *s, const char *key, const char *value)
{
	char k[128];

	snprintf(k, sizeof(k), "%s.%s", s->probe, key);
	return db_cell_note(s->db, s->cell_id, k, value);
}

/* INSERT INTO "name" ("c1", ...) VALUES (?, ...), identifiers quoted (%w). */
static char *insert_sql(const struct sink_table *t)
{
	char *cols = sqlite3_mprintf(""), *vals = sqlite3_mprintf(""), *sql = NULL, *c, *v;
	size_t i;

	for (i = 0; i < t->ncolumns && cols && vals; i++) {
		c = sqlite3_mprintf("%s%s\"%w\"", cols, i ? ", " : "", t->columns[i].name);
		v = sqlite3_mprintf("%s%s?", vals, i ? ", " : "");
		sqlite3_free(cols);
		sqlite3_free(vals);
		cols = c;
		vals = v;
	}
	if (cols && vals)
		sql = sqlite3_mprintf("INSERT INTO \"%w\" (%s) VALUES (%s)", t->name, cols,
				      vals);
	sqlite3_free(cols);
	sqlite3_free(vals);
	return sql;
}

/* The statement of @t, prepared the first time a row of @t is written. */
static sqlite3_stmt *table_stmt(struct db *db, const struct sink_table *t)
{
	struct db_table *dt;
	char *sql;
	int rc;

	for (dt = db->tables; dt; dt = dt->next)
		if (dt->t == t)
			return dt->st;
	dt = calloc(1, sizeof(*dt));
	sql = dt ? insert_sql(t) : NULL;
	rc = sql ? sqlite3_prepare_v3(db->h, sql, -1, SQLITE_PREPARE_PERSISTENT, &dt->st,
				      NULL) : SQLITE_NOMEM;
	sqlite3_free(sql);
	if (rc != SQLITE_OK) {
		pr_err("%s: table %s: %s", db->path, t->name, sqlite3_errmsg(db->h));
		free(dt);
		return NULL;
	}
	dt->t = t;
	dt->next = db->tables;
	db->tables = dt;
	return dt->st;
}

static void bind_column(sqlite3_stmt *st, int i, const struct sink_column *c,
			const struct sink *s, const char *row)
{
	const void *f = row + c->offset;
	double d;

	switch (c->type) {
	case SINK_COL_CELL:
		bind_id(st, i, s->cell_id);
		break;
	case SINK_COL_INVOCATION:
		bind_id(st, i, s->invocation_id);
		break;
	case SINK_COL_INT:
		sqlite3_bind_int64(st, i, *(const long long *)f);
		break;
	case SINK_COL_KNOWN:
		bind_known(st, i, *(const long long *)f);
		break;
	case SINK_COL_REAL:
		d = *(const double *)f;
		if (isnan(d))
			sqlite3_bind_null(st, i);
		else
			sqlite3_bind_double(st, i, d);
		break;
	case SINK_COL_TEXT:
		bind_text(st, i, *(const char *const *)f);
		break;
	}
}

static int64_t db_sink_row(struct sink *s, const struct sink_table *t, const void *row)
{
	struct db *db = s->db;
	sqlite3_stmt *st = table_stmt(db, t);
	size_t i;

	if (!st)
		return -EIO;
	for (i = 0; i < t->ncolumns; i++)
		bind_column(st, (int)i + 1, &t->columns[i], s, row);
	if (db_step(db, st))
		return -EIO;
	return sqlite3_last_insert_rowid(db->h);
}

int db_window_begin(struct db *db)
{
	if (db->window != DB_WINDOW_NONE)
		return -EBUSY;
	db->window = DB_WINDOW_OPEN;
	return 0;
}

int db_window_end(struct db *db, int ok)
{
	int writing = db->window == DB_WINDOW_WRITING;

	db->window = DB_WINDOW_NONE;
	if (!writing)
		return 0;
	if (ok && sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	if (ok)
		pr_err("%s: cannot commit a probe's rows: %s", db->path,
		       sqlite3_errmsg(db->h));
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return ok ? -EIO : 0;
}

const struct sink_ops sink_db_ops = {
	.metric = db_sink_metric,
	.skip = db_sink_skip,
	.note = db_sink_note,
	.row = db_sink_row,
};
