/* SPDX-License-Identifier: MIT */
/*
 * db-shape.h - whether a database has every table and column its schema
 * version implies, derived from the migrations (db-shape.c; used by
 * db-check.c).
 */
#ifndef CVMBENCH_DB_SHAPE_H
#define CVMBENCH_DB_SHAPE_H

#include <stddef.h>

struct sqlite3;

/** struct db_shape - what a database lacks of its schema version's shape. */
struct db_shape {
	int missing;              /* tables and columns it lacks */
	char first[160];          /* the first: "table X" or "column X.Y" */
};

int db_shape_check(struct sqlite3 *h, int version, struct db_shape *s, char *err,
		   size_t errlen);

#endif
