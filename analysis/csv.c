// SPDX-License-Identifier: MIT
/*
 * csv.c - write SQLite result rows as RFC 4180 CSV (CRLF-free: records end
 * with "\n", which every CSV reader accepts; line breaks inside a quoted
 * field are kept as they are).
 */
#include <errno.h>
#include <string.h>

#include <sqlite3.h>

#include "csv.h"

/**
 * csv_field() - write @s as one CSV field (NULL: an empty field), quoted
 * when it holds a comma, a double quote, a CR or LF, or starts or ends
 * with a space; double quotes inside are doubled.
 */
void csv_field(FILE *f, const char *s)
{
	size_t len;

	if (!s)
		return;
	len = strlen(s);
	if (!strpbrk(s, ",\"\r\n") && !(len && (s[0] == ' ' || s[len - 1] == ' '))) {
		fputs(s, f);
		return;
	}
	fputc('"', f);
	for (; *s; s++) {
		if (*s == '"')
			fputc('"', f);
		fputc(*s, f);
	}
	fputc('"', f);
}

static void csv_header(FILE *f, struct sqlite3_stmt *st)
{
	int i, n = sqlite3_column_count(st);

	for (i = 0; i < n; i++) {
		if (i)
			fputc(',', f);
		csv_field(f, sqlite3_column_name(st, i));
	}
	fputc('\n', f);
}

/**
 * csv_write_query() - step @st to its end, writing a header line and one
 * record per row to @f. Returns the number of records, or -EIO when
 * SQLite or the stream fails.
 */
long csv_write_query(FILE *f, struct sqlite3_stmt *st)
{
	int i, n = sqlite3_column_count(st), rc;
	long rows = 0;

	csv_header(f, st);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		for (i = 0; i < n; i++) {
			if (i)
				fputc(',', f);
			csv_field(f, (const char *)sqlite3_column_text(st, i));
		}
		fputc('\n', f);
		rows++;
	}
	if (rc != SQLITE_DONE || ferror(f))
		return -EIO;
	return rows;
}
