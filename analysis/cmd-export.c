// SPDX-License-Identifier: MIT
/*
 * cmd-export.c - `cvmbench export --csv|--json`: the cells, once each
 * with every column and the spec (view v_export_cell), the invocations,
 * each naming its cell by cell_id and cell_key (view v_export_invocation),
 * the probe metrics (view v_export_metric) and the container start phases
 * (view v_export_runc_phase), of one run or of all runs.
 *
 * CSV keeps one table per file so any CSV reader takes it as it is:
 * with --out FILE it writes FILE-cells.csv, FILE-invocations.csv,
 * FILE-metrics.csv and FILE-runc-phases.csv (a trailing ".csv" of FILE is
 * dropped first); on stdout it writes the table named by --table (default
 * invocations). JSON writes one object { "format", "version": 2, "run",
 * "cells": [...], "invocations": [...], "metrics": [...],
 * "runc-phases": [...] } to FILE or stdout, streamed row by row.
 *
 * Each file is written under a temporary name in its directory and renamed
 * into place when complete (out-file.h); a FILE, or its directory, that is
 * a symlink or not a regular file is refused (exit 2) before anything is
 * written.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "command.h"
#include "csv.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "out-file.h"

enum { OPT_CSV, OPT_JSON, OPT_DB, OPT_RUN, OPT_OUT, OPT_TABLE };

static const struct opt export_opts[] = {
	{ "csv", 0, NULL, "write CSV (one file per table)", OPT_CSV },
	{ "json", 0, NULL, "write one JSON object", OPT_JSON },
	{ "db", 1, "FILE", "results database (default " ANALYSIS_DEFAULT_DB ")", OPT_DB },
	{ "run", 1, "ID", "only this run (default: every run)", OPT_RUN },
	{ "out", 1, "FILE", "CSV: FILE-cells.csv, FILE-invocations.csv, FILE-metrics.csv "
	  "and FILE-runc-phases.csv; JSON: FILE (default: stdout)", OPT_OUT },
	{ "table", 1, "NAME", "CSV: only cells, invocations, metrics or runc-phases "
	  "(default on stdout: invocations)", OPT_TABLE },
	OPT_END
};

static const char synopsis[] =
	"export --csv|--json [--db FILE] [--run ID] [--out FILE] [--table NAME]";

struct export_table {
	const char *name, *sql;
	const char *needs;        /* a table a database may lack (before its migration) */
};

static const struct export_table tables[] = {
	{ "cells", "SELECT * FROM v_export_cell "
		   "WHERE ?1 < 0 OR run_id = ?1 ORDER BY id", NULL },
	{ "invocations", "SELECT * FROM v_export_invocation "
			 "WHERE ?1 < 0 OR run_id = ?1 ORDER BY id", NULL },
	{ "metrics", "SELECT * FROM v_export_metric "
		     "WHERE ?1 < 0 OR run_id = ?1 ORDER BY id", NULL },
	{ "runc-phases", "SELECT * FROM v_export_runc_phase "
			 "WHERE ?1 < 0 OR run_id = ?1 ORDER BY id", NULL },
	/* the capacity plans (010-plan.sql): the database's, whatever the run */
	{ "plan-targets", "SELECT * FROM plan_target WHERE ?1 = ?1 ORDER BY plan_id, rowid",
	  "plan_target" },
	{ "plan-points", "SELECT * FROM plan_point WHERE ?1 = ?1 ORDER BY plan_id, rowid",
	  "plan_point" },
};

/* Whether @t can be read from @h: a table it needs is there. */
static int table_there(struct sqlite3 *h, const struct export_table *t)
{
	return !t->needs || analysis_table_present(h, t->needs);
}

#define N_TABLES (sizeof(tables) / sizeof(tables[0]))

struct export_args {
	const char *db, *run, *out, *table;
	int csv, json;
};

