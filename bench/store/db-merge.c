// SPDX-License-Identifier: MIT
/*
 * db-merge.c - merge one cvmbench database into another. The input is
 * opened read-only (db_open checks it is cvmbench's and not newer),
 * copied into memory with SQLite's backup API and migrated there, so an
 * older schema merges like a current one and the input is never written.
 * The output is attached to that copy and every table is copied in the
 * order of its foreign keys: a table's integer primary key and every
 * column referring to one are shifted by the output's largest id of that
 * table, so links are kept and no id collides. The tables and their links
 * are read from the OUTPUT's schema (this build's: PRAGMA table_info,
 * foreign_key_list), never from the input's, which comes from another
 * machine: an input whose tables or columns differ is refused
 * (db-merge-schema.c). A table a later migration adds is merged without a
 * change here, provided its foreign keys lead to a run. The input's runs
 * are merged one by one (db-merge-runs.c says where each goes: a new run,
 * the same run resumed since, a shard joining its study's run); run ids
 * are mapped through temp.run_map, and of a run the output holds, only the
 * cell rows it does not hold are copied (temp.new_cells). Identifiers are
 * quoted with %w, values bound, and every statement runs alone
 * (prepare/step, never sqlite3_exec), so no name can add a statement.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "db.h"
#include "db-check.h"
#include "db-local.h"
#include "db-merge.h"
#include "db-merge-schema.h"
#include "db-merge-runs.h"

#define MAX_TABLES 64

struct mtable {
	char name[64];
	char pk[64];              /* its INTEGER PRIMARY KEY column, or "" */
	long long offset;         /* added to its pk and to references to it */
	long long dst_max;        /* the largest id the output held before this run */
	char *filter;             /* SQL: its rows to copy of the run placed (sqlite3_free) */
	int done;
};

struct merge {
	sqlite3 *h;               /* the input's copy; the output is "dst" */
	struct mtable t[MAX_TABLES];
	int n;
	char *err;
	size_t errlen;
	const char *path;
};

static int sql_fail(struct merge *m, const char *what)
{
	snprintf(m->err, m->errlen, "%s: %s: %s", m->path, what, sqlite3_errmsg(m->h));
	return -EIO;
}

/* Run the one statement @sql (NULL: out of memory); a second one is refused. */
static int exec(struct merge *m, const char *sql)
{
	const char *tail = NULL;
	sqlite3_stmt *st;
	int rc;

	if (!sql)
		return -ENOMEM;
	if (sqlite3_prepare_v2(m->h, sql, -1, &st, &tail) != SQLITE_OK)
		return sql_fail(m, sql);
	if (!st || (tail && tail[strspn(tail, " \t\n")])) {
		sqlite3_finalize(st);
		snprintf(m->err, m->errlen, "%s: not one SQL statement: %s", m->path, sql);
		return -EINVAL;
	}
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		;
	if (rc != SQLITE_DONE)
		rc = sql_fail(m, sql);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : rc;
}

/* The first column of the first row of @sql as an integer (0 when NULL). */
static long long scalar(struct merge *m, const char *sql)
{
	sqlite3_stmt *st;
	long long v = 0;

	if (sqlite3_prepare_v2(m->h, sql, -1, &st, NULL) != SQLITE_OK)
		return -1;
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return v;
}

static struct mtable *table(struct merge *m, const char *name)
{
	int i;

	for (i = 0; i < m->n; i++)
		if (!strcmp(m->t[i].name, name))
			return &m->t[i];
	return NULL;
}

/* Read the input into memory (m->h), migrated to this build's schema. */
static int copy_in(struct merge *m)
{
	struct db *in;
	int ret;

	ret = db_open(&in, m->path, DB_READONLY, m->err, m->errlen);
	if (ret)
		return ret;
	if (!*sqlite3_db_filename(in->h, "main")) {
		/* an older schema: the reader's handle is an upgraded copy already */
		m->h = in->h;
		in->h = NULL;
		sqlite3_set_authorizer(m->h, NULL, NULL);
		db_close(in);
		return 0;
	}
	ret = db_copy_to_memory(db_sqlite(in), &m->h, m->path, m->err, m->errlen);
	db_close(in);
	return ret ?: db_migrate(m->h, m->path, m->err, m->errlen);
}

