// SPDX-License-Identifier: MIT
/*
 * db-merge-runs.c - where `cvmbench merge` puts each run of an input.
 *
 * The same run already in the output (same start, host, version, command
 * line and config; the environment facts both have agree) is not a new run,
 * but it may have been resumed since it was merged: its cell rows not yet in
 * the output are added (db-merge.c), its status, end and counts are the
 * input's, and the facts it gained (a guest image, a tracefs it mounted) are
 * added to the output's run.
 *
 * A shard of a sharded study (environment run.shard = I/N, N > 1) joins
 * the output's run of that study when there is one: the same config text,
 * cvmbench version, vantage and N, and the same machine by the facts
 * `compare` checks (the volatile facts, the machine's identity, run.shard
 * and merge.* aside; keep this list in step with analysis/compare-env.c);
 * the per-run facts guest.image.* and tracefs.mounted_by_run need only agree
 * where both runs have them, and a folded shard's guest images join the run.
 * The study's run then holds the cells of every shard merged into it, so
 * show, plot and report, which read one run, draw the whole study. Each
 * shard is recorded in the run's environment: merge.shard.I.host,
 * .started_at, .source_file, .source_run, .status, .cells (total ok skipped
 * failed) and .cell_ids (the output's cell ids it brought, "a-b,c-d"): the
 * provenance of every cell. merge.shards says which shards the run holds,
 * run.shard becomes "1,2,3/3". A missing shard leaves the run partial
 * (cmd-merge.c names it); a second, different run of a shard the study
 * holds, or a shard with a differing fact, stays a run of its own, with a
 * warning naming why (the fact and both values). The study ends when its
 * last shard ends.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db-merge-runs.h"
#include "log.h"

/*
 * The facts compared for a fold: compare's, without those it ignores, and
 * without the per-run facts a run may gain or lack (SOFT: a guest image is
 * a fact of the cells that boot one, tracefs.mounted_by_run of the run that
 * mounted it), which must only agree where both runs have them.
 */
#define SOFT(K) "(" K " GLOB 'guest.image.*' OR " K " GLOB 'tracefs.mounted_by_run')"
#define FOLD_IGNORED(K) \
	"NOT (" K " GLOB 'memory.available' OR " K " GLOB 'memory.hugepages.free' OR " \
	K " GLOB 'ksm.pages_*' OR " K " GLOB 'ksm.full_scans' OR " \
	K " GLOB 'ksm.general_profit' OR " K " GLOB 'ksm.ksm_zero_pages' OR " \
	K " GLOB 'ksm.stable_node_*' OR " K " GLOB 'tracefs.mounted' OR " \
	K " GLOB 'tracefs.mounted_by_run' OR " K " GLOB 'machine.*' OR " \
	K " GLOB 'guest.image.*' OR " \
	K " GLOB 'merge.*' OR " K " GLOB '*.agent' OR " K " GLOB 'run.shard' OR " \
	K " GLOB 'run.only')"
#define FOLD_FACTS(S, R) \
	"(SELECT group_concat(key || '=' || value, char(10)) FROM (SELECT key, value " \
	"FROM " S ".environment WHERE run_id = " R " AND " FOLD_IGNORED("key") " ORDER BY key))"
/* The keys (a.key) both dst run D and input run R have, with differing values, where F. */
#define CLASH(D, R, F) \
	"SELECT a.key FROM dst.environment AS a JOIN main.environment AS b ON b.key = a.key " \
	"WHERE a.run_id = " D " AND b.run_id = " R " AND a.value IS NOT b.value AND " F

/*
 * The same run: the same start, host, version, command line and config; the
 * facts both have agree (a resumed run gains facts: a guest image, a tracefs
 * it mounted), merge.* aside.
 */
static const char sql_same[] =
	"SELECT d.id FROM dst.run AS d, main.run AS r WHERE r.id = ?1 AND"
	" d.started_at = r.started_at AND d.hostname IS r.hostname AND"
	" d.cvmbench_version = r.cvmbench_version AND d.command_line = r.command_line AND"
	" d.config_text IS r.config_text AND"
	" NOT EXISTS (" CLASH("d.id", "r.id", "a.key NOT GLOB 'merge.*'") ")"
	" ORDER BY d.id LIMIT 1";
