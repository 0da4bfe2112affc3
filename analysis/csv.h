/* SPDX-License-Identifier: MIT */
/*
 * csv.h - RFC 4180 CSV out of SQLite result rows: a header of column
 * names, then one record per row; fields holding a comma, a quote, a line
 * break or outer spaces are quoted, with quotes doubled; NULL is empty.
 */
#ifndef CVMBENCH_CSV_H
#define CVMBENCH_CSV_H

#include <stdio.h>

struct sqlite3_stmt;

void csv_field(FILE *f, const char *s);
long csv_write_query(FILE *f, struct sqlite3_stmt *st);

#endif
