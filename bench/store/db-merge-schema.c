// SPDX-License-Identifier: MIT
/*
 * db-merge-schema.c - the schema gate of `cvmbench merge`. An input comes
 * from another machine and its table and column names are not to be
 * trusted: merge builds its SQL only from the output's schema (this
 * build's, made and migrated by cvmbench), and an input whose migrated
 * copy has a table, view or column the output lacks, or lacks one the
 * output has, is refused with the file and the name. The names are only
 * ever bound as values here, never pasted into SQL.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "db-merge-schema.h"

#define USER_OBJECT(T) "substr(" T ".name, 1, 7) <> 'sqlite_'"

/* The first difference: its kind (a format below), the type, the table, the column. */
static const char sql_diff[] =
	"SELECT 0, m.type, m.name, NULL FROM main.sqlite_master AS m WHERE m.type IN "
	"('table', 'view') AND " USER_OBJECT("m") " AND NOT EXISTS (SELECT 1 FROM "
	"dst.sqlite_master AS d WHERE d.type = m.type AND d.name = m.name) "
	"UNION ALL SELECT 1, d.type, d.name, NULL FROM dst.sqlite_master AS d "
	"WHERE d.type = 'table' AND " USER_OBJECT("d") " AND NOT EXISTS (SELECT 1 FROM "
	"main.sqlite_master AS m WHERE m.type = 'table' AND m.name = d.name) "
	"UNION ALL SELECT 2, d.type, d.name, c.name FROM dst.sqlite_master AS d, "
	"pragma_table_xinfo(d.name, 'main') AS c WHERE d.type = 'table' AND "
	USER_OBJECT("d") " AND c.name NOT IN (SELECT name FROM "
	"pragma_table_xinfo(d.name, 'dst')) "
	"UNION ALL SELECT 3, d.type, d.name, c.name FROM dst.sqlite_master AS d, "
	"pragma_table_xinfo(d.name, 'dst') AS c WHERE d.type = 'table' AND "
	USER_OBJECT("d") " AND c.name NOT IN (SELECT name FROM "
	"pragma_table_xinfo(d.name, 'main')) LIMIT 1";

static const char *const diff_fmt[] = {
	"%s: refused: its %s \"%s\" is not in this cvmbench's schema%s",
	"%s: refused: it lacks the %s \"%s\" of this cvmbench's schema%s",
	"%s: refused: its %s \"%s\" has a column \"%s\" that is not in this cvmbench's schema",
	"%s: refused: its %s \"%s\" lacks the column \"%s\" of this cvmbench's schema",
};

/* @s for a message: at most 80 bytes, control characters as '?'. */
static void printable(char *buf, size_t len, const unsigned char *s)
{
	size_t i;

	for (i = 0; s && s[i] && i + 1 < len && i < 80; i++)
		buf[i] = s[i] < 0x20 || s[i] == 0x7f ? '?' : (char)s[i];
	buf[i] = '\0';
}

/**
 * db_merge_schema_check() - whether the input's copy (schema "main" of
 * @h, migrated) has exactly the tables, views and columns of the output
 * (schema "dst" of @h). Returns 0, -EINVAL with @err naming @path and the
 * table (and column) that differs, or -EIO.
 */
int db_merge_schema_check(struct sqlite3 *h, const char *path, char *err, size_t errlen)
{
	char table[96], column[96];
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h, sql_diff, -1, &st, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: reading the schema: %s", path, sqlite3_errmsg(h));
		return -EIO;
	}
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		int kind = sqlite3_column_int(st, 0) & 3;

		printable(table, sizeof(table), sqlite3_column_text(st, 2));
		printable(column, sizeof(column), sqlite3_column_text(st, 3));
		snprintf(err, errlen, diff_fmt[kind], path, (const char *)sqlite3_column_text(st, 1), table,
			 column);
	} else if (rc != SQLITE_DONE) {
		snprintf(err, errlen, "%s: reading the schema: %s", path, sqlite3_errmsg(h));
	}
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? -EINVAL : rc == SQLITE_DONE ? 0 : -EIO;
}
