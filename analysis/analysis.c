// SPDX-License-Identifier: MIT
/*
 * analysis.c - open the results database read-only for the analysis
 * commands, add the TEMP views of analysis/views.sql, pick the run to look
 * at, convert rows to cJSON objects keyed by column name, and make such a
 * tree safe to print: as JSON (valid UTF-8) or on a terminal (text-safe.h).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "paths.h"
#include "db.h"
#include "exitcode.h"
#include "log.h"
#include "text-safe.h"

/* The whole of @path, NUL-terminated, or NULL (errno set). */
static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0, n;

	if (!f)
		return NULL;
	for (;;) {
		char *nb = realloc(buf, len + 4097);

		if (!nb) {
			free(buf);
			buf = NULL;
			break;
		}
		buf = nb;
		n = fread(buf + len, 1, 4096, f);
		len += n;
		buf[len] = '\0';
		if (n < 4096)
			break;
	}
	fclose(f);
	return buf;
}

static int load_views(struct sqlite3 *h)
{
	char path[4096], *sql, *msg = NULL;
	int rc;

	if (datadir_path("analysis/views.sql", path, sizeof(path)))
		return -ENOENT;
	sql = slurp(path);
	if (!sql) {
		pr_err("%s: %s", path, strerror(errno));
		return -errno;
	}
	rc = sqlite3_exec(h, sql, NULL, NULL, &msg);
	free(sql);
	if (rc != SQLITE_OK) {
		pr_err("%s: %s (is the database from this version of cvmbench?)",
		       path, msg ? msg : sqlite3_errstr(rc));
		sqlite3_free(msg);
		return -EINVAL;
	}
	return 0;
}

/*
 * The file each open handle reads: a database of an older schema is read
 * through a copy in memory (bench/store/db-read-upgrade.c), whose handle
 * has no file name for an error to give.
 */
static struct { struct sqlite3 *h; char path[512]; } opened[16];

static void opened_set(struct sqlite3 *h, const char *path, struct sqlite3 *match)
{
	size_t i;

	for (i = 0; i < sizeof(opened) / sizeof(opened[0]); i++)
		if (opened[i].h == match) {
			opened[i].h = h;
			snprintf(opened[i].path, sizeof(opened[i].path), "%s", path ? path : "");
			return;
		}
}

static const char *opened_path(struct sqlite3 *h)
{
	size_t i;

	for (i = 0; h && i < sizeof(opened) / sizeof(opened[0]); i++)
		if (opened[i].h == h)
			return opened[i].path;
	return NULL;
}

/**
 * analysis_open() - open the results database @path read-only and create
 * the analysis views on it. Returns EXIT_OK, EXIT_USAGE when the database
 * cannot be opened or EXIT_FAILED when analysis/views.sql is missing or
 * does not apply (each reported); @a is left closed on failure.
 */
int analysis_open(struct analysis *a, const char *path)
{
	char err[512] = "";
	int ret;

	memset(a, 0, sizeof(*a));
	ret = db_open(&a->db, path, DB_READONLY, err, sizeof(err));
	if (ret) {
		pr_err("%s", err[0] ? err : strerror(-ret));
		return EXIT_USAGE;
	}
	a->h = db_sqlite(a->db);
	opened_set(a->h, path, NULL);
	if (load_views(a->h)) {
		analysis_close(a);
		return EXIT_FAILED;
	}
	return EXIT_OK;
}

/**
 * analysis_close() - close what analysis_open() opened; safe to call twice.
 */
void analysis_close(struct analysis *a)
{
	if (a->h)
		opened_set(NULL, NULL, a->h);
	if (a->db)
		db_close(a->db);
	a->db = NULL;
	a->h = NULL;
}

static int64_t single_id(struct sqlite3 *h, const char *sql, int64_t arg)
{
	struct sqlite3_stmt *st;
	int64_t id = -1;

	if (analysis_prepare(h, sql, arg, &st))
		return -1;
	if (analysis_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL)
		id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return id;
}

