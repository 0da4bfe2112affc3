// SPDX-License-Identifier: MIT
/*
 * db.c - the results database: WAL, foreign keys, migrations tracked in
 * PRAGMA user_version, and one prepared statement per row kind. What a
 * file may be before it is opened for writing is decided in db-check.c; the
 * probes' side (the sink, their own tables, the window transaction) is in
 * db-sink.c. Each row outside a probe's window is its own transaction: a
 * crash loses at most the row in flight.
 */
#include <errno.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include "db-check.h"
#include "db-local.h"
#include "db-schema.h"
#include "db.h"
#include "log.h"
#include "version.h"


static const char *const stmt_sql[ST_COUNT] = {
	[ST_ENV] = "INSERT OR REPLACE INTO environment (run_id, key, value, source) "
		   "VALUES (?, ?, ?, ?)",
	[ST_CELL] = "INSERT INTO cell (run_id, cell_key, experiment, workload, size, "
		    "backend, threads, wait, mode, instances, invocations, warmup, "
		    "repeat_index, seed, probes, spec, started_at, matrix_index) VALUES "
		    "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
	[ST_PARAM] = "INSERT INTO cell_param (cell_id, key, value) VALUES (?, ?, ?)",
	[ST_CELL_END] = "UPDATE cell SET status = ?, ended_at = ? WHERE id = ?",
	[ST_INSTANCE] = "INSERT OR REPLACE INTO instance (cell_id, idx, pid, init_ns, "
			"start_ns, rss_kb, pss_kb, threads) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
	/* id NULL: the next one; a given id already there: nothing (a refold);
	 * any other constraint still fails (OR IGNORE would drop such a row) */
	[ST_INVOCATION] = "INSERT INTO invocation (cell_id, instance_idx, seq, "
			  "phase, start, started_at, latency_ns, fn_ns, ok, digest, error, "
			  "digest_ns, id) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
			  "ON CONFLICT (id) DO NOTHING",
	[ST_METRIC] = "INSERT INTO metric (cell_id, invocation_id, probe, name, value, "
		      "unit) VALUES (?, ?, ?, ?, ?, ?)",
	[ST_SKIP] = "INSERT INTO skip (run_id, cell_id, probe, reason) VALUES (?, ?, ?, ?)",
	[ST_ERROR] = "INSERT INTO error (run_id, cell_id, at, source, message) "
		     "VALUES (?, ?, ?, ?, ?)",
};


