// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `cvmbench report DIR [--db F] [--run ID|all]...`: draw every
 * figure of the registry that the run has data for (DIR/NAME.png and
 * DIR/NAME.svg), then write DIR/index.md and DIR/index.html (report.c):
 * a summary, the contents, the figures with their captions (and why any
 * was not drawn), the cells and tables, flags, skips and errors, then the
 * runs, the configuration and the environment. With several --run, or
 * --run all, the report covers those runs: each figure is drawn for each
 * run that has data for it (DIR/NAME-runID.png and .svg), and the page has
 * one summary naming each run and its config, then a section per run.
 *
 * Exit status: 0 when the pages are written (figures without data are
 * listed with the reason, not an error); 1 when gnuplot is missing or
 * fails (the figure is then also a row of the page's Errors, named by its
 * file in DIR and its script analysis/NAME.gp) or a page cannot be
 * written; 2 for usage errors and unknown runs, and when DIR, or a file
 * the report writes in it, is a symlink or not what it should be (a
 * directory, a regular file), checked before anything is written
 * (out-file.h); 3 when the database holds no run. Each file is written
 * under a temporary name in DIR and renamed into place.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "command.h"
#include "exitcode.h"
#include "figures.h"
#include "idle-tables.h"
#include "log.h"
#include "opts.h"
#include "out-file.h"
#include "plot.h"
#include "plan-table.h"
#include "report.h"
#include "report-source.h"
#include "report-summary.h"
#include "suite-data.h"
#include "summary.h"

enum { OPT_DB, OPT_RUN };

#define REPORT_MAX_RUNS 256

static const struct opt report_opts[] = {
	{ "db", 1, "FILE", "results database (default " ANALYSIS_DEFAULT_DB ")", OPT_DB },
	{ "run", 1, "ID|all", "run to report (default: the latest); repeat it, or give all, "
	  "for one report across several runs (a merged database, a study)", OPT_RUN },
	OPT_END
};

static const char synopsis[] = "report DIR [--db FILE] [--run ID|all]...";

struct report_args {
	const char *db, *dir;
	const char *run[REPORT_MAX_RUNS];
	size_t nrun;
	int all;                  /* --run all */
};

/* The runs a report covers, and whether it is a report of several. */
struct report_runs {
	int64_t id[REPORT_MAX_RUNS];
	size_t n;
	int multi;
};

static int report_opt(void *ctx, int id, const char *arg)
{
	struct report_args *a = ctx;

	if (id == OPT_DB) {
		a->db = arg;
	} else if (!strcmp(arg, "all")) {
		a->all = 1;
	} else if (a->nrun == REPORT_MAX_RUNS) {
		pr_err("report: more than %d --run; use --run all", REPORT_MAX_RUNS);
		return 2;
	} else {
		a->run[a->nrun++] = arg;
	}
	return 0;
}

static const char *const fig_exts[] = { "png", "svg" };
static const char *const pages[] = { "index.md", "index.html" };

/* Draw @rf->fig as PNG and SVG into @dir; -errno only for real failures. */
static int draw_one(struct report_fig *rf, struct analysis *an, const struct out_dir *dir)
{
	const char *const *exts = fig_exts;
	char out[NAME_MAX + 1], msg[sizeof(rf->why)];
	struct figure_ctx *ctx = malloc(sizeof(*ctx));
	size_t i;
	int ret = 0;

	if (!ctx) {
		rf->failed = 1;
		snprintf(rf->why, sizeof(rf->why), "out of memory");
		return -ENOMEM;
	}

	for (i = 0; !ret && i < 2; i++) {
		snprintf(out, sizeof(out), "%s.%s", report_fig_file(rf), exts[i]);
		ret = plot_render_src(rf->fig, an->h, rf->run_id, dir, out, rf->why,
				      sizeof(rf->why), ctx);
	}
	if (!ret)
		report_source_text(an->h, ctx, rf->source, sizeof(rf->source));
	free(ctx);
	rf->drawn = !ret;
	if (ret == -ENODATA) {
		pr_info("%s: not drawn: %s", report_fig_file(rf), rf->why);
		return 0;
	}
	if (ret) {
		/* name the file as the page does: relative to DIR */
		rf->failed = 1;
		memcpy(msg, rf->why, sizeof(msg));
		snprintf(rf->why, sizeof(rf->why), "%s.%s: %.700s", report_fig_file(rf),
			 exts[i - 1], msg);
		pr_err("%s: %s", report_fig_file(rf), rf->why);
	}
	return ret;
}

