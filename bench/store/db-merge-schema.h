/* SPDX-License-Identifier: MIT */
/*
 * db-merge-schema.h - whether an input of `cvmbench merge` has exactly
 * the output's tables and columns (db-merge-schema.c).
 */
#ifndef CVMBENCH_DB_MERGE_SCHEMA_H
#define CVMBENCH_DB_MERGE_SCHEMA_H

#include <stddef.h>

struct sqlite3;

int db_merge_schema_check(struct sqlite3 *h, const char *path, char *err, size_t errlen);

#endif