void utc_now(char *buf, size_t len)
{
	struct timeval tv;
	struct tm tm;
	char base[32];

	gettimeofday(&tv, NULL);
	gmtime_r(&tv.tv_sec, &tm);
	strftime(base, sizeof(base), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%06ldZ", base, (long)tv.tv_usec);
}

static int pragma_int(sqlite3 *h, const char *sql)
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

static int user_version(sqlite3 *h)
{
	return pragma_int(h, "PRAGMA user_version");
}

/* Whether a foreign key is broken; the message into @msg. */
static int fk_broken(sqlite3 *h, char **msg)
{
	sqlite3_stmt *st;
	int broken = 1;

	if (sqlite3_prepare_v2(h, "PRAGMA foreign_key_check", -1, &st, NULL) != SQLITE_OK)
		return 1;
	broken = sqlite3_step(st) != SQLITE_DONE;
	if (broken)
		*msg = sqlite3_mprintf("foreign_key_check: a row of %s refers to nothing",
				       (const char *)sqlite3_column_text(st, 0) ?: "?");
	sqlite3_finalize(st);
	return broken;
}

/*
 * Apply migration @m in one transaction, foreign keys off (a migration
 * may rebuild a table: SQLite's recipe for altering one), checked before
 * the commit, then as they were.
 */
static int apply_migration(sqlite3 *h, const struct db_migration *m, const char *path,
			   char *err, size_t errlen)
{
	char *msg = NULL, pragma[64];
	int ok, fk = pragma_int(h, "PRAGMA foreign_keys");

	snprintf(pragma, sizeof(pragma), "PRAGMA user_version = %d", m->number);
	ok = sqlite3_exec(h, "PRAGMA foreign_keys = OFF", NULL, NULL, &msg) == SQLITE_OK &&
	     sqlite3_exec(h, "BEGIN IMMEDIATE", NULL, NULL, &msg) == SQLITE_OK &&
	     sqlite3_exec(h, m->sql, NULL, NULL, &msg) == SQLITE_OK &&
	     !fk_broken(h, &msg) &&
	     sqlite3_exec(h, pragma, NULL, NULL, &msg) == SQLITE_OK &&
	     sqlite3_exec(h, "COMMIT", NULL, NULL, &msg) == SQLITE_OK;
	if (!ok) {
		snprintf(err, errlen, "%s: migration %s failed: %s", path,
			 m->name, msg ? msg : sqlite3_errmsg(h));
		sqlite3_free(msg);
		sqlite3_exec(h, "ROLLBACK", NULL, NULL, NULL);
	}
	if (fk == 1)
		sqlite3_exec(h, "PRAGMA foreign_keys = ON", NULL, NULL, NULL);
	return ok ? 0 : -EIO;
}

int db_migrate(sqlite3 *h, const char *path, char *err, size_t errlen)
{
	int v = user_version(h), latest = db_schema_latest();
	char why[512];
	size_t i;

	if (db_schema_check(db_migrations, db_migration_count, why, sizeof(why))) {
		snprintf(err, errlen, "%s: this build's schema is broken: %s", path, why);
		return -EINVAL;
	}
	if (v < 0) {
		snprintf(err, errlen, "%s: cannot read the schema version: %s", path,
			 sqlite3_errmsg(h));
		return -EIO;
	}
	if (v > latest) {
		snprintf(err, errlen,
			 "%s was written by a newer cvmbench (schema %d; this build knows "
			 "schemas up to %d): use a newer cvmbench or another database",
			 path, v, latest);
		return -EPROTO;
	}
	for (i = 0; i < db_migration_count; i++)
		if (db_migrations[i].number > v &&
		    apply_migration(h, &db_migrations[i], path, err, errlen))
			return -EIO;
	return 0;
}

static int db_prepare_all(struct db *db, char *err, size_t errlen)
{
	int i;

	for (i = 0; i < ST_COUNT; i++)
		if (sqlite3_prepare_v3(db->h, stmt_sql[i], -1, SQLITE_PREPARE_PERSISTENT,
				       &db->stmt[i], NULL) != SQLITE_OK) {
			snprintf(err, errlen, "%s: %s", db->path, sqlite3_errmsg(db->h));
			return -EIO;
		}
	return 0;
}

static int db_open_handle(struct db *db, const char *name, int oflags, char *err,
			  size_t errlen)
{
	if (sqlite3_open_v2(name, &db->h, oflags, NULL) == SQLITE_OK) {
		sqlite3_busy_timeout(db->h, 5000);
		return 0;
	}
	if (db->h && sqlite3_extended_errcode(db->h) == SQLITE_CANTOPEN_SYMLINK) {
		snprintf(err, errlen, "refusing database %s: it is, or its directory "
			 "became, a symlink", db->path);
		return -EPERM;
	}
	snprintf(err, errlen, "cannot open database %s: %s", db->path,
		 db->h ? sqlite3_errmsg(db->h) : "out of memory");
	return -EIO;
}

/* The directory part of @path into @dir ("." for a bare name). */
static void db_dir_of(const char *path, char *dir, size_t len)
{
	const char *slash = strrchr(path, '/');

	if (!slash)
		snprintf(dir, len, ".");
	else
		snprintf(dir, len, "%.*s", (int)(slash - path) ?: 1, path);
}

/*
 * The name SQLite opens for DB_NOFOLLOW: the real path of @path's directory
 * (no symlink left in it, as the caller found it) and its own name, so that
 * SQLITE_OPEN_NOFOLLOW refuses only a symlink planted since. 0 or -errno.
 */
static int db_nofollow_name(const char *path, char *buf, size_t len, char *err,
			    size_t errlen)
{
	const char *slash = strrchr(path, '/');
	char dir[PATH_MAX], real[PATH_MAX];

	db_dir_of(path, dir, sizeof(dir));
	if (!realpath(dir, real)) {
		snprintf(err, errlen, "cannot open database %s: %s", path, strerror(errno));
		return -errno;
	}
	if (snprintf(buf, len, "%s/%s", strcmp(real, "/") ? real : "",
		     slash ? slash + 1 : path) >= (int)len) {
		snprintf(err, errlen, "cannot open database %s: name too long", path);
		return -ENAMETOOLONG;
	}
	return 0;
}

/*
 * Check what the file is, and only then switch to WAL and migrate. With
 * DB_NOFOLLOW in @flags, SQLite refuses a symlink in the file's place.
 */
static int db_open_write(struct db *db, int flags, char *err, size_t errlen)
{
	static const char pragmas[] = "PRAGMA journal_mode = WAL; "
		"PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON;";
	char buf[PATH_MAX + 8], *msg = NULL;
	const char *name = db_path_plain(db->path, buf, sizeof(buf));
	int ret, rc, oflags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;

	if (flags & DB_NOFOLLOW) {
		ret = db_nofollow_name(db->path, buf, sizeof(buf), err, errlen);
		if (ret)
			return ret;
		name = buf;
		oflags |= SQLITE_OPEN_NOFOLLOW;
	}
	ret = db_open_handle(db, name, oflags, err, errlen);
	if (ret)
		return ret;
	/* SQLite falls back to read-only when the file cannot be written */
	if (sqlite3_db_readonly(db->h, "main") == 1)
		return db_readonly_why(db->path, err, errlen);
	ret = db_check(db->h, db->path, db_schema_latest(), 1, &rc, err, errlen);
	if (ret)
		return ret;
	if (sqlite3_exec(db->h, pragmas, NULL, NULL, &msg) != SQLITE_OK) {
		snprintf(err, errlen, "%s: %s", db->path, msg ? msg : "cannot set up");
		sqlite3_free(msg);
		return -EIO;
	}
	return db_migrate(db->h, db->path, err, errlen) ?:
	       db_mark(db->h, db->path, err, errlen) ?:
	       db_prepare_all(db, err, errlen);
}

/*
 * Whether the reader may open @path read-write (query_only): the file and
 * its directory can be written, so that the last connection to close can
 * checkpoint a WAL database and remove its -wal and -shm files. A read-only
 * connection cannot, and leaves both behind (issue 16).
 */
static int db_reader_may_write(const char *path)
{
	char dir[PATH_MAX];

	db_dir_of(path, dir, sizeof(dir));
	return !access(path, W_OK) && !access(dir, W_OK);
}

/*
 * The authorizer of a reader's connection: no change to the main database
 * (its rows, tables, views, indexes, triggers); TEMP objects (the analysis
 * views) and reads are allowed. PRAGMA query_only would refuse TEMP views.
 */
static int db_reader_auth(void *ctx, int action, const char *a, const char *b,
			  const char *schema, const char *trigger)
{
	(void)ctx; (void)b; (void)trigger;
	switch (action) {
	case SQLITE_INSERT: case SQLITE_UPDATE: case SQLITE_DELETE:
		/* SQLite asks for sqlite_master while it reads the schema; writing
		 * it for real needs PRAGMA writable_schema, refused below */
		return (schema && !strcmp(schema, "temp")) ||
		       (a && !strcmp(a, "sqlite_master")) ? SQLITE_OK : SQLITE_DENY;
	case SQLITE_PRAGMA:
		return a && !strcasecmp(a, "writable_schema") ? SQLITE_DENY : SQLITE_OK;
	case SQLITE_CREATE_TABLE: case SQLITE_CREATE_INDEX: case SQLITE_CREATE_VIEW:
	case SQLITE_CREATE_TRIGGER: case SQLITE_DROP_TABLE: case SQLITE_DROP_INDEX:
	case SQLITE_DROP_VIEW: case SQLITE_DROP_TRIGGER: case SQLITE_ALTER_TABLE:
	case SQLITE_ATTACH: case SQLITE_DETACH:
		return SQLITE_DENY;
	default:
		return SQLITE_OK;
	}
}

/*
 * Read-only: a connection that may change nothing in the database
 * (db_reader_auth()), read-write at the file level when it may be
 * (db_reader_may_write()), else read-only. A WAL database on a
 * read-only mount cannot be opened the ordinary way (no -shm can be made
 * there): open it as immutable instead.
 */
static int db_open_read(struct db *db, char *err, size_t errlen)
{
	char name[PATH_MAX + 32];
	int ret, rc, rw = db_reader_may_write(db->path);

	ret = db_open_handle(db, db_path_plain(db->path, name, sizeof(name)),
			     rw ? SQLITE_OPEN_READWRITE : SQLITE_OPEN_READONLY, err, errlen);
	if (ret)
		return ret;
	sqlite3_set_authorizer(db->h, db_reader_auth, NULL);
	ret = db_check(db->h, db->path, db_schema_latest(), 0, &rc, err, errlen);
	if (ret == -EIO && rc == SQLITE_CANTOPEN) {
		rc = db_ro_mount_uri(db->path, name, sizeof(name), err, errlen);
		if (rc)
			return rc == -EAGAIN ? ret : rc;
		sqlite3_close(db->h);
		db->h = NULL;
		ret = db_open_handle(db, name, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, err,
				     errlen) ?:
		      db_check(db->h, db->path, db_schema_latest(), 0, &rc, err, errlen);
	}
	if (ret)
		return ret;
	/* an older schema: the handle becomes an upgraded copy in memory */
	ret = db_read_upgrade(db, err, errlen);
	sqlite3_set_authorizer(db->h, db_reader_auth, NULL);
	return ret;
}

int db_open(struct db **out, const char *path, int flags, char *err, size_t errlen)
{
	struct db *db;
	int ret = db_path_check(path, err, errlen);

	if (ret)
		return ret;
	db = calloc(1, sizeof(*db));
	if (!db || !(db->path = strdup(path))) {
		free(db);
		return -ENOMEM;
	}
	if (!(flags & DB_CREATE) && access(path, R_OK)) {
		ret = -errno;
		snprintf(err, errlen, "cannot open database %s: %s", path, strerror(-ret));
		goto err_free;
	}
	ret = flags & DB_CREATE ? db_open_write(db, flags, err, errlen) :
				  db_open_read(db, err, errlen);
	if (ret)
		goto err_free;
	*out = db;
	return 0;
err_free:
	db_close(db);
	return ret;
}

/* Finalize the probe tables' statements (db-sink.c prepared them). */
static void db_tables_free(struct db *db)
{
	struct db_table *dt, *next;

	for (dt = db->tables; dt; dt = next) {
		next = dt->next;
		sqlite3_finalize(dt->st);
		free(dt);
	}
	db->tables = NULL;
}

void db_close(struct db *db)
{
	int i;

	if (!db)
		return;
	for (i = 0; i < ST_COUNT; i++)
		sqlite3_finalize(db->stmt[i]);
	db_tables_free(db);
	sqlite3_close(db->h);
	free(db->path);
	free(db);
}

sqlite3 *db_sqlite(struct db *db)
{
	return db->h;
}

/* Open the window's transaction before its first row (db-sink.c). */
static int window_write(struct db *db)
{
	if (db->window != DB_WINDOW_OPEN)
		return 0;
	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK) {
		pr_err("%s: cannot begin a transaction: %s", db->path, sqlite3_errmsg(db->h));
		return -EIO;
	}
	db->window = DB_WINDOW_WRITING;
	return 0;
}

