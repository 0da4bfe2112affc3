// SPDX-License-Identifier: MIT
/*
 * db-read-upgrade.c - reading a database an older cvmbench wrote. Its
 * schema lacks what later migrations added (a column the seed figures
 * read, a table the pool figures read), and a reader may not change the
 * file. So the reader works on a copy in memory with the missing
 * migrations applied: every query finds the tables and columns of this
 * build's schema, and the file stays as it was. The copy costs memory
 * about the size of the file, once per command.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>

#include "db-local.h"
#include "db-schema.h"
#include "log.h"

static int schema_version(sqlite3 *h)
{
	sqlite3_stmt *st;
	int v = -1;

	if (sqlite3_prepare_v2(h, "PRAGMA user_version", -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return v;
}

int db_copy_to_memory(sqlite3 *from, sqlite3 **to, const char *path, char *err,
		      size_t errlen)
{
	sqlite3_backup *b;
	int rc;

	if (sqlite3_open_v2(":memory:", to, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot be read: no memory for a copy", path);
		sqlite3_close(*to);
		*to = NULL;
		return -ENOMEM;
	}
	/* the input's schema may not run functions with side effects */
	sqlite3_db_config(*to, SQLITE_DBCONFIG_TRUSTED_SCHEMA, 0, NULL);
	sqlite3_db_config(*to, SQLITE_DBCONFIG_DEFENSIVE, 1, NULL);
	b = sqlite3_backup_init(*to, "main", from, "main");
	rc = b ? sqlite3_backup_step(b, -1) : sqlite3_errcode(*to);
	if (b)
		rc = sqlite3_backup_finish(b) == SQLITE_OK && rc == SQLITE_DONE ? SQLITE_OK : rc;
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "%s: cannot be read: copying it into memory failed: %s",
			 path, sqlite3_errstr(rc));
		sqlite3_close(*to);
		*to = NULL;
		return rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
	}
	return 0;
}

int db_read_upgrade(struct db *db, char *err, size_t errlen)
{
	int v = schema_version(db->h), latest = db_schema_latest(), ret;
	sqlite3 *mem = NULL;

	if (v < 1 || v >= latest)
		return 0;
	ret = db_copy_to_memory(db->h, &mem, db->path, err, errlen);
	if (ret)
		return ret;
	ret = db_migrate(mem, db->path, err, errlen);
	if (ret) {
		sqlite3_close(mem);
		return ret;
	}
	sqlite3_close(db->h);
	db->h = mem;
	pr_info("%s has schema %d (an older cvmbench's); it is read through a copy in "
		"memory upgraded to schema %d, the file is unchanged", db->path, v, latest);
	return 0;
}
