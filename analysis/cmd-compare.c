// SPDX-License-Identifier: MIT
/*
 * cmd-compare.c - `cvmbench compare --db A [--db B ...]`: pair each cell
 * with its twin on the baseline side of the pairing dimension (default:
 * confidential, baseline none) and print, per workload and side, the
 * ratio of median latencies with its bootstrap interval and the rest
 * (compare-stats.c) as a table, --csv or --json. Pairs whose environments
 * differ in more than the pairing dimension are refused with the
 * differences, unless --allow-mismatch (then each such pair says so).
 * Exit 0 when every pair was compared; 3 when nothing could be paired or
 * some pair was refused; 2 for bad options or a file that is not a
 * cvmbench database.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "command.h"
#include "compare.h"
#include "config.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "stats-boot.h"

enum { OPT_DB, OPT_PAIR_BY, OPT_BASELINE, OPT_ALLOW, OPT_JSON, OPT_CSV, OPT_RESAMPLES,
       OPT_SEED };

static const struct opt compare_opts[] = {
	{ "db", 1, "FILE", "a results database (repeat for several; default "
	  ANALYSIS_DEFAULT_DB ")", OPT_DB },
	{ "pair-by", 1, "KEY", "the pairing dimension (default confidential; e.g. backend)",
	  OPT_PAIR_BY },
	{ "baseline", 1, "VALUE", "its value on the baseline side (default: the key's default)",
	  OPT_BASELINE },
	{ "allow-mismatch", 0, NULL, "compare pairs whose environments differ (each says so)",
	  OPT_ALLOW },
	{ "json", 0, NULL, "print JSON", OPT_JSON },
	{ "csv", 0, NULL, "print CSV, one line per pair", OPT_CSV },
	{ "resamples", 1, "N", "bootstrap resamples (default 2000)", OPT_RESAMPLES },
	{ "seed", 1, "N", "bootstrap PRNG seed (default 20261201)", OPT_SEED },
	OPT_END
};

struct compare_args {
	const char **dbs;
	size_t ndbs;
	struct cmp_opts o;
	int json, csv;
};

static int compare_opt(void *ctx, int id, const char *arg)
{
	struct compare_args *a = ctx;
	size_t v;

	switch (id) {
	case OPT_DB:
		a->dbs[a->ndbs++] = arg;
		return 0;
	case OPT_PAIR_BY:
		a->o.pair_by = arg;
		return 0;
	case OPT_BASELINE:
		a->o.baseline = arg;
		return 0;
	case OPT_ALLOW:
		a->o.allow_mismatch = 1;
		return 0;
	case OPT_JSON:
		a->json = 1;
		return 0;
	case OPT_CSV:
		a->csv = 1;
		return 0;
	}
	if (opts_count("compare", id == OPT_SEED ? "seed" : "resamples", arg, &v))
		return 2;
	if (id == OPT_RESAMPLES && v > 1000000) {
		pr_err("compare: --resamples %zu: at most 1000000", v);
		return 2;
	}
	if (id == OPT_SEED)
		a->o.seed = v;
	else
		a->o.resamples = (unsigned)v;
	return 0;
}

/* Check the options; fill in the defaults. Returns 0 or EXIT_USAGE. */
static int check_args(struct compare_args *a)
{
	const struct config_key *k = config_key_find(a->o.pair_by);

	if (!k || !strcmp(a->o.pair_by, "repeats") || !k->matrix) {
		pr_err("compare: --pair-by '%s' is not a dimension of a cell "
		       "(cvmbench list --keys)", a->o.pair_by);
		return EXIT_USAGE;
	}
	if (!a->o.baseline)
		a->o.baseline = k->def ? k->def : "";
	if (a->json && a->csv) {
		pr_err("compare: --json and --csv: choose one");
		return EXIT_USAGE;
	}
	if (!a->ndbs)
		a->dbs[a->ndbs++] = ANALYSIS_DEFAULT_DB;
	return 0;
}

/* What the output says about how it was made. */
static void add_head(cJSON *top, const struct compare_args *a)
{
	cJSON *b, *dbs = cJSON_CreateArray();
	size_t i;

	cJSON_AddStringToObject(top, "format", "cvmbench-compare");
	cJSON_AddNumberToObject(top, "version", 1);
	cJSON_AddStringToObject(top, "pair_by", a->o.pair_by);
	cJSON_AddStringToObject(top, "baseline", a->o.baseline);
	cJSON_AddNumberToObject(top, "level", a->o.level);
	b = cJSON_AddObjectToObject(top, "bootstrap");
	cJSON_AddNumberToObject(b, "resamples", a->o.resamples);
	cJSON_AddNumberToObject(b, "seed", (double)a->o.seed);
	cJSON_AddBoolToObject(top, "allow_mismatch", a->o.allow_mismatch);
	for (i = 0; i < a->ndbs; i++)
		cJSON_AddItemToArray(dbs, cJSON_CreateString(a->dbs[i]));
	cJSON_AddItemToObject(top, "databases", dbs);
}

