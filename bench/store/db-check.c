// SPDX-License-Identifier: MIT
/*
 * db-check.c - whether a file may be opened as a results database, decided
 * before anything in it changes: a real file name (not SQLite's temporary
 * or in-memory database), a cvmbench database or an empty file (never
 * another program's SQLite file), a schema this build knows, a file that
 * can be written when a run writes it, and read-only access that works on
 * a read-only mount. cvmbench databases carry PRAGMA application_id 'cvmb'.
 * Whether it has every table and column its schema version implies is
 * checked too (db-shape.c): an unmarked file without them is another
 * program's, a marked one is damaged; both are refused.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>

#include "db-check.h"
#include "db-shape.h"

/* the cvmbench tables every schema since 001 has */
#define DB_CORE_TABLES "'run', 'cell', 'invocation'"

struct db_ident {
	unsigned int app_id;
	int user_version;
	int tables;               /* tables of any kind */
	int core;                 /* of which cvmbench's core tables */
};

/**
 * db_path_check() - refuse a database name that is not a file: "" (SQLite's
 * private temporary database) and ":memory:", both discarded at exit, and
 * a directory. Returns 0, -EINVAL or -EISDIR with the reason in @err.
 */
int db_path_check(const char *path, char *err, size_t errlen)
{
	struct stat st;

	if (!path || !*path || !strcmp(path, ":memory:")) {
		snprintf(err, errlen, "database name '%s' is not a file (SQLite would keep "
			 "the results in memory and discard them): give a file with --db "
			 "FILE", path ? path : "");
		return -EINVAL;
	}
	if (!stat(path, &st) && S_ISDIR(st.st_mode)) {
		snprintf(err, errlen, "database %s is a directory: give a file with --db "
			 "FILE", path);
		return -EISDIR;
	}
	return 0;
}

/**
 * db_path_plain() - @path as SQLite must see it to take it as a file name:
 * a relative "file:..." is a URI to a SQLite built with SQLITE_USE_URI (as
 * Debian's is), so it gets a "./" in front. Returns @path or @buf.
 */
const char *db_path_plain(const char *path, char *buf, size_t len)
{
	if (strncmp(path, "file:", 5))
		return path;
	snprintf(buf, len, "./%s", path);
	return buf;
}

/* Read the identity of the main database; returns the SQLite result code. */
static int db_ident_read(sqlite3 *h, struct db_ident *id)
{
	static const char sql[] =
		"SELECT (SELECT application_id FROM pragma_application_id), "
		"(SELECT user_version FROM pragma_user_version), "
		"(SELECT count(*) FROM sqlite_master WHERE type = 'table'), "
		"(SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ("
		DB_CORE_TABLES "))";
	sqlite3_stmt *st;
	int rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		id->app_id = (unsigned int)sqlite3_column_int64(st, 0);
		id->user_version = sqlite3_column_int(st, 1);
		id->tables = sqlite3_column_int(st, 2);
		id->core = sqlite3_column_int(st, 3);
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	return rc;
}

/* Ours, or an unmarked cvmbench database written before the mark existed. */
static int db_ident_is_ours(const struct db_ident *id)
{
	if (id->app_id == DB_APPLICATION_ID)
		return 1;
	return !id->app_id && id->user_version >= 1 && id->core == 3;
}

static int db_ident_judge(const struct db_ident *id, const char *path, int latest,
			  int writing, char *err, size_t errlen)
{
	if (id->app_id && id->app_id != DB_APPLICATION_ID) {
		snprintf(err, errlen, "%s is not a cvmbench database (another program's "
			 "SQLite file: application_id 0x%08x)", path, id->app_id);
		return -EINVAL;
	}
	if (!db_ident_is_ours(id) && (id->tables || id->user_version || !writing)) {
		snprintf(err, errlen, "%s is not a cvmbench database (%s: user_version "
			 "%d, %d table(s), not cvmbench's)", path,
			 id->tables || id->user_version ? "another program's SQLite file" :
			 "no schema", id->user_version, id->tables);
		return -EINVAL;
	}
	if (id->user_version > latest) {
		snprintf(err, errlen,
			 "%s was written by a newer cvmbench (schema %d; this build knows "
			 "schemas up to %d): use a newer cvmbench or another database",
			 path, id->user_version, latest);
		return -EPROTO;
	}
	return 0;
}

