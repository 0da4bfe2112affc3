// SPDX-License-Identifier: MIT
/*
 * db-shape.c - whether a database has every table and column that its
 * schema version (PRAGMA user_version) implies. The expected shape is not
 * a list kept here: it is what the compiled-in migrations 1..user_version
 * (results-schema/, db-schema.h) leave in an empty in-memory database,
 * compared with the file's tables (sqlite_master) and their columns
 * (PRAGMA table_info). Tables and columns beyond those are allowed.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "db-schema.h"
#include "db-shape.h"

/* every table of the migrations with its columns, in creation order */
static const char sql_expected[] =
	"SELECT m.name, p.name FROM sqlite_master m, pragma_table_info(m.name) p "
	"WHERE m.type = 'table' AND m.name NOT LIKE 'sqlite\\_%' ESCAPE '\\' "
	"ORDER BY m.rowid, p.cid";
static const char sql_table[] =
	"SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?1 COLLATE NOCASE";
static const char sql_column[] =
	"SELECT 1 FROM pragma_table_info(?1) WHERE name = ?2 COLLATE NOCASE";

/* Apply migrations 1..@version to a new in-memory database @mem. */
static int shape_expected(int version, sqlite3 **mem, char *err, size_t errlen)
{
	char *msg = NULL;
	size_t i;

	if (sqlite3_open_v2(":memory:", mem, SQLITE_OPEN_READWRITE |
			    SQLITE_OPEN_CREATE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "cannot open an in-memory database: %s",
			 *mem ? sqlite3_errmsg(*mem) : "out of memory");
		return -ENOMEM;
	}
	for (i = 0; i < db_migration_count && db_migrations[i].number <= version; i++) {
		if (sqlite3_exec(*mem, db_migrations[i].sql, NULL, NULL, &msg) == SQLITE_OK)
			continue;
		snprintf(err, errlen, "migration %s does not apply to an empty database: %s",
			 db_migrations[i].name, msg ? msg : sqlite3_errmsg(*mem));
		sqlite3_free(msg);
		return -EIO;
	}
	return 0;
}

/* 1 when @st (bound to @t and @c) gives a row, 0 when not, -EIO on error. */
static int shape_has(sqlite3_stmt *st, const char *t, const char *c)
{
	int rc;

	sqlite3_reset(st);
	sqlite3_bind_text(st, 1, t, -1, SQLITE_TRANSIENT);
	if (c)
		sqlite3_bind_text(st, 2, c, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

/* One expected column @t.@c against the file; counts what is missing in @s. */
static int shape_one(struct db_shape *s, sqlite3_stmt *tab, sqlite3_stmt *col,
		     const char *t, const char *c, int *table_ok)
{
	int has;

	if (*table_ok < 0) {
		*table_ok = shape_has(tab, t, NULL);
		if (*table_ok == 0 && !s->missing++)
			snprintf(s->first, sizeof(s->first), "table %s", t);
	}
	if (*table_ok <= 0)
		return *table_ok;
	has = shape_has(col, t, c);
	if (has == 0 && !s->missing++)
		snprintf(s->first, sizeof(s->first), "column %s.%s", t, c);
	return has < 0 ? has : 0;
}

/* Walk the expected tables and columns of @mem and look each up in @h. */
static int shape_compare(sqlite3 *mem, sqlite3 *h, struct db_shape *s)
{
	sqlite3_stmt *exp = NULL, *tab = NULL, *col = NULL;
	char table[128] = "";
	int ret = -EIO, ok = -1;

	if (sqlite3_prepare_v2(mem, sql_expected, -1, &exp, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, sql_table, -1, &tab, NULL) != SQLITE_OK ||
	    sqlite3_prepare_v2(h, sql_column, -1, &col, NULL) != SQLITE_OK)
		goto out;
	while ((ret = sqlite3_step(exp)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(exp, 0);
		const char *c = (const char *)sqlite3_column_text(exp, 1);

		if (strcmp(t, table)) {         /* the next table */
			snprintf(table, sizeof(table), "%s", t);
			ok = -1;
		}
		if (shape_one(s, tab, col, t, c, &ok) < 0)
			break;
	}
	ret = ret == SQLITE_DONE ? 0 : -EIO;
out:
	sqlite3_finalize(exp);
	sqlite3_finalize(tab);
	sqlite3_finalize(col);
	return ret;
}

/**
 * db_shape_check() - compare the main database of @h with the shape that
 * migrations 1..@version give. Reads only. Returns 0 with @s->missing (how
 * many tables and columns lack) and @s->first ("table X" or "column X.Y",
 * the first of them) set; -EIO with the reason in @err when the comparison
 * itself failed.
 */
int db_shape_check(sqlite3 *h, int version, struct db_shape *s, char *err, size_t errlen)
{
	sqlite3 *mem = NULL;
	int ret;

	s->missing = 0;
	s->first[0] = '\0';
	ret = shape_expected(version, &mem, err, errlen);
	if (!ret) {
		ret = shape_compare(mem, h, s);
		if (ret)
			snprintf(err, errlen, "cannot read its tables: %s", sqlite3_errmsg(h));
	}
	sqlite3_close(mem);
	return ret;
}