/* The tables of the output (this build's schema), each with its integer primary key. */
static int list_tables(struct merge *m)
{
	sqlite3_stmt *st;
	int rc, ret = 0;

	rc = sqlite3_prepare_v2(m->h, "SELECT m.name, (SELECT p.name FROM "
				"pragma_table_info(m.name, 'dst') AS p WHERE p.pk = 1 AND "
				"upper(p.type) = 'INTEGER' AND (SELECT count(*) FROM "
				"pragma_table_info(m.name, 'dst') WHERE pk > 0) = 1) FROM "
				"dst.sqlite_master AS m WHERE m.type = 'table' AND "
				"substr(m.name, 1, 7) <> 'sqlite_' ORDER BY m.name", -1, &st, NULL);
	if (rc != SQLITE_OK)
		return sql_fail(m, "reading the output's schema");
	while (!ret && sqlite3_step(st) == SQLITE_ROW) {
		const char *name = (const char *)sqlite3_column_text(st, 0);
		const char *pk = (const char *)sqlite3_column_text(st, 1);
		struct mtable *t = &m->t[m->n];

		if (m->n == MAX_TABLES || strlen(name) >= sizeof(t->name) ||
		    (pk && strlen(pk) >= sizeof(t->pk))) {
			snprintf(m->err, m->errlen, "%s: the output's schema has more or longer "
				 "tables than merge can hold (%d)", m->path, MAX_TABLES);
			ret = -EINVAL;
			break;
		}
		snprintf(t->name, sizeof(t->name), "%s", name);
		snprintf(t->pk, sizeof(t->pk), "%s", pk ? pk : "");
		m->n++;
	}
	sqlite3_finalize(st);
	return ret;
}

/* The foreign keys of @t: "from" column, parent table, parent column. */
struct fk {
	char from[64], parent[64], to[64];
};

static int foreign_keys(struct merge *m, const struct mtable *t, struct fk *fk, int max)
{
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(m->h, "SELECT \"from\", \"table\", coalesce(\"to\", '') FROM "
			       "pragma_foreign_key_list(?1, 'dst')", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(m, "reading the foreign keys");
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (n == max) {
			sqlite3_finalize(st);
			snprintf(m->err, m->errlen, "%s: table %s has more than %d foreign keys",
				 m->path, t->name, max);
			return -EINVAL;
		}
		snprintf(fk[n].from, sizeof(fk[n].from), "%s", sqlite3_column_text(st, 0));
		snprintf(fk[n].parent, sizeof(fk[n].parent), "%s", sqlite3_column_text(st, 1));
		snprintf(fk[n].to, sizeof(fk[n].to), "%s", sqlite3_column_text(st, 2));
		n++;
	}
	sqlite3_finalize(st);
	return n;
}

/*
 * What a row hanging from a run needs besides its parents' filters. Cells:
 * not in the output yet (the same run, key and start). Other rows of a
 * run only (environment): a new run's. Rows of a run and a cell (skip,
 * error): a cell's come with their cell; a run's own with a new run or a
 * folded shard.
 */
static char *run_rows(const struct mtable *t, const struct fk *fk, int nfk, int run_fk)
{
	char *f = NULL, *nf;
	int i;

	if (!strcmp(t->name, "cell"))
		return sqlite3_mprintf("\"id\" IN (SELECT old FROM temp.new_cells)");
	if (nfk == 1)
		return sqlite3_mprintf("\"%w\" IN (SELECT old FROM temp.run_map WHERE kind = %d)",
				       fk[run_fk].from, MERGE_NEW);
	f = sqlite3_mprintf("\"%w\" IN (SELECT old FROM temp.run_map WHERE kind IN (%d, %d))",
			    fk[run_fk].from, MERGE_NEW, MERGE_FOLD);
	for (i = 0; f && i < nfk; i++) {
		if (i == run_fk)
			continue;
		nf = sqlite3_mprintf("%s OR \"%w\" IS NOT NULL", f, fk[i].from);
		sqlite3_free(f);
		f = nf;
	}
	return f;
}