static int print_result(cJSON *top, const struct compare_args *a)
{
	if (a->json)
		analysis_json_out(stdout, top);
	else if (a->csv)
		cmp_print_csv(stdout, top);
	else if (!analysis_json_term(top))
		cmp_print_table(stdout, top);
	if (fflush(stdout))
		return EXIT_FAILED;
	if (!cJSON_GetArraySize(cJSON_GetObjectItem(top, "pairs")) ||
	    cJSON_GetArraySize(cJSON_GetObjectItem(top, "refused")))
		return EXIT_SKIPPED;
	return EXIT_OK;
}

/* Pair the loaded @d and print the result. */
static int compare_loaded(struct cmp_data *d, struct compare_args *a)
{
	cJSON *top, *pairs, *item;
	int ret;

	cmp_dedupe(d);
	if (cmp_assign(d, &a->o))
		return EXIT_FAILED;
	pairs = cmp_pairs(d, &a->o);
	top = cJSON_CreateObject();
	if (!pairs || !top) {
		cJSON_Delete(pairs);
		cJSON_Delete(top);
		return EXIT_FAILED;
	}
	add_head(top, a);
	while ((item = pairs->child)) {
		cJSON_DetachItemViaPointer(pairs, item);
		cJSON_AddItemToObject(top, item->string, item);
	}
	cJSON_Delete(pairs);
	ret = print_result(top, a);
	cJSON_Delete(top);
	return ret;
}

static int compare_data(struct cmp_data *d, struct compare_args *a)
{
	size_t i;
	int ret = EXIT_OK;

	for (i = 0; i < a->ndbs && !ret; i++)
		ret = cmp_load(d, a->dbs[i]);
	return ret ? ret : compare_loaded(d, a);
}

#define COMPARE_DEFAULTS { .pair_by = "confidential", .level = 0.95, \
			   .resamples = STATS_BOOT_RESAMPLES, .seed = STATS_BOOT_SEED }

/**
 * compare_show_table() - `cvmbench show --table overhead`: what `compare`
 * prints (pairs by confidential, the defaults) for the open database @h
 * called @name, as text or @json. Returns an exit code as cmd_compare().
 */
int compare_show_table(struct sqlite3 *h, const char *name, int json)
{
	const char *paths[1] = { name };
	struct compare_args args = { .dbs = paths, .ndbs = 1, .o = COMPARE_DEFAULTS,
				     .json = json };
	struct cmp_data d = { .paths = paths };
	int ret;

	args.o.baseline = "none";
	ret = cmp_load_handle(&d, h, name) ? EXIT_FAILED : compare_loaded(&d, &args);
	d.paths = NULL;
	cmp_free(&d);
	return ret;
}

/**
 * cmd_compare() - `cvmbench compare [--db F]... [--pair-by KEY]
 * [--baseline V] [--allow-mismatch] [--json|--csv]`. Returns EXIT_OK,
 * EXIT_SKIPPED (no pairs, or some refused), EXIT_USAGE or EXIT_FAILED.
 */
int cmd_compare(int argc, char **argv)
{
	struct compare_args args = { .o = COMPARE_DEFAULTS };
	struct cmp_data d = { 0 };
	int first, ret;

	args.dbs = calloc((size_t)argc + 1, sizeof(*args.dbs));
	d.paths = calloc((size_t)argc + 1, sizeof(*d.paths));
	if (!args.dbs || !d.paths) {
		free(args.dbs);
		free(d.paths);
		return EXIT_FAILED;
	}
	ret = opts_parse(argc, argv, "compare [--db FILE]... [--pair-by KEY] [--baseline VALUE] "
			 "[--allow-mismatch] [--json|--csv]", compare_opts, compare_opt, &args,
			 &first);
	if (!ret && first < argc) {
		pr_err("compare: unexpected argument '%s' (databases go after --db)", argv[first]);
		ret = 2;
	}
	if (!ret)
		ret = check_args(&args);
	else
		ret = ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (!ret && args.ndbs)
		ret = compare_data(&d, &args);
	free(d.paths);
	cmp_free(&d);
	free(args.dbs);
	return ret;
}