static const char sql_study[] =
	"SELECT d.id FROM dst.run AS d, main.run AS r WHERE r.id = ?1 AND"
	" d.config_text IS r.config_text AND d.cvmbench_version = r.cvmbench_version AND"
	" d.vantage = r.vantage AND (SELECT value FROM dst.environment WHERE run_id = d.id"
	" AND key = 'merge.shards.of') = CAST(?2 AS TEXT) AND (?3 = 0 OR"
	" (" FOLD_FACTS("dst", "d.id") " IS " FOLD_FACTS("main", "r.id") " AND NOT EXISTS ("
	CLASH("d.id", "r.id", SOFT("a.key")) "))) ORDER BY d.id DESC LIMIT 1";
/* The first fact that keeps input run ?1 from folding into study run ?2: "KEY 'a' vs 'b'". */
static const char sql_differ[] =
	"SELECT key || ' ''' || coalesce((SELECT value FROM dst.environment WHERE run_id = ?2"
	" AND key = k.key), 'absent') || ''' vs ''' || coalesce((SELECT value FROM"
	" main.environment WHERE run_id = ?1 AND key = k.key), 'absent') || '''' FROM"
	" (SELECT key FROM (SELECT key, value FROM dst.environment WHERE run_id = ?2 AND "
	FOLD_IGNORED("key") " EXCEPT SELECT key, value FROM main.environment WHERE run_id = ?1"
	" AND " FOLD_IGNORED("key") ") UNION SELECT key FROM (SELECT key, value FROM"
	" main.environment WHERE run_id = ?1 AND " FOLD_IGNORED("key") " EXCEPT SELECT key,"
	" value FROM dst.environment WHERE run_id = ?2 AND " FOLD_IGNORED("key") ") UNION "
	CLASH("?2", "?1", SOFT("a.key")) ") AS k ORDER BY 1 LIMIT 1";

static int fail(sqlite3 *h, const char *path, const char *what, char *err, size_t errlen)
{
	snprintf(err, errlen, "%s: %s: %s", path, what, sqlite3_errmsg(h));
	return -EIO;
}

/* The first column of @sql's first row, ?1 = @a, ?2 = @b, ?3 = @c: 1 found, 0 none, -EIO. */
static int query(sqlite3 *h, const char *sql, int64_t a, int64_t b, int64_t c,
		 char *out, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, a);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, b);
	if (sqlite3_bind_parameter_count(st) >= 3)
		sqlite3_bind_int64(st, 3, c);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		snprintf(out, len, "%s", sqlite3_column_text(st, 0) ?
			 (const char *)sqlite3_column_text(st, 0) : "");
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 1 : rc == SQLITE_DONE ? 0 : -EIO;
}

/* The value of environment fact @key of run @run in schema @s ("main", "dst"). */
static int fact(sqlite3 *h, const char *s, int64_t run, const char *key, char *out, size_t len)
{
	char *sql = sqlite3_mprintf("SELECT value FROM %s.environment WHERE run_id = ?1 AND "
				    "key = %Q", s, key);
	int ret;

	if (!sql)
		return -ENOMEM;
	ret = query(h, sql, run, 0, 0, out, len);
	sqlite3_free(sql);
	return ret;
}

/* "I/N" of the input's run.shard into @p (0/0 when absent or not a shard spec). */
static void shard_of(sqlite3 *h, struct merge_place *p)
{
	char v[64], tail;
	int i, n;

	p->shard = p->nshards = 0;
	if (fact(h, "main", p->old, "run.shard", v, sizeof(v)) == 1 &&
	    sscanf(v, "%d/%d%c", &i, &n, &tail) == 2 && n > 1 && i >= 1 && i <= n) {
		p->shard = i;
		p->nshards = n;
	}
}

/* The study run @d holds shard p->shard: as this very run (1), as another (-1), not (0). */
static int held(sqlite3 *h, const struct merge_place *p, int64_t d)
{
	char key[64], start[128], host[256], rstart[128] = "", rhost[256] = "";
	int ret;

	snprintf(key, sizeof(key), "merge.shard.%d.started_at", p->shard);
	ret = fact(h, "dst", d, key, start, sizeof(start));
	if (ret <= 0)
		return ret;
	snprintf(key, sizeof(key), "merge.shard.%d.host", p->shard);
	if (fact(h, "dst", d, key, host, sizeof(host)) < 0 ||
	    query(h, "SELECT started_at FROM main.run WHERE id = ?1", p->old, 0, 0, rstart,
		  sizeof(rstart)) < 0 ||
	    query(h, "SELECT coalesce(hostname, '') FROM main.run WHERE id = ?1", p->old, 0, 0,
		  rhost, sizeof(rhost)) < 0)
		return -EIO;
	return !strcmp(start, rstart) && !strcmp(host, rhost) ? 1 : -1;
}

