/* SPDX-License-Identifier: MIT */
/*
 * analysis.h - what the analysis commands (show, export, plot, report)
 * share: a read-only database with the TEMP views of analysis/views.sql,
 * picking a run, turning result rows into JSON, and printing such a tree
 * safely (JSON that parses; text a terminal cannot act on).
 */
#ifndef CVMBENCH_ANALYSIS_H
#define CVMBENCH_ANALYSIS_H

#include <stdint.h>
#include <stdio.h>

struct db;
struct sqlite3;
struct sqlite3_stmt;
struct cJSON;

#define ANALYSIS_DEFAULT_DB "results.db"

struct analysis {
	struct db *db;
	struct sqlite3 *h;
};

int analysis_open(struct analysis *a, const char *path);
void analysis_close(struct analysis *a);
int analysis_run_pick(struct analysis *a, const char *arg, int64_t *run_id);
int analysis_finish(struct analysis *a, int ret);
void analysis_error_in(const char *fn, struct sqlite3 *h);
/* Report a failed query on @h: analysis.c's kernel-doc. */
#define analysis_error(h) analysis_error_in(__func__, h)
int analysis_step_in(const char *fn, struct sqlite3_stmt *st);
/* sqlite3_step() that reports an error: analysis.c's kernel-doc. */
#define analysis_step(st) analysis_step_in(__func__, st)
unsigned int analysis_query_failed(void);
int analysis_prepare_in(const char *fn, struct sqlite3 *h, const char *sql, int64_t id,
			struct sqlite3_stmt **st);
/* The one way to prepare a query in analysis/: analysis.c's kernel-doc. */
#define analysis_prepare(h, sql, id, st) analysis_prepare_in(__func__, h, sql, id, st)
int analysis_table_present(struct sqlite3 *h, const char *name);
struct cJSON *analysis_row_json(struct sqlite3_stmt *st);
struct cJSON *analysis_query_json(struct sqlite3 *h, const char *sql,
				  int64_t run_id);
char *analysis_json_print(const struct cJSON *o, int formatted);
int analysis_json_out(FILE *out, const struct cJSON *o);
int analysis_json_term(struct cJSON *o);

#endif