/**
 * analysis_run_pick() - the run to look at: @arg (a run id) or, when @arg
 * is NULL, the latest run. Returns 0; -EINVAL for an id that is not a
 * number or not in the database (reported); -ENOENT when the database
 * holds no run at all (not reported: the caller says what that means).
 */
int analysis_run_pick(struct analysis *a, const char *arg, int64_t *run_id)
{
	char *end;
	long long v;

	if (!arg) {
		*run_id = single_id(a->h, "SELECT max(id) FROM run", 0);
		return *run_id < 0 ? -ENOENT : 0;
	}
	errno = 0;
	v = strtoll(arg, &end, 10);
	if (errno || end == arg || *end || v < 0) {
		pr_err("--run: '%s' is not a run id", arg);
		return -EINVAL;
	}
	*run_id = single_id(a->h, "SELECT id FROM run WHERE id = ?1", v);
	if (*run_id < 0) {
		pr_err("no run %lld in this database (see `cvmbench show`)", v);
		return -EINVAL;
	}
	return 0;
}

/* Query errors reported since the program started (analysis_query_failed()). */
static unsigned int query_errors;

/**
 * analysis_error_in() - report that a query of @fn on @h failed, with the
 * database's file name and SQLite's message, and remember it: the command
 * then does not report success (analysis_finish()). Call it as
 * analysis_error().
 */
void analysis_error_in(const char *fn, struct sqlite3 *h)
{
	const char *file = opened_path(h);

	if (!file || !*file)
		file = sqlite3_db_filename(h, "main");

	query_errors++;
	pr_err("%s: query failed (%s): %s", file && *file ? file : "database", fn,
	       sqlite3_errmsg(h));
}

/**
 * analysis_step_in() - sqlite3_step() of @st, reporting an error (not a
 * row, not the end) as analysis_error_in() does. Call it as analysis_step().
 */
int analysis_step_in(const char *fn, struct sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		analysis_error_in(fn, sqlite3_db_handle(st));
	return rc;
}

/**
 * analysis_query_failed() - how many queries failed so far (each reported):
 * compare two values to tell whether something in between failed.
 */
unsigned int analysis_query_failed(void)
{
	return query_errors;
}

/**
 * analysis_finish() - close @a and give the exit status of a command whose
 * work returned @ret: EXIT_FAILED instead of EXIT_OK or EXIT_SKIPPED when a
 * query failed on the way (its output would be incomplete), said once.
 */
int analysis_finish(struct analysis *a, int ret)
{
	analysis_close(a);
	if (!query_errors || (ret != EXIT_OK && ret != EXIT_SKIPPED))
		return ret;
	pr_err("%u quer%s failed (above): the output is incomplete", query_errors,
	       query_errors == 1 ? "y" : "ies");
	return EXIT_FAILED;
}

/**
 * analysis_prepare_in() - prepare @sql and bind @id to ?1 if it has one
 * (the run for most queries, a cell for some; 0 when the caller binds in
 * a loop). Call it as analysis_prepare(), which passes the caller's name
 * as @fn for the message. Returns 0 or -EINVAL, reported with the file,
 * @fn and SQLite's message (analysis_error_in()).
 */
int analysis_prepare_in(const char *fn, struct sqlite3 *h, const char *sql, int64_t id,
			struct sqlite3_stmt **st)
{
	if (sqlite3_prepare_v2(h, sql, -1, st, NULL) != SQLITE_OK) {
		analysis_error_in(fn, h);
		return -EINVAL;
	}
	if (sqlite3_bind_parameter_count(*st) >= 1)
		sqlite3_bind_int64(*st, 1, id);
	return 0;
}

/** analysis_table_present() - whether the database on @h has table @name. */
int analysis_table_present(struct sqlite3 *h, const char *name)
{
	sqlite3_stmt *st;
	int yes;

	if (analysis_prepare(h, "SELECT 1 FROM sqlite_master WHERE type = 'table' AND "
			     "name = ?1", 0, &st))
		return 0;
	sqlite3_bind_text(st, 1, name, -1, SQLITE_STATIC);
	yes = analysis_step(st) == SQLITE_ROW;
	sqlite3_finalize(st);
	return yes;
}

