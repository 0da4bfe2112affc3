// SPDX-License-Identifier: MIT
/*
 * cmd-show.c - `cvmbench show`: the runs of a results database, then the
 * cells of one run (latest by default) with their latency summary, its
 * skips with their reasons and its errors. --json prints the same tree
 * (analysis/summary.c) as JSON. Runs with VMs (backend = qemu) add their
 * boot phases (vm-boots.c): a table, or the run's "boots" array.
 * --table NAME prints one study table instead: show_views maps each name
 * to its function.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "command.h"
#include "compare.h"
#include "exitcode.h"
#include "idle-tables.h"
#include "log.h"
#include "opts.h"
#include "show-cells.h"
#include "summary.h"
#include "vm-boots.h"
#include "plan-table.h"
#include "vmexit-table.h"

enum { OPT_DB, OPT_RUN, OPT_JSON, OPT_TABLE };

static const struct opt show_opts[] = {
	{ "db", 1, "FILE", "results database (default " ANALYSIS_DEFAULT_DB ")", OPT_DB },
	{ "run", 1, "ID|all", "run to detail (default: the latest; all: every run)",
	  OPT_RUN },
	{ "json", 0, NULL, "print JSON instead of tables", OPT_JSON },
	{ "table", 1, "NAME", "print one study table instead: idle-policy, exitcost, "
	  "memory, overhead (compare, every run), "
	  "vmexit (VM exits by reason, both sources), plan (the newest capacity plan)",
	  OPT_TABLE },
	OPT_END
};

struct show_args {
	const char *db, *run, *table;
	int json;
};

static int show_opt(void *ctx, int id, const char *arg)
{
	struct show_args *a = ctx;

	if (id == OPT_DB)
		a->db = arg;
	else if (id == OPT_RUN)
		a->run = arg;
	else if (id == OPT_TABLE)
		a->table = arg;
	else
		a->json = 1;
	return 0;
}

static const char *jstr(const cJSON *o, const char *name)
{
	return summary_str(o, name, "-");
}

static double jnum(const cJSON *o, const char *name)
{
	return summary_num(o, name);
}

static void print_runs(const cJSON *runs)
{
	const cJSON *r;

	printf("runs:\n  %4s  %-28s %-11s %-16s %5s %5s %5s\n", "ID", "STARTED",
	       "STATUS", "VERSION", "OK", "SKIP", "FAIL");
	cJSON_ArrayForEach(r, runs)
		printf("  %4.0f  %-28s %-11s %-16s %5.0f %5.0f %5.0f\n",
		       jnum(r, "id"), jstr(r, "started_at"), jstr(r, "status"),
		       jstr(r, "version"), jnum(r, "cells_ok"),
		       jnum(r, "cells_skipped"), jnum(r, "cells_failed"));
}

/* The cell a skip or an error belongs to, or "run" for run-wide ones. */
static const char *cell_of(const cJSON *o)
{
	const cJSON *v = cJSON_GetObjectItem(o, "cell_key");

	return cJSON_IsString(v) ? v->valuestring : "run";
}

/* Fidelity flags (v_flag): a measured number that disagrees with a check. */
static void print_flags(const cJSON *run)
{
	const cJSON *s, *flags = cJSON_GetObjectItem(run, "flags");

	printf("flags: %d\n", cJSON_GetArraySize(flags));
	cJSON_ArrayForEach(s, flags)
		printf("  %s probe %s %s: %s\n", cell_of(s), jstr(s, "probe"), jstr(s, "name"),
		       jstr(s, "meaning"));
}

static void print_skips_errors(const cJSON *run)
{
	const cJSON *s, *skips = cJSON_GetObjectItem(run, "skips");
	const cJSON *errors = cJSON_GetObjectItem(run, "errors");

	printf("skips: %d\n", cJSON_GetArraySize(skips));
	cJSON_ArrayForEach(s, skips)
		printf("  %s%s%s: %s\n", cell_of(s),
		       cJSON_IsString(cJSON_GetObjectItem(s, "probe")) ? " probe " : "",
		       cJSON_IsString(cJSON_GetObjectItem(s, "probe")) ?
		       jstr(s, "probe") : "", jstr(s, "reason"));
	print_flags(run);
	printf("errors: %d\n", cJSON_GetArraySize(errors));
	cJSON_ArrayForEach(s, errors)
		printf("  %s at %s (%s): %s\n", cell_of(s), jstr(s, "at"),
		       jstr(s, "source"), jstr(s, "message"));
}