static int export_opt(void *ctx, int id, const char *arg)
{
	struct export_args *a = ctx;

	switch (id) {
	case OPT_CSV: a->csv = 1; break;
	case OPT_JSON: a->json = 1; break;
	case OPT_DB: a->db = arg; break;
	case OPT_RUN: a->run = arg; break;
	case OPT_OUT: a->out = arg; break;
	default: a->table = arg; break;
	}
	return 0;
}

/* Where one table, or the JSON object, goes: stdout or a file of a directory. */
struct out {
	FILE *f;
	struct out_file o;
	const char *name;         /* NULL: stdout */
};

/* Open @name of @dir for writing, or stdout when @dir is NULL. */
static int out_open(struct out *out, const struct out_dir *dir, const char *name)
{
	int ret;

	out->name = dir ? name : NULL;
	out->f = stdout;
	if (!dir)
		return 0;
	ret = out_file_create_tmp(&out->o, dir, name);
	out->f = out->o.f;
	return ret == -EPERM ? ret : ret ? -EIO : 0;
}

/* Put the file in place when @ok, else drop it; 0 or -EIO, reported. */
static int out_close(struct out *out, int ok)
{
	int bad;

	if (out->name && !ok) {
		out_file_abort(&out->o);
		return -EIO;
	}
	if (out->name)
		return out_file_commit(&out->o) ? -EIO : 0;
	bad = ferror(stdout) | fflush(stdout);
	if (bad)
		pr_err("writing stdout failed");
	return bad || !ok ? -EIO : 0;
}

static int csv_table(struct sqlite3 *h, const struct export_table *t,
		     int64_t run_id, const struct out_dir *dir, const char *name)
{
	struct sqlite3_stmt *st;
	struct out out;
	long rows;
	int ret;

	if (analysis_prepare(h, t->sql, run_id, &st))
		return -EINVAL;
	ret = out_open(&out, dir, name);
	if (ret) {
		sqlite3_finalize(st);
		return ret;
	}
	rows = csv_write_query(out.f, st);
	if (rows < 0)
		analysis_error(h);
	sqlite3_finalize(st);
	ret = out_close(&out, rows >= 0);
	if (!ret && dir)
		pr_info("wrote %ld %s to %s/%s", rows, t->name, dir->path, name);
	return ret;
}

/* The file name of table @t: @base-NAME.csv. */
static int csv_name(char *buf, size_t len, const char *base, const struct export_table *t)
{
	if (snprintf(buf, len, "%s-%s.csv", base, t->name) < (int)len)
		return 0;
	pr_err("--out: name too long");
	return -ENAMETOOLONG;
}

/* Write the tables asked for into @dir as @base-NAME.csv, each checked first. */
static int csv_files(struct sqlite3 *h, const struct export_args *a, int64_t run_id,
		     const struct out_dir *dir, const char *base)
{
	char name[NAME_MAX + 1];
	size_t i;
	int ret = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; !ret && i < N_TABLES; i++) {
			if ((a->table && strcmp(a->table, tables[i].name)) ||
			    !table_there(h, &tables[i]))
				continue;
			ret = csv_name(name, sizeof(name), base, &tables[i]) ?:
			      (pass ? csv_table(h, &tables[i], run_id, dir, name) :
				      out_file_check(dir, name));
		}
	return ret;
}

static int export_csv(struct sqlite3 *h, const struct export_args *a,
		      int64_t run_id)
{
	char path[4096];
	struct out_dir dir;
	const char *base;
	size_t i, len;
	int ret;

	if (!a->out) {
		for (i = 0; i < N_TABLES; i++)
			if (!strcmp(tables[i].name, a->table ? a->table : "invocations"))
				return csv_table(h, &tables[i], run_id, NULL, NULL);
		return -EINVAL;
	}
	if (snprintf(path, sizeof(path), "%s", a->out) >= (int)sizeof(path)) {
		pr_err("--out: name too long");
		return -ENAMETOOLONG;
	}
	len = strlen(path);
	if (len > 4 && !strcmp(path + len - 4, ".csv"))
		path[len - 4] = '\0';
	ret = out_dir_of(&dir, path, &base);
	ret = ret ?: csv_files(h, a, run_id, &dir, base);
	out_dir_close(&dir);
	return ret;
}