int db_step(struct db *db, sqlite3_stmt *st)
{
	int rc = window_write(db) ? SQLITE_ERROR : sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	if (rc == SQLITE_DONE)
		return 0;
	pr_err("%s: write failed: %s", db->path, sqlite3_errmsg(db->h));
	return -EIO;
}

int64_t db_run_begin(struct db *db, const struct run_info *info)
{
	sqlite3_stmt *st;
	char now[40], host[256] = "";
	int64_t id = -EIO;

	utc_now(now, sizeof(now));
	gethostname(host, sizeof(host) - 1);
	if (sqlite3_prepare_v2(db->h, "INSERT INTO run (started_at, vantage, "
			       "cvmbench_version, command_line, config_path, config_text, "
			       "hostname) VALUES (?, ?, ?, ?, ?, ?, ?)", -1, &st, NULL))
		return -EIO;
	bind_text(st, 1, now);
	bind_text(st, 2, info->vantage);
	bind_text(st, 3, cvmbench_version);
	bind_text(st, 4, info->command_line);
	bind_text(st, 5, info->config_path);
	bind_text(st, 6, info->config_text);
	bind_text(st, 7, host);
	if (sqlite3_step(st) == SQLITE_DONE)
		id = sqlite3_last_insert_rowid(db->h);
	else
		pr_err("%s: cannot record the run: %s", db->path, sqlite3_errmsg(db->h));
	sqlite3_finalize(st);
	return id;
}

