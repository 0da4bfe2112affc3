/* SPDX-License-Identifier: MIT */
/*
 * db-schema.h - the migrations compiled in from results-schema/ (db-schema.c).
 */
#ifndef CVMBENCH_DB_SCHEMA_H
#define CVMBENCH_DB_SCHEMA_H

#include <stddef.h>

/** struct db_migration - one results-schema/NNN-what.sql, compiled in. */
struct db_migration {
	int number;               /* NNN: the user_version it leaves */
	const char *name;         /* its file name */
	const char *sql;
};

/**
 * db_schema_check() - whether @n migrations are numbered 1, 2, 3, ... once
 * each, in order. On a duplicate or a gap writes a message naming the files
 * to @err and returns -EINVAL; 0 if they are in order.
 */
int db_schema_check(const struct db_migration *m, size_t n, char *err, size_t errlen);
/* The migrations in number order (build/bench/schema-gen.c, by embed-sql.sh). */
extern const struct db_migration db_migrations[];
extern const size_t db_migration_count;

/** db_schema_latest() - the number of the newest migration this build has. */
int db_schema_latest(void);

#endif
