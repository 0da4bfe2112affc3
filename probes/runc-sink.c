// SPDX-License-Identifier: MIT
/* runc-sink.c - INSERTs for the runc probe's tables, behind its sink. */
#include <errno.h>
#include <sqlite3.h>

#include "db.h"
#include "runc-sink.h"

static int exec_sql(struct sink *s, const char *sql)
{
	return sqlite3_exec(db_sqlite(s->db), sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -EIO;
}

int runc_sink_begin(struct sink *s)
{
	return exec_sql(s, "BEGIN IMMEDIATE");
}

int runc_sink_end(struct sink *s, int ok)
{
	return exec_sql(s, ok ? "COMMIT" : "ROLLBACK");
}

static sqlite3_stmt *prepare(struct sink *s, const char *sql)
{
	sqlite3_stmt *st = NULL;

	if (sqlite3_prepare_v2(db_sqlite(s->db), sql, -1, &st, NULL) != SQLITE_OK)
		return NULL;
	return st;
}

static int step(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

int64_t runc_sink_start(struct sink *s, const struct runc_start_row *r)
{
	sqlite3_stmt *st = prepare(s, "INSERT INTO runc_start (cell_id, invocation_id, "
				   "start_idx, runtime, root_pid, total_ns, cold_start_ns, "
				   "blocked_ns, events, namespaces) VALUES "
				   "(?, ?, ?, ?, ?, ?, ?, ?, ?, ?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, s->cell_id);
	if (s->invocation_id > 0)
		sqlite3_bind_int64(st, 2, s->invocation_id);
	sqlite3_bind_int(st, 3, r->start_idx);
	sqlite3_bind_text(st, 4, r->runtime, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 5, r->root_pid);
	sqlite3_bind_int64(st, 6, r->total_ns);
	if (r->cold_start_ns >= 0)
		sqlite3_bind_int64(st, 7, r->cold_start_ns);
	sqlite3_bind_int64(st, 8, r->blocked_ns);
	sqlite3_bind_int64(st, 9, r->events);
	sqlite3_bind_text(st, 10, r->namespaces, -1, SQLITE_TRANSIENT);
	if (step(st))
		return -EIO;
	return sqlite3_last_insert_rowid(db_sqlite(s->db));
}

int runc_sink_phase(struct sink *s, int64_t start_id, const char *phase, int seq,
		    long long start_ns, long long duration_ns)
{
	sqlite3_stmt *st = prepare(s, "INSERT INTO runc_phase (start_id, phase, seq, "
				   "start_ns, duration_ns) VALUES (?, ?, ?, ?, ?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, start_id);
	sqlite3_bind_text(st, 2, phase, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int(st, 3, seq);
	sqlite3_bind_int64(st, 4, start_ns);
	sqlite3_bind_int64(st, 5, duration_ns);
	return step(st);
}

int runc_sink_lock(struct sink *s, int64_t start_id, const char *lock,
		   const char *flags, long count, long long blocked_ns)
{
	sqlite3_stmt *st = prepare(s, "INSERT INTO runc_lock (start_id, lock, flags, "
				   "count, blocked_ns) VALUES (?, ?, ?, ?, ?)");

	if (!st)
		return -EIO;
	sqlite3_bind_int64(st, 1, start_id);
	sqlite3_bind_text(st, 2, lock, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, flags, -1, SQLITE_TRANSIENT);
	sqlite3_bind_int64(st, 4, count);
	sqlite3_bind_int64(st, 5, blocked_ns);
	return step(st);
}