int db_run_end(struct db *db, int64_t run_id, const char *status, int total,
	       int ok, int skipped, int failed)
{
	sqlite3_stmt *st;
	char now[40];
	int ret;

	utc_now(now, sizeof(now));
	if (sqlite3_prepare_v2(db->h, "UPDATE run SET ended_at = ?, status = ?, "
			       "cells_total = ?, cells_ok = ?, cells_skipped = ?, "
			       "cells_failed = ? WHERE id = ?", -1, &st, NULL))
		return -EIO;
	bind_text(st, 1, now);
	bind_text(st, 2, status);
	sqlite3_bind_int(st, 3, total);
	sqlite3_bind_int(st, 4, ok);
	sqlite3_bind_int(st, 5, skipped);
	sqlite3_bind_int(st, 6, failed);
	sqlite3_bind_int64(st, 7, run_id);
	ret = db_step(db, st);
	sqlite3_finalize(st);
	return ret;
}

int db_env_add(struct db *db, int64_t run_id, const char *key,
	       const char *value, const char *source)
{
	sqlite3_stmt *st = db->stmt[ST_ENV];

	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, key);
	bind_text(st, 3, value);
	bind_text(st, 4, source);
	return db_step(db, st);
}

/*
 * One cell_param row per `key = value` line of the spec: the key is the
 * line up to the first " = ", the value the rest of that line (maybe empty).
 */