/* Stream the rows of @t as a JSON array, one object per line. */
static int json_table(FILE *f, struct sqlite3 *h, const struct export_table *t,
		      int64_t run_id)
{
	struct sqlite3_stmt *st;
	const char *sep = "\n";
	char *text;
	int rc;

	if (analysis_prepare(h, t->sql, run_id, &st))
		return -EINVAL;
	fprintf(f, "\"%s\": [", t->name);
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		cJSON *o = analysis_row_json(st);

		text = o ? analysis_json_print(o, 0) : NULL;
		cJSON_Delete(o);
		if (!text)
			break;
		fprintf(f, "%s%s", sep, text);
		free(text);
		sep = ",\n";
	}
	fputs("\n]", f);
	if (rc == SQLITE_ROW)             /* an error of SQLite: analysis_step() said it */
		pr_err("exporting %s: out of memory", t->name);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

static int export_json(struct sqlite3 *h, const struct export_args *a,
		       int64_t run_id)
{
	const char *name = NULL;
	struct out_dir dir = { .fd = -1 };
	struct out out;
	size_t i;
	int ret = a->out ? out_dir_of(&dir, a->out, &name) : 0;
	FILE *f;

	ret = ret ?: out_open(&out, a->out ? &dir : NULL, name);
	if (ret) {
		out_dir_close(&dir);
		return ret;
	}
	f = out.f;
	fputs("{\"format\": \"cvmbench-export\", \"version\": 2, \"run\": ", f);
	if (run_id < 0)
		fputs("null", f);
	else
		fprintf(f, "%" PRId64, run_id);
	for (i = 0; !ret && i < N_TABLES; i++) {
		if (!table_there(h, &tables[i]))
			continue;
		fputs(",\n", f);
		ret = json_table(f, h, &tables[i], run_id);
	}
	fputs("}\n", f);
	ret = out_close(&out, !ret) ?: ret;
	out_dir_close(&dir);
	return ret;
}

static int check_args(const struct export_args *a, int first, int argc,
		      char **argv)
{
	if (first < argc) {
		pr_err("export: unexpected argument '%s'", argv[first]);
		return -EINVAL;
	}
	if (a->csv == a->json) {
		pr_err("export: give exactly one of --csv and --json");
		return -EINVAL;
	}
	if (a->table && (a->json || (strcmp(a->table, "cells") &&
				     strcmp(a->table, "invocations") &&
				     strcmp(a->table, "metrics") &&
				     strcmp(a->table, "runc-phases") &&
				     strcmp(a->table, "plan-targets") &&
				     strcmp(a->table, "plan-points")))) {
		pr_err("export: --table takes cells, invocations, metrics, runc-phases, "
		       "plan-targets or plan-points, with --csv");
		return -EINVAL;
	}
	return 0;
}

/**
 * cmd_export() - `cvmbench export --csv|--json [--db F] [--run ID]
 * [--out FILE] [--table NAME]`, see the top of this file. Returns
 * EXIT_OK, EXIT_USAGE (also for a refused --out) or EXIT_FAILED.
 */
int cmd_export(int argc, char **argv)
{
	struct export_args args = { .db = ANALYSIS_DEFAULT_DB };
	struct analysis an;
	int64_t run_id = -1;
	int first, ret;

	ret = opts_parse(argc, argv, synopsis, export_opts, export_opt, &args, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (check_args(&args, first, argc, argv)) {
		opts_usage(stderr, synopsis, export_opts);
		return EXIT_USAGE;
	}
	ret = analysis_open(&an, args.db);
	if (ret)
		return ret;
	if (args.run && analysis_run_pick(&an, args.run, &run_id)) {
		analysis_close(&an);
		return EXIT_USAGE;
	}
	ret = args.csv ? export_csv(an.h, &args, run_id) :
			 export_json(an.h, &args, run_id);
	return analysis_finish(&an, ret == -EPERM ? EXIT_USAGE :
				    ret ? EXIT_FAILED : EXIT_OK);
}
