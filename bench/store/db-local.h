/* SPDX-License-Identifier: MIT */
/*
 * db-local.h - what the files of the store (db.c, db-sink.c) share: the
 * handle with its prepared statements, the window transaction, and the
 * bind and step helpers. Nothing outside the store includes it.
 */
#ifndef CVMBENCH_DB_LOCAL_H
#define CVMBENCH_DB_LOCAL_H

#include <sqlite3.h>
#include <stdint.h>

#include "db.h"

enum stmt_id {
	ST_ENV, ST_CELL, ST_PARAM, ST_CELL_END, ST_INSTANCE, ST_INVOCATION, ST_METRIC,
	ST_SKIP, ST_ERROR, ST_COUNT
};

enum db_window {
	DB_WINDOW_NONE,           /* every row is its own transaction */
	DB_WINDOW_OPEN,           /* a window began; no row written yet */
	DB_WINDOW_WRITING,        /* its transaction is open */
};

struct sink_table;

/* A probe table's INSERT, prepared at its first row (db-sink.c), kept until db_close. */
struct db_table {
	const struct sink_table *t;
	sqlite3_stmt *st;
	struct db_table *next;
};

struct db {
	sqlite3 *h;
	char *path;
	sqlite3_stmt *stmt[ST_COUNT];
	struct db_table *tables;
	enum db_window window;
};

/* Bind helpers: NULL strings and negative "unknown" values become SQL NULL. */
static inline void bind_text(sqlite3_stmt *st, int i, const char *s)
{
	if (s)
		sqlite3_bind_text(st, i, s, -1, SQLITE_TRANSIENT);
	else
		sqlite3_bind_null(st, i);
}

static inline void bind_id(sqlite3_stmt *st, int i, int64_t id)
{
	if (id > 0)
		sqlite3_bind_int64(st, i, id);
	else
		sqlite3_bind_null(st, i);
}

static inline void bind_known(sqlite3_stmt *st, int i, long long v)
{
	if (v >= 0)
		sqlite3_bind_int64(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

/**
 * db_step() - step a bound statement once (opening the window's transaction
 * first, if a window is open); log and return -EIO on failure.
 */
int db_step(struct db *db, sqlite3_stmt *st);

/**
 * db_copy_to_memory() - copy the main database of @from (the file @path)
 * into a new in-memory database *@to, whose schema may run no function with
 * side effects (an input is not trusted). 0, or -errno with the message in
 * @err naming @path.
 */
int db_copy_to_memory(sqlite3 *from, sqlite3 **to, const char *path, char *err,
		      size_t errlen);

/**
 * db_read_upgrade() - for a reader of a database of an older schema: replace
 * db->h by a copy in memory with the missing migrations applied, the file
 * unchanged (db-read-upgrade.c). Nothing for a current schema. 0 or -errno
 * with the message in @err.
 */
int db_read_upgrade(struct db *db, char *err, size_t errlen);

#endif