/* A shard: fold it into its study's run if the output has one that fits. */
static int place_shard(sqlite3 *h, struct merge_place *p, const char *path)
{
	char id[32], why[512] = "";
	int64_t d;
	int ret;

	ret = query(h, sql_study, p->old, p->nshards, 1, id, sizeof(id));
	if (ret < 0)
		return ret;
	if (!ret) {
		if (query(h, sql_study, p->old, p->nshards, 0, id, sizeof(id)) == 1 &&
		    query(h, sql_differ, p->old, strtoll(id, NULL, 10), 0, why, sizeof(why)) >= 0)
			pr_warn("merge: %s: shard %d/%d does not join run %s: a fact differs: "
				"%s (kept as a run of its own)", path, p->shard, p->nshards, id,
				why);
		return 0;
	}
	d = strtoll(id, NULL, 10);
	ret = held(h, p, d);
	if (ret < 0 && ret != -1)
		return ret;
	if (ret == -1) {
		pr_warn("merge: %s: run %s already holds another run of shard %d/%d (duplicate "
			"shard): this one is kept as a run of its own", path, id, p->shard,
			p->nshards);
		p->nshards = 0;   /* not a study of its own either */
		return 0;
	}
	p->new = d;
	p->kind = ret ? MERGE_SAME_SHARD : MERGE_FOLD;
	return 0;
}

/**
 * merge_run_place() - decide where input run @old goes (struct merge_place)
 * and record it in temp.run_map (old, new, kind). A new run gets the id
 * @old + @run_offset. Returns 0 or -errno with @err naming @path.
 */
int merge_run_place(sqlite3 *h, int64_t old, int64_t run_offset, struct merge_place *p,
		    const char *path, char *err, size_t errlen)
{
	sqlite3_stmt *st;
	char id[32];
	int ret, rc;

	memset(p, 0, sizeof(*p));
	p->old = old;
	p->new = old + run_offset;
	p->kind = MERGE_NEW;
	shard_of(h, p);
	ret = p->nshards ? place_shard(h, p, path) : 0;
	if (!ret && p->kind == MERGE_NEW)
		ret = query(h, sql_same, old, 0, 0, id, sizeof(id));
	if (ret == 1) {
		p->new = strtoll(id, NULL, 10);
		p->kind = MERGE_SAME;
		p->nshards = 0;
		ret = 0;
	}
	if (ret < 0)
		return fail(h, path, "placing a run", err, errlen);
	if (sqlite3_prepare_v2(h, "INSERT INTO temp.run_map (old, new, kind) VALUES (?1, ?2, ?3)",
			       -1, &st, NULL) != SQLITE_OK)
		return fail(h, path, "placing a run", err, errlen);
	sqlite3_bind_int64(st, 1, p->old);
	sqlite3_bind_int64(st, 2, p->new);
	sqlite3_bind_int(st, 3, p->kind);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : fail(h, path, "placing a run", err, errlen);
}