static void add_boots_json(cJSON *top, struct sqlite3 *h, int64_t run_id);

/* What the run's status and vantage mean, once under its line. */
static void print_run_legend(const cJSON *run)
{
	static const char *const status[][2] = {
		{ "complete", "every cell measured with every probe" },
		{ "partial", "cells measured, but some cells or probes skipped (why: skips)" },
		{ "skipped", "nothing measured: every cell skipped (why: skips)" },
		{ "failed", "some cells failed (errors)" },
		{ "interrupted", "stopped by a signal, or killed and recovered" },
		{ "running", "still measuring (or killed and not yet recovered)" },
	};
	const char *st = jstr(run, "status"), *v = jstr(run, "vantage"), *m = "?";
	size_t i;

	for (i = 0; i < sizeof(status) / sizeof(status[0]); i++)
		if (!strcmp(st, status[i][0]))
			m = status[i][1];
	printf("  (%s: %s; %s: %s)\n", st, m, v, !strcmp(v, "guest") ?
	       "cvmbench ran inside the machine under test (a VM or cloud instance)" :
	       !strcmp(v, "host") ? "cvmbench ran on the host of the VMs it measured" :
	       "where cvmbench ran");
}

/* One run: its line, its cells (show-cells.c), skips, flags, errors, boots. */
static void print_run(struct sqlite3 *h, const cJSON *run, int64_t run_id)
{
	printf("\nrun %.0f (%s, %s): %s\n", jnum(run, "id"), jstr(run, "status_text"),
	       jstr(run, "vantage"), jstr(run, "command_line"));
	print_run_legend(run);
	show_cells_print(h, run_id, run, stdout);
	print_skips_errors(run);
	vm_boots_print(h, run_id);
}

static void print_text(struct sqlite3 *h, const cJSON *top, const char *db, int64_t run_id)
{
	if (!cJSON_GetArraySize(cJSON_GetObjectItem(top, "runs"))) {
		printf("no runs in %s\n", db);
		return;
	}
	print_runs(cJSON_GetObjectItem(top, "runs"));
	if (run_id >= 0)
		print_run(h, cJSON_GetObjectItem(top, "run"), run_id);
}

/* `--run all`: every run in turn, after the list of runs. */
static int show_all(struct analysis *an, const char *db, int json)
{
	cJSON *top = summary_build(an->db, -1), *all = cJSON_CreateArray(), *one;
	const cJSON *r;
	int64_t id;

	if (!top || !all)
		goto err;
	if (!json && analysis_json_term(top))
		goto err;
	if (!json)
		print_text(an->h, top, db, -1);
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(top, "runs")) {
		id = summary_id(r, "id");
		one = summary_build(an->db, id);
		if (one && !json && analysis_json_term(one)) {
			cJSON_Delete(one);
			one = NULL;
		}
		if (!one)
			goto err;
		if (!json)
			print_run(an->h, cJSON_GetObjectItem(one, "run"), id);
		add_boots_json(one, an->h, id);
		cJSON_AddItemToArray(all, cJSON_DetachItemFromObject(one, "run"));
		cJSON_Delete(one);
	}
	if (json) {
		cJSON_AddItemToObject(top, "all_runs", all);
		all = NULL;
		analysis_json_out(stdout, top);
	}
	cJSON_Delete(all);
	cJSON_Delete(top);
	return fflush(stdout) ? EXIT_FAILED : EXIT_OK;
err:
	cJSON_Delete(all);
	cJSON_Delete(top);
	return EXIT_FAILED;
}

/* The run's VM boots as "boots" of its object (an empty array: none). */
static void add_boots_json(cJSON *top, struct sqlite3 *h, int64_t run_id)
{
	cJSON *run = cJSON_GetObjectItem(top, "run");
	cJSON *boots = run_id >= 0 ? vm_boots_json(h, run_id) : NULL;

	if (run && boots)
		cJSON_AddItemToObject(run, "boots", boots);
	else
		cJSON_Delete(boots);
}

/* The runs and cells of one run (no --table), or with --run all of every run. */
static int show_runs(struct analysis *an, const struct show_args *a, int64_t run_id)
{
	cJSON *top;

	if (a->run && !strcmp(a->run, "all"))
		return show_all(an, a->db, a->json);
	top = summary_build(an->db, run_id);
	if (!top)
		return EXIT_FAILED;
	if (a->json) {
		add_boots_json(top, an->h, run_id);
		analysis_json_out(stdout, top);
	} else if (!analysis_json_term(top)) {
		print_text(an->h, top, a->db, run_id);
	}
	cJSON_Delete(top);
	return fflush(stdout) ? EXIT_FAILED : EXIT_OK;
}

