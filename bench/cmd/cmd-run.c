// SPDX-License-Identifier: MIT
/*
 * cmd-run.c - `cvmbench run CONFIG [--db F] [--only CELL]... [--resume]
 * [--shard I/N [--balance DB]]` (which run and which cells: run-plan.c,
 * shard-split.c).
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "command.h"
#include "config.h"
#include "exitcode.h"
#include "opts.h"
#include "paths.h"
#include "runner.h"

#define MAX_ONLY 256

enum { RUN_DB, RUN_ONLY, RUN_DATA_DIR, RUN_CVMFN, RUN_DRY_RUN, RUN_MAX_CELLS, RUN_DIGEST,
       RUN_WAIT_LOCK, RUN_RESUME, RUN_SHARD, RUN_VERBOSE, RUN_BALANCE };

static const struct opt run_opts[] = {
	{ "db", 1, "FILE", "results database (default results.db)", RUN_DB },
	{ "only", 1, "CELL", "run only this cell (repeatable; keys from --dry-run), into the "
	  "latest run of this config that holds it, else a new run", RUN_ONLY },
	{ "resume", 0, NULL, "continue the latest run of this config (and shard) in the "
	  "database: cells ok are kept, the others run again", RUN_RESUME },
	{ "shard", 1, "I/N", "run only the cells whose index is I-1 modulo N (I from 1 to N)",
	  RUN_SHARD },
	{ "balance", 1, "DB", "with --shard: split the cells into shards of equal expected "
	  "time instead, by their wall time in the latest earlier runs of this config in DB "
	  "(unknown: the median; longest first to the least-loaded shard)", RUN_BALANCE },
	{ "data-dir", 1, "DIR", "model and data files (default $" DATA_DIR_ENV " or "
	  DEFAULT_DATA_DIR ")", RUN_DATA_DIR },
	{ "cvmfn", 1, "PATH", "the cvmfn binary (default: next to cvmbench)", RUN_CVMFN },
	{ "digest", 1, "every|first|N", "which calls' outputs are hashed (default every; "
	  "the hash is never inside the timed window)", RUN_DIGEST },
	{ "dry-run", 0, NULL, "print each cell's key and the settings that vary between "
	  "the cells; measure nothing", RUN_DRY_RUN },
	{ "verbose", 0, NULL, "with --dry-run: every key of every cell", RUN_VERBOSE },
	{ "max-cells", 1, "N", "refuse a config of more than N cells (default "
	  CONFIG_MAX_CELLS_STR ")", RUN_MAX_CELLS },
	{ "wait-lock", 1, "SECONDS", "wait this long for another run's host-settings lock "
	  "(default 0: refuse at once)", RUN_WAIT_LOCK },
	OPT_END
};

struct run_args {
	struct runner_opts o;
	const char *only[MAX_ONLY];
};

/* 0 when @arg is a digest policy cvmfn takes: every, first or N >= 1. */
static int digest_policy_check(const char *arg)
{
	char *end;
	long n;

	if (!strcmp(arg, "every") || !strcmp(arg, "first"))
		return 0;
	errno = 0;
	n = strtol(arg, &end, 10);
	if (*arg >= '1' && *arg <= '9' && !*end && !errno && n >= 1 && n <= INT_MAX)
		return 0;
	fprintf(stderr, "cvmbench run: --digest '%s': expected every, first or a "
		"number >= 1\n", arg);
	return 1;
}

/* --shard I/N: decimal 1 <= I <= N <= 100000, the whole string. */
static int shard_parse(const char *arg, int *i, int *n)
{
	unsigned long a, b;
	char *end;

	if (*arg >= '0' && *arg <= '9') {
		errno = 0;
		a = strtoul(arg, &end, 10);
		if (*end == '/' && end[1] >= '0' && end[1] <= '9') {
			b = strtoul(end + 1, &end, 10);
			if (!*end && !errno && a >= 1 && b >= 1 && a <= b && b <= 100000) {
				*i = (int)a;
				*n = (int)b;
				return 0;
			}
		}
	}
	fprintf(stderr, "cvmbench run: --shard '%s': expected I/N with 1 <= I <= N "
		"(I is 1-based; N at most 100000), e.g. 2/3\n", arg);
	return 1;
}

static int on_run_opt(void *ctx, int id, const char *arg)
{
	struct run_args *a = ctx;

	switch (id) {
	case RUN_DB: a->o.db_path = arg; break;
	case RUN_DATA_DIR: a->o.data_dir = arg; break;
	case RUN_CVMFN: a->o.cvmfn = arg; break;
	case RUN_DRY_RUN: a->o.dry_run = 1; break;
	case RUN_VERBOSE: a->o.verbose = 1; break;
	case RUN_DIGEST: return digest_policy_check(arg) ? 1 : (a->o.digest = arg, 0);
	case RUN_MAX_CELLS: return opts_count("run", "max-cells", arg, &a->o.max_cells);
	case RUN_WAIT_LOCK: return opts_seconds("run", "--wait-lock", arg, &a->o.wait_lock);
	case RUN_RESUME: a->o.resume = 1; break;
	case RUN_SHARD: return shard_parse(arg, &a->o.shard_i, &a->o.shard_n);
	case RUN_BALANCE: a->o.balance_db = arg; break;
	default:
		if (a->o.nonly == MAX_ONLY) {
			fprintf(stderr, "cvmbench run: too many --only\n");
			return 1;
		}
		a->only[a->o.nonly++] = arg;
	}
	return 0;
}

static char *join_args(int argc, char **argv)
{
	size_t len = 16;
	char *s;
	int i;

	for (i = 0; i < argc; i++)
		len += strlen(argv[i]) + 1;
	s = calloc(1, len);
	if (!s)
		return NULL;
	strcpy(s, "cvmbench");
	for (i = 0; i < argc; i++) {
		strcat(s, " ");
		strcat(s, argv[i]);
	}
	return s;
}

int cmd_run(int argc, char **argv)
{
	static const char synopsis[] = "run CONFIG [options]";
	struct run_args a = { 0 };
	char cvmfn[PATH_MAX];
	int first, ret;

	a.o.db_path = "results.db";
	a.o.data_dir = default_data_dir();
	/* as typed: getopt reorders argv */
	a.o.command_line = join_args(argc, argv);
	ret = opts_parse(argc, argv, synopsis, run_opts, on_run_opt, &a, &first);
	if (!ret && argc - first != 1) {
		fprintf(stderr, "cvmbench run: needs exactly one CONFIG file\n");
		opts_usage(stderr, synopsis, run_opts);
		ret = 2;
	}
	if (!ret && a.o.balance_db && !a.o.shard_n) {
		fprintf(stderr, "cvmbench run: --balance %s needs --shard I/N (it says how to "
			"split the cells into shards)\n", a.o.balance_db);
		ret = 2;
	}
	if (ret) {
		free((char *)a.o.command_line);
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	}
	a.o.config_path = argv[first];
	a.o.only = a.only;
	if (!a.o.cvmfn) {
		find_cvmfn(cvmfn, sizeof(cvmfn));
		a.o.cvmfn = cvmfn;
	}
	ret = runner_run(&a.o);
	free((char *)a.o.command_line);
	return ret;
}