static int db_cell_params(struct db *db, int64_t cell_id, const char *spec)
{
	sqlite3_stmt *st = db->stmt[ST_PARAM];
	const char *p, *eol, *sep;
	int ret = 0;

	for (p = spec; p && *p && !ret; p = *eol ? eol + 1 : NULL) {
		eol = p + strcspn(p, "\n");
		sep = memmem(p, (size_t)(eol - p), " = ", 3);
		if (!sep || sep == p)
			continue;
		sqlite3_bind_int64(st, 1, cell_id);
		sqlite3_bind_text(st, 2, p, (int)(sep - p), SQLITE_TRANSIENT);
		sqlite3_bind_text(st, 3, sep + 3, (int)(eol - sep - 3), SQLITE_TRANSIENT);
		ret = db_step(db, st);
	}
	return ret;
}

int64_t db_cell_begin(struct db *db, int64_t run_id, const struct cell *c)
{
	sqlite3_stmt *st = db->stmt[ST_CELL];
	char now[40];
	int64_t id;

	if (sqlite3_exec(db->h, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
		pr_err("%s: cannot begin the row of cell %s: %s", db->path, c->key,
		       sqlite3_errmsg(db->h));
		return -EIO;
	}
	utc_now(now, sizeof(now));
	sqlite3_bind_int64(st, 1, run_id);
	bind_text(st, 2, c->key);
	bind_text(st, 3, c->experiment);
	bind_text(st, 4, c->workload);
	bind_text(st, 5, c->size);
	bind_text(st, 6, c->backend);
	sqlite3_bind_int(st, 7, c->threads);
	bind_text(st, 8, c->wait);
	bind_text(st, 9, c->mode);
	sqlite3_bind_int(st, 10, c->instances);
	sqlite3_bind_int(st, 11, c->invocations);
	sqlite3_bind_int(st, 12, c->warmup);
	sqlite3_bind_int(st, 13, c->repeat_index);
	sqlite3_bind_int64(st, 14, c->seed);
	bind_text(st, 15, c->probes);
	bind_text(st, 16, c->spec);
	bind_text(st, 17, now);
	sqlite3_bind_int(st, 18, c->index);
	if (db_step(db, st) ||
	    db_cell_params(db, id = sqlite3_last_insert_rowid(db->h), c->spec) ||
	    sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return -EIO;
	}
	return id;
}

int db_cell_end(struct db *db, int64_t cell_id, const char *status)
{
	sqlite3_stmt *st = db->stmt[ST_CELL_END];
	char now[40];

	utc_now(now, sizeof(now));
	bind_text(st, 1, status);
	bind_text(st, 2, now);
	sqlite3_bind_int64(st, 3, cell_id);
	return db_step(db, st);
}

int db_instance_add(struct db *db, const struct instance_row *r)
{
	sqlite3_stmt *st = db->stmt[ST_INSTANCE];

	sqlite3_bind_int64(st, 1, r->cell_id);
	sqlite3_bind_int(st, 2, r->idx);
	bind_known(st, 3, r->pid);
	bind_known(st, 4, r->init_ns);
	bind_known(st, 5, r->start_ns);
	bind_known(st, 6, r->rss_kb);
	bind_known(st, 7, r->pss_kb);
	bind_known(st, 8, r->threads);
	return db_step(db, st);
}

int64_t db_invocation_add(struct db *db, const struct invocation_row *r)
{
	return db_invocation_put(db, 0, r) ?: sqlite3_last_insert_rowid(db->h);
}

/*
 * Invocation @id was there already: 0 if it is @r's call (a log folded
 * again), else -EEXIST (two calls under one id: one would be lost).
 */
static int invocation_same(struct db *db, int64_t id, const struct invocation_row *r)
{
	sqlite3_stmt *st;
	int same = 0;

	if (sqlite3_prepare_v2(db->h, "SELECT cell_id = ? AND seq = ? FROM invocation "
			       "WHERE id = ?", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, r->cell_id);
	sqlite3_bind_int64(st, 2, r->seq);
	sqlite3_bind_int64(st, 3, id);
	if (sqlite3_step(st) == SQLITE_ROW)
		same = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	if (!same)
		pr_err("%s: invocation %lld is another call than call %ld of cell %lld",
		       db->path, (long long)id, r->seq, (long long)r->cell_id);
	return same ? 0 : -EEXIST;
}

int db_invocation_put(struct db *db, int64_t id, const struct invocation_row *r)
{
	sqlite3_stmt *st = db->stmt[ST_INVOCATION];

	sqlite3_bind_int64(st, 1, r->cell_id);
	sqlite3_bind_int(st, 2, r->instance_idx);
	sqlite3_bind_int64(st, 3, r->seq);
	bind_text(st, 4, r->phase);
	bind_text(st, 5, r->start);
	bind_text(st, 6, r->started_at);
	bind_known(st, 7, r->latency_ns);
	bind_known(st, 8, r->fn_ns);
	sqlite3_bind_int(st, 9, r->ok);
	bind_text(st, 10, r->digest);
	bind_text(st, 11, r->error);
	bind_known(st, 12, r->digest_ns);
	bind_id(st, 13, id);
	if (db_step(db, st))
		return -EIO;
	return id > 0 && !sqlite3_changes(db->h) ? invocation_same(db, id, r) : 0;
}

int64_t db_invocation_max_id(struct db *db)
{
	sqlite3_stmt *st;
	int64_t id = -EIO;

	if (sqlite3_prepare_v2(db->h, "SELECT coalesce(max(id), 0) FROM invocation", -1,
			       &st, NULL) != SQLITE_OK)
		return -EIO;
	if (sqlite3_step(st) == SQLITE_ROW)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

int db_begin(struct db *db)
{
	return sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

int db_commit(struct db *db, int ok)
{
	if (ok && sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
		return 0;
	sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
	return -EIO;
}

int db_metric_add(struct db *db, int64_t cell_id, int64_t invocation_id,
		  const char *probe, const char *name, double value, const char *unit)
{
	sqlite3_stmt *st = db->stmt[ST_METRIC];

	sqlite3_bind_int64(st, 1, cell_id);
	bind_id(st, 2, invocation_id);
	bind_text(st, 3, probe);
	bind_text(st, 4, name);
	sqlite3_bind_double(st, 5, value);
	bind_text(st, 6, unit);
	return db_step(db, st);
}

int db_skip_add(struct db *db, int64_t run_id, int64_t cell_id,
		const char *probe, const char *reason)
{
	sqlite3_stmt *st = db->stmt[ST_SKIP];

	sqlite3_bind_int64(st, 1, run_id);
	bind_id(st, 2, cell_id);
	bind_text(st, 3, probe);
	bind_text(st, 4, reason);
	return db_step(db, st);
}

/**
 * db_cell_note() - a fact about how a cell was measured, as cell_param
 * @key (e.g. "idle.applied", "idle.entries_source"); replaces an earlier
 * note of the same key. Returns 0 or -EIO.
 */
int db_cell_note(struct db *db, int64_t cell_id, const char *key, const char *value)
{
	sqlite3_stmt *st;
	int ret;

	if (sqlite3_prepare_v2(db->h, "INSERT OR REPLACE INTO cell_param (cell_id, key, "
			       "value) VALUES (?, ?, ?)", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, cell_id);
	bind_text(st, 2, key);
	bind_text(st, 3, value);
	ret = db_step(db, st);
	sqlite3_finalize(st);
	return ret;
}

/* The count that @sql (one parameter: the run id) gives for @run_id, or -1. */
static int run_count(struct db *db, const char *sql, int64_t run_id)
{
	sqlite3_stmt *st;
	int n = -1;

	if (sqlite3_prepare_v2(db->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

int db_skip_count(struct db *db, int64_t run_id)
{
	return run_count(db, "SELECT count(*) FROM skip WHERE run_id = ?", run_id);
}

int db_probe_skip_count(struct db *db, int64_t run_id)
{
	/* a superseded cell's skips are not the run's any more (DB_CELL_CURRENT) */
	return run_count(db, "SELECT count(*) FROM skip s WHERE s.run_id = ?1 AND "
			 "(s.cell_id IS NULL OR s.cell_id IN (SELECT id FROM cell WHERE "
			 "run_id = ?1 AND status <> 'skipped' AND " DB_CELL_CURRENT "))",
			 run_id);
}

int db_error_add(struct db *db, int64_t run_id, int64_t cell_id,
		 const char *source, const char *message)
{
	sqlite3_stmt *st = db->stmt[ST_ERROR];
	char now[40];

	utc_now(now, sizeof(now));
	sqlite3_bind_int64(st, 1, run_id);
	bind_id(st, 2, cell_id);
	bind_text(st, 3, now);
	bind_text(st, 4, source);
	bind_text(st, 5, message);
	return db_step(db, st);
}

int db_run_interrupted(struct db *db, int64_t run_id, const char *when)
{
	static const char *const sql[] = {
		"UPDATE run SET status = 'interrupted', ended_at = ?1 "
		"WHERE id = ?2 AND status = 'running'",
		"UPDATE cell SET status = 'interrupted', ended_at = ?1 "
		"WHERE run_id = ?2 AND status = 'running'",
	};
	sqlite3_stmt *st;
	int i, ret = 0, marked = 0;

	if (sqlite3_exec(db->h, "BEGIN IMMEDIATE", NULL, NULL, NULL) != SQLITE_OK)
		return -EIO;
	for (i = 0; i < 2 && !ret; i++) {
		if (sqlite3_prepare_v2(db->h, sql[i], -1, &st, NULL) != SQLITE_OK)
			return sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL), -EIO;
		bind_text(st, 1, when);
		sqlite3_bind_int64(st, 2, run_id);
		ret = db_step(db, st);
		sqlite3_finalize(st);
		if (!i)
			marked = sqlite3_changes(db->h);
	}
	if (ret || sqlite3_exec(db->h, "COMMIT", NULL, NULL, NULL) != SQLITE_OK) {
		sqlite3_exec(db->h, "ROLLBACK", NULL, NULL, NULL);
		return -EIO;
	}
	return marked;
}