/* The filter of @t from its parents' filters (NULL: a parent is not done yet). */
static char *make_filter(struct merge *m, const struct mtable *t, const struct fk *fk, int nfk)
{
	char *f = NULL, *nf, *extra;
	struct mtable *p;
	int i, run_fk = -1;

	for (i = 0; i < nfk; i++) {
		p = table(m, fk[i].parent);
		if (!p || !p->done || !p->filter) {
			sqlite3_free(f);
			return NULL;
		}
		if (!strcmp(p->name, "run"))
			run_fk = i;
		nf = sqlite3_mprintf("%s%s(\"%w\" IS NULL OR \"%w\" IN (SELECT \"%w\" FROM "
				     "main.\"%w\" WHERE %s))", f ? f : "", f ? " AND " : "",
				     fk[i].from, fk[i].from, fk[i].to[0] ? fk[i].to : p->pk,
				     p->name, p->filter);
		sqlite3_free(f);
		if (!(f = nf))
			return NULL;
	}
	if (run_fk < 0)
		return f;
	extra = run_rows(t, fk, nfk, run_fk);
	nf = extra ? sqlite3_mprintf("%s AND (%s)", f, extra) : NULL;
	sqlite3_free(f);
	sqlite3_free(extra);
	return nf;
}

/*
 * Whether a parent of the table is done but was not copied (a table not
 * linked to a run, such as plan): then neither is the table.
 */
static int child_of_uncopied(struct merge *m, const struct fk *fk, int nfk)
{
	struct mtable *p;
	int i;

	for (i = 0; i < nfk; i++) {
		p = table(m, fk[i].parent);
		if (p && p->done && !p->filter)
			return 1;
	}
	return 0;
}

/* Append ", " (but first) and column @c, quoted, shifted by @off when @shift. */
static int add_column(char **sel, char **cols, const char *c, int shift, long long off)
{
	const char *sep = *cols ? ", " : "";
	char *ns, *nc;

	/* only ids are shifted: "+ 0" would turn text into a number */
	ns = shift ? sqlite3_mprintf("%s%s\"%w\" + %lld", *sel ? *sel : "", sep, c, off) :
		     sqlite3_mprintf("%s%s\"%w\"", *sel ? *sel : "", sep, c);
	nc = sqlite3_mprintf("%s%s\"%w\"", *cols ? *cols : "", sep, c);
	sqlite3_free(*sel);
	sqlite3_free(*cols);
	*sel = ns;
	*cols = nc;
	return ns && nc ? 0 : -ENOMEM;
}

/* Append column @c, a run id, as the output's id of that run (temp.run_map). */
static int add_mapped(char **sel, char **cols, const char *c)
{
	const char *sep = *cols ? ", " : "";
	char *ns, *nc;

	ns = sqlite3_mprintf("%s%s(SELECT new FROM temp.run_map WHERE old = \"%w\")",
			     *sel ? *sel : "", sep, c);
	nc = sqlite3_mprintf("%s%s\"%w\"", *cols ? *cols : "", sep, c);
	sqlite3_free(*sel);
	sqlite3_free(*cols);
	*sel = ns;
	*cols = nc;
	return ns && nc ? 0 : -ENOMEM;
}

