// SPDX-License-Identifier: MIT
/*
 * summary.c - build the tree that `show` and `report` print:
 *
 *   { "runs": [ {id, started_at, status, status_text, version, cells_*...} ],
 *     "run": { id, ..., config_text, "environment": [ {key, value, source} ],
 *              "cells": [ {cell_key, workload, ..., n_measured,
 *                          "latency_ms": {n, min, p5, ..., ci_hi},
 *                          "fn_ms": {...} or null} ],
 *              "skips": [ {cell_key, probe, reason} ],
 *              "flags": [ {cell_key, probe, name, meaning} ],
 *              "errors": [ {cell_key, at, source, message} ] } }
 *
 * "run" is null when the database holds no run. The cells are in the
 * config's matrix order (cell-order.c). status_text is the status
 * with its counts ("partial: 28 ok, 4 skipped", run-status.c).
 */
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "analysis.h"
#include "cell-latency.h"
#include "cell-order.h"
#include "db.h"
#include "run-status.h"
#include "summary.h"

static const char sql_runs[] =
	"SELECT id, started_at, ended_at, status, vantage, "
	"cvmbench_version AS version, hostname, command_line, cells_total, "
	"cells_ok, cells_skipped, cells_failed FROM run ORDER BY id";
static const char sql_run[] =
	"SELECT id, started_at, ended_at, status, vantage, "
	"cvmbench_version AS version, hostname, command_line, config_path, "
	"config_text, cells_total, cells_ok, cells_skipped, cells_failed "
	"FROM run WHERE id = ?1";
static const char sql_env[] =
	"SELECT key, value, source FROM environment WHERE run_id = ?1 ORDER BY key";
static const char sql_cells[] =
	"SELECT * FROM v_cell_latency WHERE run_id = ?1 ORDER BY cell_id";
static const char sql_skips[] =
	"SELECT cell_key, probe, reason FROM v_skip WHERE run_id = ?1 ORDER BY id";
static const char sql_flags[] =
	"SELECT cell_key, probe, name, meaning FROM v_flag WHERE run_id = ?1 ORDER BY id";
static const char sql_errors[] =
	"SELECT cell_key, at, source, message FROM v_error WHERE run_id = ?1 "
	"ORDER BY id";

