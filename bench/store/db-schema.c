// SPDX-License-Identifier: MIT
/*
 * db-schema.c - the migrations of the results database, compiled in by
 * bench/store/embed-sql.sh from results-schema/NNN-what.sql. A migration's number
 * is the one in its file name, and PRAGMA user_version is the number of the
 * last one applied. embed-sql.sh stops the build on two files with one
 * number or a gap; db_schema_check() says the same at run time.
 */
#include <errno.h>
#include <stdio.h>

#include "db-schema.h"

int db_schema_check(const struct db_migration *m, size_t n, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (i && m[i].number == m[i - 1].number) {
			snprintf(err, errlen, "migrations %s and %s have one number (%d)",
				 m[i - 1].name, m[i].name, m[i].number);
			return -EINVAL;
		}
		if (m[i].number != (int)i + 1) {
			snprintf(err, errlen, "migration %s has number %d after %s: the numbers "
				 "go 1, 2, 3, ... without a gap", m[i].name, m[i].number,
				 i ? m[i - 1].name : "none");
			return -EINVAL;
		}
	}
	return 0;
}

int db_schema_latest(void)
{
	return db_migration_count ? db_migrations[db_migration_count - 1].number : 0;
}