/* The SELECT list of @t (the output's columns): its pk and references to a parent's pk shifted. */
static char *select_list(struct merge *m, const struct mtable *t, const struct fk *fk,
			 int nfk, char **cols)
{
	char *sel = NULL;
	const struct mtable *p;
	sqlite3_stmt *st;
	long long off;
	int i, shift, mapped, ret = 0;

	*cols = NULL;
	if (sqlite3_prepare_v2(m->h, "SELECT name FROM pragma_table_info(?1, 'dst') ORDER BY cid",
			       -1, &st, NULL) != SQLITE_OK)
		return NULL;
	sqlite3_bind_text(st, 1, t->name, -1, SQLITE_STATIC);
	while (!ret && sqlite3_step(st) == SQLITE_ROW) {
		const char *c = (const char *)sqlite3_column_text(st, 0);

		shift = !strcmp(c, t->pk);
		off = t->offset;
		mapped = 0;
		for (i = 0; i < nfk; i++)
			if (!strcmp(c, fk[i].from) && (p = table(m, fk[i].parent)) && p->pk[0] &&
			    (!fk[i].to[0] || !strcmp(fk[i].to, p->pk))) {
				shift = 1;
				off = p->offset;
				mapped = !strcmp(p->name, "run");
			}
		ret = mapped ? add_mapped(&sel, cols, c) : add_column(&sel, cols, c, shift, off);
	}
	sqlite3_finalize(st);
	if (!ret && sel)
		return sel;
	sqlite3_free(sel);
	sqlite3_free(*cols);
	*cols = NULL;
	return NULL;
}

/* Copy the rows of @t that belong to a new run into dst. 1: copied, 0: not yet. */
static int copy_table(struct merge *m, struct mtable *t, long *rows)
{
	char *sel, *cols = NULL, *sql = NULL;
	struct fk fk[16];
	int nfk, ret;

	nfk = foreign_keys(m, t, fk, 16);
	if (nfk < 0)
		return nfk;
	if (!strcmp(t->name, "run")) {
		/* its rows: new runs; its children: those of every run placed */
		t->filter = sqlite3_mprintf("\"id\" IN (SELECT old FROM temp.run_map)");
		if (!t->filter)
			return -ENOMEM;
	} else if (nfk) {
		if (child_of_uncopied(m, fk, nfk))
			return 1; /* e.g. a plan's rows: derived from runs, not of one */
		t->filter = make_filter(m, t, fk, nfk);
	}
	if (!t->filter)
		return nfk ? 0 : 1;   /* a parent first; or not linked to a run: not copied */
	sel = select_list(m, t, fk, nfk, &cols);
	if (sel)
		sql = sqlite3_mprintf("INSERT INTO dst.\"%w\" (%s) SELECT %s FROM main.\"%w\" "
				      "WHERE %s%s ORDER BY rowid", t->name, cols, sel, t->name,
				      t->filter, strcmp(t->name, "run") ? "" :
				      " AND \"id\" IN (SELECT old FROM temp.run_map WHERE kind = 0)");
	ret = exec(m, sql);
	*rows += sqlite3_changes(m->h);
	sqlite3_free(sel);
	sqlite3_free(cols);
	sqlite3_free(sql);
	return ret ? ret : 1;
}

/* Copy every table, parents before children. */
static int copy_all(struct merge *m, long *rows)
{
	int i, ret, progress = 1, left = m->n;

	while (left && progress) {
		progress = 0;
		for (i = 0; i < m->n; i++) {
			if (m->t[i].done)
				continue;
			ret = copy_table(m, &m->t[i], rows);
			if (ret < 0)
				return ret;
			if (ret) {
				m->t[i].done = 1;
				progress = 1;
				left--;
			}
		}
	}
	if (left) {
		snprintf(m->err, m->errlen, "%s: tables whose foreign keys form a cycle", m->path);
		return -EINVAL;
	}
	return 0;
}

