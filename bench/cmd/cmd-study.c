// SPDX-License-Identifier: MIT
/*
 * cmd-study.c - `cvmbench study [NAME] [--db F] [--out DIR]`: run each
 * config of the study NAME (configs/study/NAME.list, study-list.c; default
 * full) into one database, then write one report across the study's runs
 * (`report DIR --run ID...`: every figure that has data, every skip with
 * its reason). Resumable: a config whose run in the database is finished
 * is kept, an unfinished one is continued with --resume, a new one started
 * (study-runs.c); so a study killed at any point is completed by running
 * the same command again, and a finished study measures nothing twice.
 * Configs run in-process (runner_run()), the report too (cmd_report()).
 *
 * Exit status: 130 when interrupted (the runs so far are kept, no report),
 * 2 for a usage error, a bad list or config, or a run refused (the study
 * stops there); else the worst of the runs and the report: 1 failed, 3
 * finished with skips, 0.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "config.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "paths.h"
#include "runner.h"
#include "study-list.h"
#include "study-runs.h"

enum { ST_DB, ST_OUT, ST_LIST, ST_NO_REPORT, ST_DATA_DIR, ST_CVMFN, ST_WAIT_LOCK };

static const struct opt study_opts[] = {
	{ "db", 1, "FILE", "the study's database (default results.db)", ST_DB },
	{ "out", 1, "DIR", "the report's folder (default report)", ST_OUT },
	{ "list", 0, NULL, "print each config of the study and what the database holds of it "
	  "(done, resume, new); run nothing", ST_LIST },
	{ "no-report", 0, NULL, "run the configs, write no report", ST_NO_REPORT },
	{ "data-dir", 1, "DIR", "model and data files (default $" DATA_DIR_ENV " or "
	  DEFAULT_DATA_DIR ")", ST_DATA_DIR },
	{ "cvmfn", 1, "PATH", "the cvmfn binary (default: next to cvmbench)", ST_CVMFN },
	{ "wait-lock", 1, "SECONDS", "wait this long for another run's host-settings lock "
	  "(default 0: refuse at once)", ST_WAIT_LOCK },
	OPT_END
};

static const char synopsis[] = "study [NAME|FILE.list] [--db FILE] [--out DIR] [options]";

struct study_args {
	const char *db, *out, *data_dir, *cvmfn;
	double wait_lock;
	int list, no_report;
	struct study study;
	int64_t runs[STUDY_MAX_CONFIGS];     /* each config's run, for the report */
	size_t nruns;
};

static int on_study_opt(void *ctx, int id, const char *arg)
{
	struct study_args *a = ctx;

	switch (id) {
	case ST_DB: a->db = arg; break;
	case ST_OUT: a->out = arg; break;
	case ST_LIST: a->list = 1; break;
	case ST_NO_REPORT: a->no_report = 1; break;
	case ST_DATA_DIR: a->data_dir = arg; break;
	case ST_CVMFN: a->cvmfn = arg; break;
	default: return opts_seconds("study", "--wait-lock", arg, &a->wait_lock);
	}
	return 0;
}

/* The worse of two exit codes: interrupted, usage, failed, skipped, ok. */
static int worse(int a, int b)
{
	static const int order[] = { EXIT_INTERRUPTED, EXIT_USAGE, EXIT_FAILED, EXIT_SKIPPED };
	size_t i;

	for (i = 0; i < sizeof(order) / sizeof(order[0]); i++)
		if (a == order[i] || b == order[i])
			return order[i];
	return a ? a : b;
}

/* The exit code of a run kept for its status. */
static int status_exit(const char *status)
{
	return !strcmp(status, "complete") ? EXIT_OK : EXIT_SKIPPED;
}

/* Run @config (new or --resume, as @r says) in-process; its exit code. */
static int config_run(const struct study_args *a, const char *config, const struct study_run *r)
{
	struct runner_opts o = { 0 };
	char cmd[PATH_MAX * 2 + 64];

	snprintf(cmd, sizeof(cmd), "cvmbench run %s --db %s%s (cvmbench study %s)", config, a->db,
		 r->state == STUDY_RESUME ? " --resume" : "", a->study.path);
	o.config_path = config;
	o.db_path = a->db;
	o.data_dir = a->data_dir;
	o.cvmfn = a->cvmfn;
	o.command_line = cmd;
	o.wait_lock = a->wait_lock;
	o.resume = r->state == STUDY_RESUME;
	return runner_run(&o);
}

/* What the database holds of @config (its text read from the file); 0 or EXIT_USAGE. */
static int config_state(const struct study_args *a, const char *config, struct study_run *r)
{
	struct config *cfg;
	char err[1024];
	int ret = config_load(config, &cfg, err, sizeof(err));

	if (ret) {
		pr_err("study %s: %s", a->study.path, err);
		return EXIT_USAGE;
	}
	ret = study_run_find(a->db, cfg->text, r);
	config_free(cfg);
	return ret ? EXIT_USAGE : EXIT_OK;
}

