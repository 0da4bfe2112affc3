// SPDX-License-Identifier: MIT
/*
 * cmd-report.c - `cvmbench report DIR [--db F] [--run ID]`: draw every
 * figure of the registry that the run has data for (DIR/NAME.png and
 * DIR/NAME.svg), then write DIR/index.md and DIR/index.html (report.c):
 * a summary, the contents, the figures with their captions (and why any
 * was not drawn), the cells and tables, flags, skips and errors, then the
 * runs, the configuration and the environment.
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
#include "report.h"
#include "report-source.h"
#include "report-summary.h"
#include "summary.h"

enum { OPT_DB, OPT_RUN };

static const struct opt report_opts[] = {
	{ "db", 1, "FILE", "results database (default " ANALYSIS_DEFAULT_DB ")", OPT_DB },
	{ "run", 1, "ID", "run to report (default: the latest)", OPT_RUN },
	OPT_END
};

static const char synopsis[] = "report DIR [--db FILE] [--run ID]";

struct report_args {
	const char *db, *run, *dir;
};

static int report_opt(void *ctx, int id, const char *arg)
{
	struct report_args *a = ctx;

	if (id == OPT_DB)
		a->db = arg;
	else
		a->run = arg;
	return 0;
}

static const char *const fig_exts[] = { "png", "svg" };
static const char *const pages[] = { "index.md", "index.html" };

/* Draw @rf->fig as PNG and SVG into @dir; -errno only for real failures. */
static int draw_one(struct report_fig *rf, struct analysis *an, int64_t run_id,
		    const struct out_dir *dir)
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
		snprintf(out, sizeof(out), "%s.%s", rf->fig->name, exts[i]);
		ret = plot_render_src(rf->fig, an->h, run_id, dir, out, rf->why,
				      sizeof(rf->why), ctx);
	}
	if (!ret)
		report_source_text(an->h, ctx, rf->source, sizeof(rf->source));
	free(ctx);
	rf->drawn = !ret;
	if (ret == -ENODATA) {
		pr_info("%s: not drawn: %s", rf->fig->name, rf->why);
		return 0;
	}
	if (ret) {
		/* name the file as the page does: relative to DIR */
		rf->failed = 1;
		memcpy(msg, rf->why, sizeof(msg));
		snprintf(rf->why, sizeof(rf->why), "%s.%s: %.700s", rf->fig->name,
			 exts[i - 1], msg);
		pr_err("%s: %s", rf->fig->name, rf->why);
	}
	return ret;
}

/* Every figure of the registry; *@n of them in *@out. 0 or -errno. */
static int draw_all(struct analysis *an, int64_t run_id, const struct out_dir *dir,
		    struct report_fig **out, size_t *n)
{
	const struct figure *fig;
	int ret = 0;

	for (*n = 0; figure_at(*n); (*n)++)
		;
	*out = calloc(*n ? *n : 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (size_t i = 0; (fig = figure_at(i)); i++) {
		(*out)[i].fig = fig;
		if (run_id < 0) {
			snprintf((*out)[i].why, sizeof((*out)[i].why),
				 "the database holds no run");
			continue;
		}
		if (draw_one(&(*out)[i], an, run_id, dir))
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
static int check_names(const struct out_dir *dir)
{
	char name[NAME_MAX + 1];
	const struct figure *fig;
	size_t i, k;
	int ret = 0;

	for (i = 0; !ret && i < 2; i++)
		ret = out_file_check(dir, pages[i]);
	for (i = 0; !ret && (fig = figure_at(i)); i++)
		for (k = 0; !ret && k < 2; k++) {
			snprintf(name, sizeof(name), "%s.%s", fig->name, fig_exts[k]);
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

static int report(struct analysis *an, const struct report_args *a, int64_t run_id)
{
	struct report_fig *figs = NULL;
	struct out_dir dir;
	int drawn, written;
	cJSON *top;
	size_t n = 0;

	drawn = out_dir_open(&dir, a->dir, 1) ?: check_names(&dir);
	if (drawn) {
		out_dir_close(&dir);
		return drawn == -EPERM ? EXIT_USAGE : EXIT_FAILED;
	}
	drawn = draw_all(an, run_id, &dir, &figs, &n);
	top = summary_build(an->db, run_id);
	if (top && run_id >= 0 && cJSON_IsObject(cJSON_GetObjectItem(top, "run"))) {
		cJSON *run = cJSON_GetObjectItem(top, "run");

		cJSON_AddItemToObject(run, "tables", idle_tables_json(an->h, run_id));
		cJSON_AddItemToObject(run, "experiments", report_summary_json(an->h, run_id, run));
	}
	written = top ? write_pages(&dir, top, figs, n) : -EIO;
	out_dir_close(&dir);
	cJSON_Delete(top);
	free(figs);
	if (drawn || written)
		return EXIT_FAILED;
	return run_id < 0 ? EXIT_SKIPPED : EXIT_OK;
}

/**
 * cmd_report() - `cvmbench report DIR [--db F] [--run ID]`, see the top
 * of this file for what it writes and its exit status.
 */
int cmd_report(int argc, char **argv)
{
	struct report_args args = { .db = ANALYSIS_DEFAULT_DB };
	struct analysis an;
	int64_t run_id = -1;
	int ret;

	ret = parse(argc, argv, &args);
	if (ret >= 0)
		return ret;
	ret = analysis_open(&an, args.db);
	if (ret)
		return ret;
	if (analysis_run_pick(&an, args.run, &run_id) == -EINVAL) {
		analysis_close(&an);
		return EXIT_USAGE;
	}
	if (run_id < 0)
		pr_warn("%s holds no run: the report says so", args.db);
	return analysis_finish(&an, report(&an, &args, run_id));
}
