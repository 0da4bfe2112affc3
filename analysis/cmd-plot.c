// SPDX-License-Identifier: MIT
/*
 * cmd-plot.c - `cvmbench plot FIGURE --db F --out X.png|X.svg [--run ID]`:
 * draw one figure of the registry (figures.c) with gnuplot. --list names
 * the figures. Exit 3 when the run has nothing to draw for the figure; 2
 * when --out, or its directory, is a symlink or not a regular file
 * (out-file.h); an existing --out is replaced only by a complete figure.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "command.h"
#include "exitcode.h"
#include "figures.h"
#include "log.h"
#include "opts.h"
#include "out-file.h"
#include "plot.h"

enum { OPT_DB, OPT_OUT, OPT_RUN, OPT_LIST, OPT_ONLY };

static const struct opt plot_opts[] = {
	{ "db", 1, "FILE", "results database (default " ANALYSIS_DEFAULT_DB ")", OPT_DB },
	{ "out", 1, "FILE", "the figure to write: .png or .svg", OPT_OUT },
	{ "run", 1, "ID", "run to draw (default: the latest)", OPT_RUN },
	{ "list", 0, NULL, "list the figures and exit", OPT_LIST },
	{ "only", 1, "CELLKEY", "the cell a one-cell figure draws (vmexit-reasons; "
	  "default: the first cell with data)", OPT_ONLY },
	OPT_END
};

static const char synopsis[] =
	"plot FIGURE --out FILE.png|FILE.svg [--db FILE] [--run ID] [--only CELLKEY] | "
	"plot --list";

struct plot_args {
	const char *db, *out, *run;
	const char *only;
	int list;
};

static int plot_opt(void *ctx, int id, const char *arg)
{
	struct plot_args *a = ctx;

	switch (id) {
	case OPT_DB: a->db = arg; break;
	case OPT_OUT: a->out = arg; break;
	case OPT_RUN: a->run = arg; break;
	case OPT_ONLY: a->only = arg; break;
	default: a->list = 1; break;
	}
	return 0;
}

static void list_figures(void)
{
	const struct figure *f;
	size_t i;

	for (i = 0; (f = figure_at(i)); i++)
		printf("%-16s %s\n", f->name, f->description);
}

/* The figure named on the command line; NULL after saying what is wrong. */
static const struct figure *pick_figure(int first, int argc, char **argv,
					const struct plot_args *a)
{
	const struct figure *fig;

	if (first != argc - 1 || !a->out) {
		pr_err("plot: give one FIGURE and --out (see `cvmbench plot --list`)");
		opts_usage(stderr, synopsis, plot_opts);
		return NULL;
	}
	fig = figure_find(argv[first]);
	if (!fig)
		pr_err("plot: no figure '%s' (see `cvmbench plot --list`)", argv[first]);
	return fig;
}

static int render(const struct figure *fig, struct analysis *an,
		  const struct plot_args *a)
{
	char why[512] = "";
	struct out_dir dir;
	const char *name;
	int64_t run_id;
	int ret;

	ret = analysis_run_pick(an, a->run, &run_id);
	if (ret == -ENOENT) {
		pr_warn("%s: no run in %s: nothing to draw", fig->name, a->db);
		return EXIT_SKIPPED;
	}
	if (ret)
		return EXIT_USAGE;
	ret = out_dir_of(&dir, a->out, &name);
	if (ret)
		return ret == -EPERM ? EXIT_USAGE : EXIT_FAILED;
	ret = plot_render_only(fig, an->h, run_id, a->only, &dir, name, why, sizeof(why));
	out_dir_close(&dir);
	if (ret == -EPERM)
		return EXIT_USAGE;        /* refused, named (out-file.h) */
	if (ret == -ENODATA) {
		pr_warn("%s: nothing to draw: %s", fig->name, why);
		return EXIT_SKIPPED;
	}
	if (ret) {
		pr_err("%s: %s", fig->name, why);
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	pr_info("wrote %s", a->out);
	return EXIT_OK;
}

/**
 * cmd_plot() - `cvmbench plot`, see synopsis. Returns EXIT_OK, EXIT_USAGE,
 * EXIT_FAILED (gnuplot missing or failing) or EXIT_SKIPPED (no data).
 */
int cmd_plot(int argc, char **argv)
{
	struct plot_args args = { .db = ANALYSIS_DEFAULT_DB };
	const struct figure *fig;
	struct analysis an;
	int first, ret;

	ret = opts_parse(argc, argv, synopsis, plot_opts, plot_opt, &args, &first);
	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (args.list) {
		list_figures();
		return EXIT_OK;
	}
	fig = pick_figure(first, argc, argv, &args);
	if (!fig)
		return EXIT_USAGE;
	ret = analysis_open(&an, args.db);
	if (ret)
		return ret;
	return analysis_finish(&an, render(fig, &an, &args));
}