/* Set fact @key (printf) of output run @run to @value. */
static int set_fact(sqlite3 *h, int64_t run, const char *value, const char *fmt, int i)
{
	char key[96];
	sqlite3_stmt *st;
	int rc;

	snprintf(key, sizeof(key), fmt, i);
	if (sqlite3_prepare_v2(h, "INSERT OR REPLACE INTO dst.environment (run_id, key, value, "
			       "source) VALUES (?1, ?2, ?3, 'cvmbench merge')", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, key, -1, SQLITE_TRANSIENT);
	sqlite3_bind_text(st, 3, value, -1, SQLITE_TRANSIENT);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The input run's column @col (SQL expression over r) as text. */
static int run_col(sqlite3 *h, int64_t old, const char *col, char *out, size_t len)
{
	char *sql = sqlite3_mprintf("SELECT %s FROM main.run AS r WHERE r.id = ?1", col);
	int ret;

	if (!sql)
		return -ENOMEM;
	ret = query(h, sql, old, 0, 0, out, len);
	sqlite3_free(sql);
	return ret < 0 ? ret : 0;
}

/* Append @first-@last to merge.shard.I.cell_ids of the study run p->new (any length). */
static int cell_ids_add(sqlite3 *h, const struct merge_place *p, int64_t first, int64_t last)
{
	static const char sql[] =
		"INSERT INTO dst.environment (run_id, key, value, source) VALUES (?1, ?2, ?3, "
		"'cvmbench merge') ON CONFLICT (run_id, key) DO UPDATE SET value = "
		"value || ',' || excluded.value";
	char key[64], *range;
	sqlite3_stmt *st;
	int rc;

	if (last < first)
		return 0;
	snprintf(key, sizeof(key), "merge.shard.%d.cell_ids", p->shard);
	range = sqlite3_mprintf("%lld-%lld", (long long)first, (long long)last);
	if (!range)
		return -ENOMEM;
	rc = sqlite3_prepare_v2(h, sql, -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, p->new);
		sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, range, -1, sqlite3_free);
		rc = sqlite3_step(st);
		sqlite3_finalize(st);
	} else {
		sqlite3_free(range);
	}
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The merge.shard.I.* facts of shard p->shard in the study run p->new. */
static int shard_facts(sqlite3 *h, const struct merge_place *p, const char *path,
		       int64_t first, int64_t last)
{
	char v[4096], old[32];
	int i = p->shard, ret;

	snprintf(old, sizeof(old), "%lld", (long long)p->old);
	ret = cell_ids_add(h, p, first, last) ?:
	      set_fact(h, p->new, path, "merge.shard.%d.source_file", i) ?:
	      set_fact(h, p->new, old, "merge.shard.%d.source_run", i);
	if (!ret && !(ret = run_col(h, p->old, "coalesce(r.hostname, '')", v, sizeof(v))))
		ret = set_fact(h, p->new, v, "merge.shard.%d.host", i);
	if (!ret && !(ret = run_col(h, p->old, "r.started_at", v, sizeof(v))))
		ret = set_fact(h, p->new, v, "merge.shard.%d.started_at", i);
	if (!ret && !(ret = run_col(h, p->old, "r.status", v, sizeof(v))))
		ret = set_fact(h, p->new, v, "merge.shard.%d.status", i);
	if (!ret && !(ret = run_col(h, p->old, "r.cells_total || ' ' || r.cells_ok || ' ' || "
				    "r.cells_skipped || ' ' || r.cells_failed", v, sizeof(v))))
		ret = set_fact(h, p->new, v, "merge.shard.%d.cells", i);
	return ret;
}

/* The sum over the shards the study run holds. */
struct study {
	long total, ok, skipped, failed;
	int held, running, interrupted, failed_runs, complete, skipped_runs;
	char list[1024];
};

static const char *study_status(const struct study *s, int nshards)
{
	if (s->running)
		return "running";
	if (s->interrupted)
		return "interrupted";
	if (s->failed_runs)
		return "failed";
	if (s->held < nshards)
		return s->ok ? "partial" : "skipped";
	if (s->complete == s->held)
		return "complete";
	if (s->skipped_runs == s->held)
		return "skipped";
	return "partial";
}

static void study_add(struct study *s, int i, const char *status, const char *cells)
{
	long t = 0, o = 0, sk = 0, f = 0;

	sscanf(cells, "%ld %ld %ld %ld", &t, &o, &sk, &f);
	s->total += t;
	s->ok += o;
	s->skipped += sk;
	s->failed += f;
	s->held++;
	s->running += !strcmp(status, "running");
	s->interrupted += !strcmp(status, "interrupted");
	s->failed_runs += !strcmp(status, "failed");
	s->complete += !strcmp(status, "complete");
	s->skipped_runs += !strcmp(status, "skipped");
	snprintf(s->list + strlen(s->list), sizeof(s->list) - strlen(s->list), "%s%d",
		 s->list[0] ? "," : "", i);
}

/* The study run's status, counts, run.shard and merge.shards from its shards' facts. */
static int study_update(sqlite3 *h, int64_t run, int nshards)
{
	struct study s = { 0 };
	char status[64], cells[128], key[64], v[1200];
	sqlite3_stmt *st;
	int i, rc;

	for (i = 1; i <= nshards; i++) {
		snprintf(key, sizeof(key), "merge.shard.%d.status", i);
		rc = fact(h, "dst", run, key, status, sizeof(status));
		snprintf(key, sizeof(key), "merge.shard.%d.cells", i);
		if (rc < 0 || (rc && fact(h, "dst", run, key, cells, sizeof(cells)) < 0))
			return -EIO;
		if (rc)
			study_add(&s, i, status, cells);
	}
	if (sqlite3_prepare_v2(h, "UPDATE dst.run SET status = ?2, cells_total = ?3, cells_ok = "
			       "?4, cells_skipped = ?5, cells_failed = ?6 WHERE id = ?1", -1, &st,
			       NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, run);
	sqlite3_bind_text(st, 2, study_status(&s, nshards), -1, SQLITE_STATIC);
	sqlite3_bind_int64(st, 3, s.total);
	sqlite3_bind_int64(st, 4, s.ok);
	sqlite3_bind_int64(st, 5, s.skipped);
	sqlite3_bind_int64(st, 6, s.failed);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	snprintf(v, sizeof(v), "%s/%d", s.list, nshards);
	rc = set_fact(h, run, v, "run.shard", 0);
	snprintf(v, sizeof(v), "%s of %d", s.list, nshards);
	return rc ?: set_fact(h, run, v, "merge.shards", 0);
}

/* A run merged again: its status, end and counts are the input's now. */
static const char sql_same_update[] =
	"UPDATE dst.run SET (status, ended_at, cells_total, cells_ok, cells_skipped, "
	"cells_failed) = (SELECT status, ended_at, cells_total, cells_ok, cells_skipped, "
	"cells_failed FROM main.run WHERE id = ?1) WHERE id = ?2";
/* The facts a run merged again gained since (a guest image, a tracefs it mounted). */
static const char sql_gained[] =
	"INSERT OR IGNORE INTO dst.environment (run_id, key, value, source) SELECT ?2, key, "
	"value, source FROM main.environment WHERE run_id = ?1 AND key NOT GLOB 'merge.*'";
/* A shard's guest images: facts of its cells, now cells of the study's run. */
static const char sql_images[] =
	"INSERT OR IGNORE INTO dst.environment (run_id, key, value, source) SELECT ?2, key, "
	"value, source FROM main.environment WHERE run_id = ?1 AND key GLOB 'guest.image.*'";
/* The study ends when its last shard ends. */
static const char sql_ended[] =
	"UPDATE dst.run SET ended_at = (SELECT ended_at FROM main.run WHERE id = ?1) WHERE "
	"id = ?2 AND (SELECT ended_at FROM main.run WHERE id = ?1) > coalesce(ended_at, '')";

/* Run @sql with ?1 = the input run, ?2 = its output run. */
static int run_exec(sqlite3 *h, const struct merge_place *p, const char *sql)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, p->old);
	sqlite3_bind_int64(st, 2, p->new);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/**
 * merge_run_finish() - after the rows of input run p->old were copied
 * (output cell ids @first_cell..@last_cell): a run merged again takes the
 * input's status and counts; a shard records its facts in the study run
 * and the study's status and counts are recomputed over its shards.
 * Returns 0 or -EIO with @err naming @path.
 */
int merge_run_finish(sqlite3 *h, const struct merge_place *p, const char *path,
		     int64_t first_cell, int64_t last_cell, char *err, size_t errlen)
{
	char n[16];
	int ret = 0;

	if (p->kind == MERGE_SAME)
		ret = run_exec(h, p, sql_same_update) ?: run_exec(h, p, sql_gained);
	else if (p->nshards) {
		snprintf(n, sizeof(n), "%d", p->nshards);
		ret = (p->kind == MERGE_NEW ? 0 : run_exec(h, p, sql_images) ?:
		       run_exec(h, p, sql_ended)) ?:
		      shard_facts(h, p, path, first_cell, last_cell) ?:
		      set_fact(h, p->new, n, "merge.shards.of", 0) ?:
		      study_update(h, p->new, p->nshards);
	}
	return ret ? fail(h, path, "recording the run", err, errlen) : 0;
}

/**
 * merge_studies_warn() - name, for each study run of the output @h (a
 * merged database at @out) that lacks shards, the shards it lacks.
 * Returns the number of such runs, or -EIO.
 */
int merge_studies_warn(sqlite3 *h, const char *out)
{
	static const char sql[] =
		"SELECT e.run_id, CAST(e.value AS INTEGER), (SELECT value FROM environment "
		"WHERE run_id = e.run_id AND key = 'merge.shards') FROM environment AS e "
		"WHERE e.key = 'merge.shards.of' ORDER BY e.run_id";
	char key[64], v[64];
	sqlite3_stmt *st;
	int n = 0, i, of;
	int64_t run;

	if (sqlite3_prepare_v2(h, sql, -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	while (sqlite3_step(st) == SQLITE_ROW) {
		char missing[1024] = "";

		run = sqlite3_column_int64(st, 0);
		of = sqlite3_column_int(st, 1);
		for (i = 1; i <= of && strlen(missing) < sizeof(missing) - 16; i++) {
			snprintf(key, sizeof(key), "merge.shard.%d.status", i);
			if (fact(h, "main", run, key, v, sizeof(v)) == 0)
				snprintf(missing + strlen(missing), sizeof(missing) - strlen(missing),
					 "%s%d/%d", missing[0] ? ", " : "", i, of);
		}
		if (missing[0]) {
			pr_warn("merge: %s: run %lld holds shards %s; missing: %s (the run is "
				"partial until they are merged)", out, (long long)run,
				sqlite3_column_text(st, 2), missing);
			n++;
		}
	}
	sqlite3_finalize(st);
	return n;
}