static void add_num(cJSON *o, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

static cJSON *stats_json(const struct stats_summary *s)
{
	cJSON *o;

	if (!s->n)
		return cJSON_CreateNull();
	o = cJSON_CreateObject();
	cJSON_AddNumberToObject(o, "n", (double)s->n);
	add_num(o, "min", s->min);
	add_num(o, "p5", s->p5);
	add_num(o, "p25", s->p25);
	add_num(o, "median", s->median);
	add_num(o, "p75", s->p75);
	add_num(o, "p95", s->p95);
	/* a p99 of fewer than STATS_P99_MIN_N values is one of the largest few: not given */
	add_num(o, "p99", s->n >= STATS_P99_MIN_N ? s->p99 : NAN);
	add_num(o, "max", s->max);
	add_num(o, "mean", s->mean);
	add_num(o, "stddev", s->stddev);
	add_num(o, "ci_lo", s->ci_lo);
	add_num(o, "ci_hi", s->ci_hi);
	add_num(o, "ci_level", s->ci_level);
	return o;
}

/*
 * The cells of @run_id with their latency and function-time summaries (a
 * service cell: its windows' wall times as window_ms, no latency), in
 * the config's matrix order (cell-order.c), not their rows' (a cell measured
 * again by --resume or --only has the newest row).
 */
static cJSON *cells_json(struct sqlite3 *h, int64_t run_id)
{
	cJSON *cells = analysis_query_json(h, sql_cells, run_id), *c;
	const struct cell_latency *l;
	struct cell_latency *lat;
	size_t n;

	if (!cells)
		return NULL;
	if (latency_load(h, run_id, NULL, &lat, &n)) {
		cJSON_Delete(cells);
		return NULL;
	}
	cJSON_ArrayForEach(c, cells) {
		int64_t id = summary_id(c, "cell_id");

		l = latency_find(lat, n, id);
		if (l && summary_int(c, "service")) {
			/* a service's windows are load-generator runs: no latency */
			cJSON_AddItemToObject(c, "window_ms", stats_json(&l->lat_ms));
			cJSON_AddNullToObject(c, "latency_ms");
			cJSON_AddNullToObject(c, "fn_ms");
		} else if (l) {
			cJSON_AddItemToObject(c, "latency_ms", stats_json(&l->lat_ms));
			cJSON_AddItemToObject(c, "fn_ms", stats_json(&l->fn_ms));
		} else {
			cJSON_AddNullToObject(c, "latency_ms");
			cJSON_AddNullToObject(c, "fn_ms");
		}
	}
	free(lat);
	if (cell_order_sort(h, run_id, cells)) {
		cJSON_Delete(cells);
		return NULL;
	}
	return cells;
}

/* Attach the array of @sql to @o under @name; 0 or -1. */
static int add_query(cJSON *o, const char *name, cJSON *arr)
{
	if (!arr)
		return -1;
	cJSON_AddItemToObject(o, name, arr);
	return 0;
}

/*
 * Add "status_text" to the run @r. A finished run that an older cvmbench
 * called 'skipped' although cells were measured is shown 'partial', as
 * migration 003 stores it.
 */
static void add_status_text(struct db *db, cJSON *r)
{
	struct run_tally t = { summary_int(r, "cells_ok"), summary_int(r, "cells_skipped"),
			       summary_int(r, "cells_failed"), 0, 0 };
	const char *st = summary_str(r, "status", "-");
	char text[160];

	t.probe_skips = db_probe_skip_count(db, summary_id(r, "id"));
	t.probe_skips = t.probe_skips < 0 ? 0 : t.probe_skips;
	if (!strcmp(st, "skipped") && t.ok) {
		cJSON_ReplaceItemInObject(r, "status", cJSON_CreateString("partial"));
		st = "partial";
	}
	if (!strcmp(st, "running"))
		snprintf(text, sizeof(text), "%s", st);
	else
		run_status_text(text, sizeof(text), st, &t);
	cJSON_AddStringToObject(r, "status_text", text);
}

static cJSON *run_json(struct db *db, int64_t run_id)
{
	struct sqlite3 *h = db_sqlite(db);
	cJSON *arr = analysis_query_json(h, sql_run, run_id), *run;

	if (!arr)
		return NULL;
	run = cJSON_DetachItemFromArray(arr, 0);
	cJSON_Delete(arr);
	if (!run)
		return NULL;
	add_status_text(db, run);
	if (add_query(run, "environment", analysis_query_json(h, sql_env, run_id)) ||
	    add_query(run, "cells", cells_json(h, run_id)) ||
	    add_query(run, "skips", analysis_query_json(h, sql_skips, run_id)) ||
	    add_query(run, "flags", analysis_query_json(h, sql_flags, run_id)) ||
	    add_query(run, "errors", analysis_query_json(h, sql_errors, run_id))) {
		cJSON_Delete(run);
		return NULL;
	}
	return run;
}

/**
 * summary_build() - the tree described at the top of summary.c for
 * @run_id (< 0: no run, "run" is null). NULL on a query error (reported)
 * or no memory. Free with cJSON_Delete().
 */
struct cJSON *summary_build(struct db *db, int64_t run_id)
{
	struct sqlite3 *h = db_sqlite(db);
	cJSON *top = cJSON_CreateObject(), *run;

	if (!top || add_query(top, "runs", analysis_query_json(h, sql_runs, 0)))
		goto err;
	cJSON_ArrayForEach(run, cJSON_GetObjectItem(top, "runs"))
		add_status_text(db, run);
	if (run_id < 0) {
		cJSON_AddNullToObject(top, "run");
		return top;
	}
	run = run_json(db, run_id);
	if (!run)
		goto err;
	cJSON_AddItemToObject(top, "run", run);
	return top;
err:
	cJSON_Delete(top);
	return NULL;
}

/**
 * summary_str() - the string member @name of @o, or @dflt when it is
 * missing, null or not a string.
 */
const char *summary_str(const struct cJSON *o, const char *name, const char *dflt)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_IsString(v) ? v->valuestring : dflt;
}

/**
 * summary_num() - the number member @name of @o, NAN when it is missing,
 * null or not a number.
 */
double summary_num(const struct cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/**
 * summary_int() - the number member @name of @o as an int, 0 when it is
 * not a number or not one an int holds (a column of the database may hold
 * any value: text, NULL, 1e308).
 */
int summary_int(const struct cJSON *o, const char *name)
{
	double v = summary_num(o, name);

	return v >= INT_MIN && v <= INT_MAX ? (int)v : 0;
}

/**
 * summary_id() - the number member @name of @o as a row id, -1 when it is
 * not a number or beyond int64_t (an id near 2^63 is one as a double).
 */
int64_t summary_id(const struct cJSON *o, const char *name)
{
	double v = summary_num(o, name);

	return v >= -0x1p63 && v < 0x1p63 ? (int64_t)v : -1;
}

/**
 * summary_fmt() - the number member @name of @o printed with @fmt (one
 * double conversion) into @buf, or "-" when it is not a number.
 */
const char *summary_fmt(const struct cJSON *o, const char *name, const char *fmt,
			char *buf, unsigned len)
{
	double v = summary_num(o, name);

	if (isnan(v))
		return "-";
	snprintf(buf, len, fmt, v);
	return buf;
}

/**
 * summary_ms() - the number member @name of @o (a time in ms) with four
 * significant digits and no exponent (0.008123, 2.872, 313.4, 12345), or
 * "-" when it is not a number.
 */
const char *summary_ms(const struct cJSON *o, const char *name, char *buf,
		       unsigned len)
{
	double v = summary_num(o, name);
	int dec;

	if (isnan(v))
		return "-";
	dec = v > 0 ? 3 - (int)floor(log10(v)) : 3;
	dec = dec < 0 ? 0 : dec > 6 ? 6 : dec;
	snprintf(buf, len, "%.*f", dec, v);
	return buf;
}