/* The integer the one-row query @sql gives in *@v: 0, or -EIO (m->err set). */
static int scalar_checked(struct merge *m, const char *sql, long long *v)
{
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(m->h, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(m, "reading the ids");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW ? 0 : sql_fail(m, "reading the ids");
}

/*
 * Every table's offset: what maps the input's smallest id to one above the
 * largest id dst holds, so that any input id (0 and negative ones too) lands
 * on a free one: offset = max(dst) - min(input) + 1. With input ids from 1
 * that is max(dst), as before.
 */
static int offsets(struct merge *m)
{
	long long dst_max, src_min;
	char *sql;
	int i, ret;

	for (i = 0; i < m->n; i++) {
		if (!m->t[i].pk[0])
			continue;
		sql = sqlite3_mprintf("SELECT coalesce(max(\"%w\"), 0) FROM dst.\"%w\"",
				      m->t[i].pk, m->t[i].name);
		ret = sql ? scalar_checked(m, sql, &dst_max) : -ENOMEM;
		sqlite3_free(sql);
		if (ret)
			return ret;
		sql = sqlite3_mprintf("SELECT coalesce(min(\"%w\"), 1) FROM main.\"%w\"",
				      m->t[i].pk, m->t[i].name);
		ret = sql ? scalar_checked(m, sql, &src_min) : -ENOMEM;
		sqlite3_free(sql);
		if (ret)
			return ret;
		m->t[i].dst_max = dst_max;
		m->t[i].offset = dst_max - src_min + 1;
	}
	return 0;
}

static const char sql_run_map[] =
	"CREATE TEMP TABLE run_map (old INTEGER PRIMARY KEY, new INTEGER NOT NULL, "
	"kind INTEGER NOT NULL)";
static const char sql_new_cells_table[] = "CREATE TEMP TABLE new_cells (old INTEGER PRIMARY KEY)";
/* the placed run's cell rows the output does not hold (the same run, key and start) */
static const char sql_new_cells[] =
	"INSERT INTO temp.new_cells SELECT c.id FROM main.cell AS c JOIN temp.run_map AS n "
	"ON n.old = c.run_id WHERE NOT EXISTS (SELECT 1 FROM dst.cell AS x WHERE x.run_id = "
	"n.new AND x.cell_key = c.cell_key AND x.started_at = c.started_at)";

/* merge.source_file, merge.source_run, merge.source_host of the new run. */
static int add_origin(struct merge *m)
{
	static const char sql[] =
		"INSERT OR IGNORE INTO dst.environment (run_id, key, value, source) "
		"SELECT n.new, k.key, CASE k.key WHEN 'merge.source_file' THEN ?1 "
		"WHEN 'merge.source_run' THEN CAST(n.old AS TEXT) "
		"ELSE coalesce(r.hostname, '') END, 'cvmbench merge' "
		"FROM temp.run_map AS n JOIN main.run AS r ON r.id = n.old, (SELECT "
		"'merge.source_file' AS key UNION ALL SELECT 'merge.source_run' UNION ALL "
		"SELECT 'merge.source_host') AS k WHERE n.kind = 0";
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(m->h, sql, -1, &st, NULL) != SQLITE_OK)
		return sql_fail(m, "recording the origin");
	sqlite3_bind_text(st, 1, m->path, -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(m, "recording the origin");
}

/*
 * A cell row the output holds still 'running' (merged while it was being
 * measured) that has ended in the input since: the output's partial copy,
 * which this merge made, is dropped with its rows (ON DELETE CASCADE) and
 * the whole row copied again, so no ended cell keeps part of its calls.
 */
static const char sql_drop_running[] =
	"DELETE FROM dst.cell WHERE status = 'running' AND id IN (SELECT x.id FROM dst.cell "
	"AS x JOIN temp.run_map AS n ON n.new = x.run_id JOIN main.cell AS c ON c.run_id = "
	"n.old AND c.cell_key = x.cell_key AND c.started_at = x.started_at WHERE c.status "
	"<> 'running')";

static int attach(struct merge *m, const char *out)
{
	char name[PATH_MAX + 8];
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_prepare_v2(m->h, "ATTACH DATABASE ?1 AS dst", -1, &st, NULL) != SQLITE_OK)
		return sql_fail(m, "attaching the output");
	/* "file:..." is a URI to SQLite's ATTACH too: the name db_open used */
	sqlite3_bind_text(st, 1, db_path_plain(out, name, sizeof(name)), -1, SQLITE_STATIC);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : sql_fail(m, "attaching the output");
}

