/* SPDX-License-Identifier: MIT */
/*
 * sql-test.h - reading a test database back: the integer the first column
 * of the first row of a query gives (-1 when the query fails or gives no row).
 */
#ifndef CVMBENCH_SQL_TEST_H
#define CVMBENCH_SQL_TEST_H

#include <sqlite3.h>

static inline int scalar(sqlite3 *h, const char *sql)
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

#endif