/* --table overhead: compare's pairs over the whole database. */
static int show_overhead(struct analysis *an, const struct show_args *a, int64_t run_id)
{
	(void)run_id;
	return compare_show_table(an->h, a->db, a->json);
}

/* --table vmexit: the run's VM exits by reason (vmexit-table.c). */
static int show_vmexit(struct analysis *an, const struct show_args *a, int64_t run_id)
{
	int ret;

	if (run_id < 0) {
		pr_warn("show: no run in %s: no vmexit rows", a->db);
		return EXIT_SKIPPED;
	}
	ret = vmexit_table_show(an->h, run_id, a->json, stdout);
	return ret == -ENODATA ? EXIT_SKIPPED : ret ? EXIT_FAILED : EXIT_OK;
}

/* idle-tables.c's tables; it also refuses an unknown name (exit 2). */
static int show_study(struct analysis *an, const struct show_args *a, int64_t run_id)
{
	int ret;

	if (run_id < 0) {
		pr_warn("show: skipped table %s: %s holds no run", a->table, a->db);
		return EXIT_SKIPPED;
	}
	ret = idle_table_show(an->h, run_id, a->table, a->json, stdout);
	return ret == -ENOENT ? EXIT_USAGE : ret ? EXIT_SKIPPED : EXIT_OK;
}

/* --table plan: the newest capacity plan (plan-table.c). */
static int show_plan(struct analysis *an, const struct show_args *a, int64_t run_id)
{
	int ret = plan_table_show(an->h, a->json, stdout);

	(void)run_id;
	if (ret == -ENODATA)
		pr_warn("show: no plan in %s: run cvmbench plan --config (docs/capacity.md)", a->db);
	return ret == -ENODATA ? EXIT_SKIPPED : ret ? EXIT_FAILED : EXIT_OK;
}

/* What show prints, by --table: a function each, run_id -1 for no run. */
struct show_view {
	const char *table;	/* --table NAME; NULL: no --table */
	int (*show)(struct analysis *an, const struct show_args *a, int64_t run_id);
	int every_run;		/* reads every run: --run all allowed */
};

static const struct show_view show_views[] = {
	{ NULL,          show_runs,     1 },
	{ "overhead",    show_overhead, 1 },
	{ "vmexit",      show_vmexit,   0 },
	{ "idle-policy", show_study,    0 },
	{ "exitcost",    show_study,    0 },
	{ "memory",      show_study,    0 },
	{ "plan",        show_plan,     1 },
};

/* Any other name: idle-tables.c refuses it, naming its tables (exit 2). */
static const struct show_view show_unknown = { NULL, show_study, 0 };

static const struct show_view *show_view_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(show_views) / sizeof(show_views[0]); i++)
		if (name ? show_views[i].table && !strcmp(name, show_views[i].table) :
		    !show_views[i].table)
			return &show_views[i];
	return &show_unknown;
}

/**
 * cmd_show() - `cvmbench show [--db F] [--run ID|all] [--json] [--table
 * NAME]`. Returns EXIT_OK, EXIT_SKIPPED (a table without rows), EXIT_USAGE
 * (bad options, database, run id or table) or EXIT_FAILED.
 */
int cmd_show(int argc, char **argv)
{
	struct show_args args = { .db = ANALYSIS_DEFAULT_DB };
	const struct show_view *v;
	struct analysis an;
	int64_t run_id = -1;
	int first, ret, all;

	ret = opts_parse(argc, argv, "show [--db FILE] [--run ID|all] [--json] [--table NAME]",
			 show_opts, show_opt, &args, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first < argc) {
		pr_err("show: unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}
	ret = analysis_open(&an, args.db);
	if (ret)
		return ret;
	v = show_view_find(args.table);
	all = args.run && !strcmp(args.run, "all");
	ret = EXIT_USAGE;
	if (all && !v->every_run) {
		/* the tables are one run's (overhead: the database's): no union over runs */
		pr_err("show: --run all with --table %s is not supported: give a run id "
		       "(`cvmbench show --run all` lists them)", args.table);
		goto close;
	}
	if (!all && analysis_run_pick(&an, args.run, &run_id) == -EINVAL)
		goto close;
	ret = v->show(&an, &args, run_id);
close:
	return analysis_finish(&an, ret);
}
