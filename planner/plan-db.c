// SPDX-License-Identifier: MIT
/*
 * plan-db.c - one plan against a database (plan-db.h): the config, the
 * measurements (refused, naming the cells to run, when any is missing),
 * the trace and its mapping, the simulations, then the tables written in
 * one transaction and the answers printed. Nothing is written unless
 * everything before succeeded.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "db.h"
#include "exitcode.h"
#include "log.h"
#include "plan-answer.h"
#include "plan-db.h"
#include "plan-map.h"
#include "plan-store.h"

static int open_db(const char *path, int flags, struct db **db)
{
	char err[512];

	if (access(path, R_OK | W_OK)) {
		pr_err("plan: --db %s: no such database to read and write", path);
		return EXIT_USAGE;
	}
	if (db_open(db, path, flags, err, sizeof(err))) {
		pr_err("plan: %s", err);
		return EXIT_USAGE;
	}
	return 0;
}

/* The answers into @path, opened for writing (migrated) only now. */
static int store(const char *path, const struct plan_config *c, const struct plan_inputs *in,
		 const struct plan_answer *ans)
{
	struct db *db = NULL;
	int64_t id = 0;
	int r = open_db(path, DB_CREATE, &db);

	if (!r)
		r = plan_store(db_sqlite(db), c, in, ans, &id);
	if (db)
		db_close(db);
	if (!r) {
		printf("plan %lld: %s over %s\n", (long long)id, c->path, c->trace);
		plan_print(stdout, c, in, ans);
	}
	return r;
}

/* The inputs from @path opened read-only: a refused plan writes nothing. */
static int read_inputs(const char *path, const struct plan_config *c, struct plan_inputs *in)
{
	struct db *db = NULL;
	int r = open_db(path, DB_READONLY, &db);

	memset(in, 0, sizeof(*in));
	if (!r)
		r = plan_inputs_read(db_sqlite(db), c, in);
	if (db)
		db_close(db);
	return r;
}

int plan_db_run(const char *config, const char *dbpath, const char *trace)
{
	struct plan_config *c = malloc(sizeof(*c));
	struct plan_args a = { 0 };
	struct plan_answer ans = { 0 };
	struct plan_trace t = { 0 };
	struct plan_inputs in = { 0 };
	uint32_t *map = NULL;
	int r = c ? plan_config_read(config, c) : EXIT_FAILED;

	if (!r && trace)
		snprintf(c->trace, sizeof(c->trace), "%s", trace);
	if (!r)
		r = read_inputs(dbpath, c, &in);
	a.trace = c ? c->trace : NULL;
	a.format = c && *c->format ? c->format : NULL;
	if (!r)
		r = plan_trace_load(&a, &t);
	if (!r)
		r = plan_map_make(t.is21 ? &t.t21.fns : &t.t19.fns, &in, c->map, &map);
	if (!r)
		r = plan_answer_run(c, &in, &t, map, &ans);
	if (!r)
		r = store(dbpath, c, &in, &ans);
	plan_answer_free(&ans);
	free(map);
	plan_trace_free(&t);
	plan_inputs_free(&in);
	free(c);
	return r;
}