/* Config @i of the study: kept, continued or run; its run noted for the report. */
static int study_one(struct study_args *a, size_t i)
{
	const char *config = a->study.configs[i];
	struct study_run r, after;
	int ret = config_state(a, config, &r);

	if (ret)
		return ret;
	if (r.state == STUDY_DONE) {
		pr_info("study [%zu/%zu] %s: run %lld is %s: kept, nothing measured again", i + 1,
			a->study.n, config, (long long)r.run_id, r.status);
		ret = status_exit(r.status);
	} else {
		pr_info("study [%zu/%zu] %s: %s", i + 1, a->study.n, config,
			r.state == STUDY_RESUME ? "continuing its unfinished run" : "a new run");
		ret = config_run(a, config, &r);
	}
	if (ret != EXIT_INTERRUPTED && ret != EXIT_USAGE && !config_state(a, config, &after) &&
	    after.run_id)
		a->runs[a->nruns++] = after.run_id;
	return ret;
}

/* `study --list`: each config and what the database holds of it. */
static int study_list(const struct study_args *a)
{
	struct study_run r;
	size_t i;

	for (i = 0; i < a->study.n; i++) {
		if (config_state(a, a->study.configs[i], &r))
			return EXIT_USAGE;
		if (r.run_id)
			printf("%-6s run %lld (%s)\t%s\n", study_state_name(r.state),
			       (long long)r.run_id, r.status, a->study.configs[i]);
		else
			printf("%-6s\t%s\n", study_state_name(r.state), a->study.configs[i]);
	}
	return EXIT_OK;
}

/* `report OUT --db DB --run ID...` of the study's runs, in-process. */
static int study_report(const struct study_args *a)
{
	char ids[STUDY_MAX_CONFIGS][24];
	char *argv[4 + 2 * STUDY_MAX_CONFIGS + 1];
	int argc = 0;
	size_t i;

	argv[argc++] = "report";
	argv[argc++] = (char *)a->out;
	argv[argc++] = "--db";
	argv[argc++] = (char *)a->db;
	for (i = 0; i < a->nruns; i++) {
		snprintf(ids[i], sizeof(ids[i]), "%lld", (long long)a->runs[i]);
		argv[argc++] = "--run";
		argv[argc++] = ids[i];
	}
	argv[argc] = NULL;
	pr_info("study %s: the report of %zu run%s into %s/index.html", a->study.path, a->nruns,
		a->nruns == 1 ? "" : "s", a->out);
	return cmd_report(argc, argv);
}

static int study_all(struct study_args *a)
{
	struct study_run r;
	int ret = EXIT_OK, one;
	size_t i;

	/* every config loads before anything is measured */
	for (i = 0; i < a->study.n; i++)
		if (config_state(a, a->study.configs[i], &r))
			return EXIT_USAGE;
	for (i = 0; i < a->study.n; i++) {
		one = study_one(a, i);
		ret = worse(ret, one);
		if (one == EXIT_INTERRUPTED || one == EXIT_USAGE) {
			pr_err("study %s stopped at %s: run the same command again to go on",
			       a->study.path, a->study.configs[i]);
			return ret;
		}
	}
	if (a->no_report || !a->nruns)
		return ret;
	return worse(ret, study_report(a));
}

/**
 * cmd_study() - `cvmbench study [NAME] [--db F] [--out DIR] ...`, see the
 * top of this file.
 */
int cmd_study(int argc, char **argv)
{
	struct study_args *a = calloc(1, sizeof(*a));
	char list[PATH_MAX], err[PATH_MAX + 256], cvmfn[PATH_MAX];
	int first, ret;

	if (!a)
		return EXIT_FAILED;
	a->db = "results.db";
	a->out = "report";
	a->data_dir = default_data_dir();
	ret = opts_parse(argc, argv, synopsis, study_opts, on_study_opt, a, &first);
	if (!ret && argc - first > 1) {
		pr_err("study: give at most one study NAME or list file");
		ret = 2;
	}
	if (!ret && study_find(first < argc ? argv[first] : "full", list, sizeof(list)))
		ret = 2;
	if (!ret && study_load(list, &a->study, err, sizeof(err))) {
		pr_err("%s", err);
		ret = 2;
	}
	if (ret) {
		free(a);
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	}
	if (!a->cvmfn) {
		find_cvmfn(cvmfn, sizeof(cvmfn));
		a->cvmfn = cvmfn;
	}
	ret = a->list ? study_list(a) : study_all(a);
	study_free(&a->study);
	free(a);
	return ret;
}