/* A database of schema 1 or more has every table and column of its schema. */
static int db_ident_shape(sqlite3 *h, const struct db_ident *id, const char *path,
			  char *err, size_t errlen)
{
	struct db_shape s;
	char why[256], more[48] = "";
	int ret;

	if (id->user_version < 1)
		return 0;
	ret = db_shape_check(h, id->user_version, &s, why, sizeof(why));
	if (ret) {
		snprintf(err, errlen, "cannot check database %s: %s", path, why);
		return ret;
	}
	if (!s.missing)
		return 0;
	if (s.missing > 1)
		snprintf(more, sizeof(more), " (and %d more)", s.missing - 1);
	if (id->app_id == DB_APPLICATION_ID)
		snprintf(err, errlen, "%s is a damaged cvmbench database: it lacks %s%s, "
			 "which its schema %d has", path, s.first, more, id->user_version);
	else
		snprintf(err, errlen, "%s is not a cvmbench database (another program's "
			 "SQLite file, or a damaged one): it has no cvmbench mark and lacks "
			 "%s%s, which cvmbench's schema %d has", path, s.first, more,
			 id->user_version);
	return -EINVAL;
}

/**
 * db_check() - read the identity of the database open in @h and say whether
 * cvmbench may use it: refuse another program's file, a schema newer
 * than @latest, and a database that lacks a table or column of its schema. With @writing an empty file is accepted (it becomes a new
 * database). Reads only. Returns 0, -EINVAL or -EPROTO (message in @err),
 * or -EIO with @sqlite_rc set when the file could not be read.
 */
int db_check(sqlite3 *h, const char *path, int latest, int writing, int *sqlite_rc,
	     char *err, size_t errlen)
{
	struct db_ident id = { 0 };
	int rc = db_ident_read(h, &id);

	*sqlite_rc = rc;
	if (rc == SQLITE_NOTADB) {
		snprintf(err, errlen, "%s is not a cvmbench database (not a SQLite file)",
			 path);
		return -EINVAL;
	}
	if (rc != SQLITE_OK) {
		snprintf(err, errlen, "cannot read database %s: %s", path,
			 sqlite3_errmsg(h));
		return -EIO;
	}
	return db_ident_judge(&id, path, latest, writing, err, errlen) ?:
	       db_ident_shape(h, &id, path, err, errlen);
}

/**
 * db_mark() - stamp the database in @h as cvmbench's (PRAGMA application_id)
 * if it is not yet: new databases, and ones written before the mark. Call
 * only after db_check() accepted it for writing. Returns 0 or -EIO.
 */
int db_mark(sqlite3 *h, const char *path, char *err, size_t errlen)
{
	struct db_ident id = { 0 };
	char sql[64];

	if (db_ident_read(h, &id) != SQLITE_OK)
		goto err;
	if (id.app_id == DB_APPLICATION_ID)
		return 0;
	snprintf(sql, sizeof(sql), "PRAGMA application_id = %d", DB_APPLICATION_ID);
	if (sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK)
		return 0;
err:
	snprintf(err, errlen, "%s: cannot mark the database: %s", path, sqlite3_errmsg(h));
	return -EIO;
}

/**
 * db_readonly_why() - after SQLite opened @path read-only although it was
 * asked to write (file mode, `chattr +i`, a read-only mount), the message.
 * Returns -EACCES.
 */
int db_readonly_why(const char *path, char *err, size_t errlen)
{
	snprintf(err, errlen, "cannot write database %s: the file is read-only (its "
		 "permissions, an immutable attribute, or a read-only mount)", path);
	return -EACCES;
}

/**
 * db_ro_mount_uri() - for a database @path that SQLite cannot open read-only
 * (a WAL database whose -shm cannot be created): when it lies on a read-only
 * file system and has no write-ahead log to apply, the URI that opens it as
 * immutable (nothing can change it there) into @buf. Returns 0, or -EROFS /
 * -EAGAIN with the reason in @err.
 */
int db_ro_mount_uri(const char *path, char *buf, size_t len, char *err, size_t errlen)
{
	static const char hex[] = "0123456789abcdef";
	struct statvfs vfs;
	struct stat st;
	char wal[4096];
	size_t n = 0;
	const char *p;

	if (statvfs(path, &vfs) || !(vfs.f_flag & ST_RDONLY))
		return -EAGAIN;
	snprintf(wal, sizeof(wal), "%s-wal", path);
	if (!stat(wal, &st) && st.st_size > 0) {
		snprintf(err, errlen, "%s is on a read-only file system and its write-ahead "
			 "log %s holds rows SQLite cannot apply there: copy both files to a "
			 "writable directory", path, wal);
		return -EROFS;
	}
	n = (size_t)snprintf(buf, len, "file:");
	for (p = path; p[0] == '/' && p[1] == '/'; p++)
		;                 /* "file://x" would name a host */
	for (; *p && n + 4 < len; p++) {
		if (strchr("?#%", *p)) {
			buf[n++] = '%';
			buf[n++] = hex[(unsigned char)*p >> 4];
			buf[n++] = hex[*p & 15];
		} else {
			buf[n++] = *p;
		}
	}
	return snprintf(buf + n, len - n, "?immutable=1") >= (int)(len - n) ? -ENAMETOOLONG : 0;
}