/**
 * analysis_row_json() - the current row of @st as an object: integers and
 * reals as numbers, text as strings, NULL as null. NULL on no memory.
 */
struct cJSON *analysis_row_json(struct sqlite3_stmt *st)
{
	cJSON *o = cJSON_CreateObject();
	int i, n = sqlite3_column_count(st);

	for (i = 0; o && i < n; i++) {
		const char *name = sqlite3_column_name(st, i);

		switch (sqlite3_column_type(st, i)) {
		case SQLITE_INTEGER:
			cJSON_AddNumberToObject(o, name,
						(double)sqlite3_column_int64(st, i));
			break;
		case SQLITE_FLOAT:
			cJSON_AddNumberToObject(o, name, sqlite3_column_double(st, i));
			break;
		case SQLITE_NULL:
			cJSON_AddNullToObject(o, name);
			break;
		default:
			cJSON_AddStringToObject(o, name,
				(const char *)sqlite3_column_text(st, i));
		}
	}
	return o;
}

/**
 * analysis_query_json() - every row of @sql (with ?1 bound to @run_id) as
 * an array of objects. NULL on error (reported).
 */
struct cJSON *analysis_query_json(struct sqlite3 *h, const char *sql,
				  int64_t run_id)
{
	struct sqlite3_stmt *st;
	cJSON *arr;
	int rc;

	if (analysis_prepare(h, sql, run_id, &st))
		return NULL;
	arr = cJSON_CreateArray();
	while (arr && (rc = analysis_step(st)) == SQLITE_ROW)
		cJSON_AddItemToArray(arr, analysis_row_json(st));
	if (arr && rc != SQLITE_DONE) {
		cJSON_Delete(arr);
		arr = NULL;
	}
	sqlite3_finalize(st);
	return arr;
}

/**
 * analysis_json_print() - @o as JSON text, indented when @formatted, that
 * always parses: cJSON escapes control characters as \u00XX, and each byte
 * of a string that is not valid UTF-8 becomes U+FFFD (TEXT_UTF8; outside
 * its strings the text is ASCII, so this is the same as repairing each
 * string). The one JSON printer of analysis/. free() it; NULL: no memory.
 */
char *analysis_json_print(const struct cJSON *o, int formatted)
{
	char *raw = formatted ? cJSON_Print(o) : cJSON_PrintUnformatted(o), *out;

	if (!raw)
		return NULL;
	out = text_dup(raw, TEXT_UTF8, 0);
	cJSON_free(raw);
	return out;
}

/**
 * analysis_json_out() - print @o as indented JSON (analysis_json_print())
 * and a newline to @out. Returns 0 or -ENOMEM.
 */
int analysis_json_out(FILE *out, const struct cJSON *o)
{
	char *text = analysis_json_print(o, 1);

	if (!text)
		return -ENOMEM;
	fprintf(out, "%s\n", text);
	free(text);
	return 0;
}

/* *@s (allocated by cJSON's default hooks: malloc) as a terminal shows it. */
static int term_string(char **s)
{
	char *t = text_dup(*s, TEXT_TERM, 0);

	if (!t)
		return -ENOMEM;
	cJSON_free(*s);
	*s = t;
	return 0;
}

/**
 * analysis_json_term() - rewrite every string and member name of @o in
 * place as a terminal shows it (TEXT_TERM), before printing @o as text:
 * widths taken from the tree are then those printed. Returns 0 or -ENOMEM.
 */
int analysis_json_term(struct cJSON *o)
{
	cJSON *c;
	int ret = 0;

	if (cJSON_IsString(o) && o->valuestring && !(o->type & cJSON_IsReference))
		ret = term_string(&o->valuestring);
	if (!ret && o->string && !(o->type & cJSON_StringIsConst))
		ret = term_string(&o->string);
	for (c = o->child; c && !ret; c = c->next)
		ret = analysis_json_term(c);
	return ret;
}