/* Undo the open transaction, if any (its error is the one reported). */
static void rollback(struct merge *m)
{
	sqlite3_stmt *st;

	if (sqlite3_get_autocommit(m->h) ||
	    sqlite3_prepare_v2(m->h, "ROLLBACK", -1, &st, NULL) != SQLITE_OK)
		return;
	sqlite3_step(st);
	sqlite3_finalize(st);
}

/* Merge input run @old: place it, copy its rows not in the output yet, record it. */
static int merge_run(struct merge *m, long long old, struct db_merge_count *c)
{
	struct merge_place p;
	long long cells;
	int i, ret;

	for (i = 0; i < m->n; i++) {
		sqlite3_free(m->t[i].filter);
		m->t[i].filter = NULL;
		m->t[i].done = 0;
	}
	ret = exec(m, "DELETE FROM temp.run_map") ?: exec(m, "DELETE FROM temp.new_cells") ?:
	      offsets(m);
	if (ret)
		return ret;
	ret = merge_run_place(m->h, old, table(m, "run")->offset, &p, m->path, m->err,
			      m->errlen);
	cells = table(m, "cell") ? table(m, "cell")->dst_max : 0;
	ret = ret ?: exec(m, sql_drop_running) ?: exec(m, sql_new_cells) ?:
	      copy_all(m, &c->rows_added) ?: add_origin(m);
	if (ret)
		return ret;
	c->runs_added += p.kind == MERGE_NEW;
	c->runs_present += p.kind == MERGE_SAME || p.kind == MERGE_SAME_SHARD;
	c->runs_folded += p.kind == MERGE_FOLD;
	return merge_run_finish(m->h, &p, m->path, cells + 1,
				scalar(m, "SELECT coalesce(max(id), 0) FROM dst.cell"),
				m->err, m->errlen);
}

static int merge_rows(struct merge *m, struct db_merge_count *c)
{
	sqlite3_stmt *st = NULL;
	long long *ids = NULL, *n;
	size_t nids = 0, i;
	int ret;

	ret = exec(m, "PRAGMA foreign_keys = ON") ?: exec(m, "BEGIN IMMEDIATE") ?:
	      exec(m, sql_run_map) ?: exec(m, sql_new_cells_table) ?: (table(m, "run") ? 0 : -EINVAL);
	if (!ret && sqlite3_prepare_v2(m->h, "SELECT id FROM main.run ORDER BY id", -1, &st,
				       NULL) != SQLITE_OK)
		ret = sql_fail(m, "reading the runs");
	while (!ret && sqlite3_step(st) == SQLITE_ROW) {
		if (!(n = realloc(ids, (nids + 1) * sizeof(*ids)))) {
			ret = -ENOMEM;
			break;
		}
		ids = n;
		ids[nids++] = sqlite3_column_int64(st, 0);
	}
	sqlite3_finalize(st);
	for (i = 0; !ret && i < nids; i++)
		ret = merge_run(m, ids[i], c);
	free(ids);
	ret = ret ?: exec(m, "COMMIT");
	if (ret) {
		rollback(m);
		c->runs_added = c->rows_added = c->runs_present = c->runs_folded = 0;
	}
	return ret;
}

int db_merge_file(struct db *out, const char *path, struct db_merge_count *c,
		  char *err, size_t errlen)
{
	struct merge m = { .err = err, .errlen = errlen, .path = path };
	int ret, i;

	memset(c, 0, sizeof(*c));
	ret = copy_in(&m) ?: attach(&m, out->path) ?:
	      db_merge_schema_check(m.h, path, err, errlen) ?: list_tables(&m) ?:
	      merge_rows(&m, c);
	if (ret && !err[0])
		snprintf(err, errlen, "%s: %s", path, strerror(-ret));
	for (i = 0; i < m.n; i++)
		sqlite3_free(m.t[i].filter);
	sqlite3_close(m.h);
	return ret;
}