/* The file name of figure @fig of run @run_id: NAME, or NAME-runID of several runs. */
static void fig_file(char *buf, size_t len, const struct figure *fig, int64_t run_id,
		     int multi)
{
	if (multi)
		snprintf(buf, len, "%s-run%lld", fig->name, (long long)run_id);
	else
		snprintf(buf, len, "%s", fig->name);
}

/*
 * Every figure of the registry for each run of @runs (none: the reason);
 * *@n of them in *@out. 0 or -errno.
 */
static int draw_all(struct analysis *an, const struct report_runs *runs,
		    const struct out_dir *dir, struct report_fig **out, size_t *n)
{
	size_t nfig, r, i, k = 0;
	struct report_fig *rf;
	int ret = 0;

	for (nfig = 0; figure_at(nfig); nfig++)
		;
	*n = nfig * (runs->n ? runs->n : 1);
	*out = calloc(*n ? *n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (r = 0; r < (runs->n ? runs->n : 1); r++)
		for (i = 0; i < nfig; i++) {
			rf = &(*out)[k++];
			rf->fig = figure_at(i);
			rf->run_id = runs->n ? runs->id[r] : -1;
			if (!runs->n) {
				snprintf(rf->why, sizeof(rf->why), "the database holds no run");
				continue;
			}
			fig_file(rf->file, sizeof(rf->file), rf->fig, rf->run_id, runs->multi);
			if (draw_one(rf, an, dir))
				ret = -EIO;
		}
	return ret;
}

static int write_pages(const struct out_dir *dir, const cJSON *top,
		       const struct report_fig *figs, size_t n)
{
	const struct report_ops *ops[] = { &report_md_ops, &report_html_ops };
	int ret = 0;
	size_t i;

	for (i = 0; i < 2; i++) {
		if (report_write(dir, pages[i], ops[i], top, figs, n))
			ret = -EIO;
		else
			pr_info("wrote %s/%s", dir->path, pages[i]);
	}
	return ret;
}

/* Every file the report writes in @dir may be written (out_file_check()). */
static int check_names(const struct out_dir *dir, const struct report_runs *runs)
{
	char name[NAME_MAX + 1], file[NAME_MAX - 8];
	const struct figure *fig;
	size_t i, k, r;
	int ret = 0;

	for (i = 0; !ret && i < 2; i++)
		ret = out_file_check(dir, pages[i]);
	for (r = 0; !ret && r < runs->n; r++)
		for (i = 0; !ret && (fig = figure_at(i)); i++)
			for (k = 0; !ret && k < 2; k++) {
				fig_file(file, sizeof(file), fig, runs->id[r], runs->multi);
				snprintf(name, sizeof(name), "%s.%s", file, fig_exts[k]);
				ret = out_file_check(dir, name);
			}
	return ret;
}

static int parse(int argc, char **argv, struct report_args *a)
{
	int first, ret;

	ret = opts_parse(argc, argv, synopsis, report_opts, report_opt, a, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first != argc - 1) {
		pr_err("report: give one output directory");
		opts_usage(stderr, synopsis, report_opts);
		return EXIT_USAGE;
	}
	a->dir = argv[first];
	return -1;
}

/* The tables and headline numbers of @run (id @run_id), added to it. */
static void run_extras(struct analysis *an, cJSON *run, int64_t run_id)
{
	cJSON_AddItemToObject(run, "tables", idle_tables_json(an->h, run_id));
	cJSON_AddItemToObject(run, "experiments", report_summary_json(an->h, run_id, run));
}

/*
 * What the pages show: summary_build() of the first run; of several runs
 * also "chosen", each run's "run" object. NULL on an error (reported).
 */
static cJSON *report_tree(struct analysis *an, const struct report_runs *runs)
{
	cJSON *top = summary_build(an->db, runs->n ? runs->id[0] : -1), *chosen, *t, *run;
	size_t r;

	if (top && (t = plan_table_json(an->h)))
		cJSON_AddItemToObject(top, "plan", t);
	if (top && (t = suite_json(an->h)))
		cJSON_AddItemToObject(top, "suite", t);
	if (!top || !runs->n)
		return top;
	if (!runs->multi) {
		run = cJSON_GetObjectItem(top, "run");
		if (cJSON_IsObject(run))
			run_extras(an, run, runs->id[0]);
		return top;
	}
	chosen = cJSON_AddArrayToObject(top, "chosen");
	for (r = 0; chosen && r < runs->n; r++) {
		t = summary_build(an->db, runs->id[r]);
		run = t ? cJSON_DetachItemFromObject(t, "run") : NULL;
		cJSON_Delete(t);
		if (!cJSON_IsObject(run)) {
			cJSON_Delete(run);
			cJSON_Delete(top);
			return NULL;
		}
		run_extras(an, run, runs->id[r]);
		cJSON_AddItemToArray(chosen, run);
	}
	return chosen ? top : (cJSON_Delete(top), NULL);
}

static int report(struct analysis *an, const struct report_args *a,
		  const struct report_runs *runs)
{
	struct report_fig *figs = NULL;
	struct out_dir dir;
	int drawn, written;
	cJSON *top;
	size_t n = 0;

	drawn = out_dir_open(&dir, a->dir, 1) ?: check_names(&dir, runs);
	if (drawn) {
		out_dir_close(&dir);
		return drawn == -EPERM ? EXIT_USAGE : EXIT_FAILED;
	}
	drawn = draw_all(an, runs, &dir, &figs, &n);
	top = report_tree(an, runs);
	written = top ? write_pages(&dir, top, figs, n) : -EIO;
	out_dir_close(&dir);
	cJSON_Delete(top);
	free(figs);
	if (drawn || written)
		return EXIT_FAILED;
	return runs->n ? EXIT_OK : EXIT_SKIPPED;
}

/* Whether @id is among the first @n of @ids. */
static int has_run(const int64_t *ids, size_t n, int64_t id)
{
	while (n--)
		if (ids[n] == id)
			return 1;
	return 0;
}

/*
 * The runs of --run: each given (checked, once each), every run of the
 * database for all, else the latest. 0, or -EINVAL (reported).
 */
static int runs_pick(struct analysis *an, const struct report_args *a,
		     struct report_runs *runs)
{
	cJSON *all, *o;
	int64_t id;
	size_t i;

	runs->multi = a->all || a->nrun > 1;
	if (a->all) {
		all = analysis_query_json(an->h, "SELECT id FROM run ORDER BY id", 0);
		if (!all)
			return -EINVAL;
		cJSON_ArrayForEach(o, all)
			if (runs->n < REPORT_MAX_RUNS)
				runs->id[runs->n++] = (int64_t)o->child->valuedouble;
		cJSON_Delete(all);
		return 0;
	}
	for (i = 0; i < (a->nrun ? a->nrun : 1); i++) {
		int ret = analysis_run_pick(an, a->nrun ? a->run[i] : NULL, &id);

		if (ret == -EINVAL)
			return ret;
		if (!ret && !has_run(runs->id, runs->n, id))
			runs->id[runs->n++] = id;
	}
	return 0;
}

/**
 * cmd_report() - `cvmbench report DIR [--db F] [--run ID|all]...`, see the
 * top of this file for what it writes and its exit status.
 */
int cmd_report(int argc, char **argv)
{
	struct report_args args = { .db = ANALYSIS_DEFAULT_DB };
	struct report_runs runs = { .n = 0 };
	struct analysis an;
	int ret;

	ret = parse(argc, argv, &args);
	if (ret >= 0)
		return ret;
	ret = analysis_open(&an, args.db);
	if (ret)
		return ret;
	if (runs_pick(&an, &args, &runs) == -EINVAL) {
		analysis_close(&an);
		return EXIT_USAGE;
	}
	if (!runs.n)
		pr_warn("%s holds no run: the report says so", args.db);
	return analysis_finish(&an, report(&an, &args, &runs));
}
