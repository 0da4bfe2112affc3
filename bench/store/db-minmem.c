// SPDX-License-Identifier: MIT
/*
 * db-minmem.c - the minmem tables (db-minmem.h). A step's outcome is read
 * from its run: the run's latest cell row (a resumed run may hold older
 * ones), its measured calls and of them ok, and the median latency of the
 * ok ones (lib/stats.c: the mean of the two middle ones when even).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "db-local.h"
#include "db-minmem.h"
#include "log.h"
#include "stats.h"

static int prepare(struct db *db, const char *sql, sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(db->h, sql, -1, st, NULL) == SQLITE_OK)
		return 0;
	pr_err("%s: %s", db->path, sqlite3_errmsg(db->h));
	return -EIO;
}

/* Step @st to its end; 0 or -EIO (SQLite's message logged). */
static int done(struct db *db, sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_finalize(st);
	if (rc == SQLITE_DONE)
		return 0;
	pr_err("%s: %s", db->path, sqlite3_errmsg(db->h));
	return -EIO;
}

int64_t db_minmem_begin(struct db *db, const struct minmem_search *s)
{
	sqlite3_stmt *st;
	char now[40];

	if (prepare(db, "INSERT INTO minmem (created_at, workload, vm_type, accel, size, "
		    "from_mib, to_mib, step_mib, threshold_pct) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    &st))
		return -EIO;
	utc_now(now, sizeof(now));
	bind_text(st, 1, now);
	bind_text(st, 2, s->workload);
	bind_text(st, 3, s->vm_type);
	bind_text(st, 4, s->accel);
	bind_text(st, 5, s->size);
	sqlite3_bind_int(st, 6, s->from_mib);
	sqlite3_bind_int(st, 7, s->to_mib);
	sqlite3_bind_int(st, 8, s->step_mib);
	sqlite3_bind_double(st, 9, s->threshold_pct);
	return done(db, st) ? -EIO : sqlite3_last_insert_rowid(db->h);
}

/* The median of the ok measured calls of @cell into o->median_ms (-1: none). */
static int median_of(struct db *db, int64_t cell, struct minmem_outcome *o)
{
	sqlite3_stmt *st;
	double *v = NULL, *nv;
	size_t n = 0;
	int rc;

	o->median_ms = -1;
	if (prepare(db, "SELECT latency_ns / 1e6 FROM invocation WHERE cell_id = ? AND "
		    "phase = 'measured' AND ok = 1 AND latency_ns IS NOT NULL", &st))
		return -EIO;
	sqlite3_bind_int64(st, 1, cell);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		nv = realloc(v, (n + 1) * sizeof(*v));
		if (!nv)
			break;
		v = nv;
		v[n++] = sqlite3_column_double(st, 0);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		free(v);
		return -EIO;
	}
	stats_sort(v, n);
	if (n)
		o->median_ms = stats_median(v, n);
	free(v);
	return 0;
}

/* A skipped cell's reason or a failed run's last error into o->reason. */
static void reason_of(struct db *db, int64_t run_id, struct minmem_outcome *o)
{
	const char *sql = !strcmp(o->status, "skipped") ?
		"SELECT reason FROM skip WHERE run_id = ? AND probe IS NULL ORDER BY rowid LIMIT 1" :
		"SELECT message FROM error WHERE run_id = ? ORDER BY rowid DESC LIMIT 1";
	sqlite3_stmt *st;

	if (prepare(db, sql, &st))
		return;
	sqlite3_bind_int64(st, 1, run_id);
	if (sqlite3_step(st) == SQLITE_ROW && sqlite3_column_text(st, 0))
		snprintf(o->reason, sizeof(o->reason), "%s",
			 (const char *)sqlite3_column_text(st, 0));
	sqlite3_finalize(st);
}

int db_minmem_outcome(struct db *db, int64_t run_id, struct minmem_outcome *o)
{
	sqlite3_stmt *st;
	int rc;

	memset(o, 0, sizeof(*o));
	if (prepare(db, "SELECT c.id, c.status, "
		    " (SELECT count(*) FROM invocation WHERE cell_id = c.id AND phase = 'measured'), "
		    " (SELECT count(*) FROM invocation WHERE cell_id = c.id AND phase = 'measured' "
		    "  AND ok = 1) FROM cell c WHERE c.run_id = ? ORDER BY c.id DESC LIMIT 1", &st))
		return -EIO;
	sqlite3_bind_int64(st, 1, run_id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		o->cell_id = sqlite3_column_int64(st, 0);
		snprintf(o->status, sizeof(o->status), "%s",
			 (const char *)sqlite3_column_text(st, 1));
		o->calls = sqlite3_column_int(st, 2);
		o->calls_ok = sqlite3_column_int(st, 3);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return rc == SQLITE_DONE ? -ENOENT : -EIO;
	if (strcmp(o->status, "ok"))
		reason_of(db, run_id, o);
	return median_of(db, o->cell_id, o);
}

int db_minmem_step(struct db *db, int64_t id, int memory_mib, int64_t run_id,
		   const struct minmem_outcome *o, int passed, const char *why)
{
	sqlite3_stmt *st;

	if (prepare(db, "INSERT INTO minmem_step (minmem_id, memory_mib, run_id, cell_id, "
		    "passed, calls, calls_ok, median_ms, why) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
		    &st))
		return -EIO;
	sqlite3_bind_int64(st, 1, id);
	sqlite3_bind_int(st, 2, memory_mib);
	sqlite3_bind_int64(st, 3, run_id);
	if (o->cell_id)
		sqlite3_bind_int64(st, 4, o->cell_id);
	sqlite3_bind_int(st, 5, passed);
	sqlite3_bind_int64(st, 6, o->calls);
	sqlite3_bind_int64(st, 7, o->calls_ok);
	if (o->median_ms >= 0)
		sqlite3_bind_double(st, 8, o->median_ms);
	bind_text(st, 9, passed ? NULL : why);
	return done(db, st);
}

int db_minmem_end(struct db *db, int64_t id, double baseline_ms, int min_mib, const char *why)
{
	sqlite3_stmt *st;

	if (prepare(db, "UPDATE minmem SET baseline_ms = ?, min_mib = ?, why = ? WHERE id = ?",
		    &st))
		return -EIO;
	if (baseline_ms >= 0)
		sqlite3_bind_double(st, 1, baseline_ms);
	if (min_mib > 0)
		sqlite3_bind_int(st, 2, min_mib);
	bind_text(st, 3, min_mib > 0 ? NULL : why);
	sqlite3_bind_int64(st, 4, id);
	return done(db, st);
}
