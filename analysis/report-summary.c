// SPDX-License-Identifier: MIT
/*
 * report-summary.c - what the report's summary leads with, per experiment
 * of the run: its cells ok / skipped / failed, and its headline numbers:
 * the median latency of its fastest and its slowest measured cell, each
 * with the distribution-free 95 % interval of the median and the coverage
 * that interval achieves (lib/stats.c, as `compare` and the Cells
 * table give them) and N. A cell is named by the dimensions that differ
 * between the experiment's cells (cell-label.c), not by all of them.
 *
 *   [ { experiment, cells, ok, skipped, failed,
 *       rows: [ { what, label, median, ci_lo, ci_hi, ci_level, n } ] } ]
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "cell-label.h"
#include "report-summary.h"
#include "summary.h"

/* The experiment object of @name in @arr, made when missing. */
static cJSON *exp_get(cJSON *arr, const char *name)
{
	cJSON *e;

	cJSON_ArrayForEach(e, arr)
		if (!strcmp(summary_str(e, "experiment", ""), name))
			return e;
	e = cJSON_CreateObject();
	cJSON_AddStringToObject(e, "experiment", name);
	cJSON_AddNumberToObject(e, "cells", 0);
	cJSON_AddNumberToObject(e, "ok", 0);
	cJSON_AddNumberToObject(e, "skipped", 0);
	cJSON_AddNumberToObject(e, "failed", 0);
	cJSON_AddItemToArray(arr, e);
	return e;
}

static void count(cJSON *e, const char *name)
{
	cJSON *v = cJSON_GetObjectItem(e, name);

	if (v)
		cJSON_SetNumberValue(v, v->valuedouble + 1);
}

/* The cells of @exp in @cells that have a measured latency. */
static size_t measured(const cJSON *cells, const char *exp, const cJSON **out,
		       size_t max)
{
	const cJSON *c;
	size_t n = 0;

	cJSON_ArrayForEach(c, cells) {
		const cJSON *l = cJSON_GetObjectItem(c, "latency_ms");

		if (n < max && !strcmp(summary_str(c, "experiment", ""), exp) &&
		    cJSON_IsObject(l) && !isnan(summary_num(l, "median")))
			out[n++] = c;
	}
	return n;
}

/* Append "/@val" to @buf when @key's value differs between the cells. */
static void differing(const cJSON **v, size_t n, size_t i, const char *key,
		      char *buf, size_t len)
{
	char a[32], b[32];
	const char *x, *y;
	size_t k, l = strlen(buf);

	x = summary_str(v[i], key, NULL) ?: summary_fmt(v[i], key, "%.0f", a, sizeof(a));
	for (k = 0; k < n; k++) {
		y = summary_str(v[k], key, NULL) ?: summary_fmt(v[k], key, "%.0f", b, sizeof(b));
		if (strcmp(x, y))
			break;
	}
	if (k < n)
		snprintf(buf + l, len - l, "%s%s%s", l ? "/" : "",
			 strcmp(key, "threads") ? "" : "threads=", x);
}

static cJSON *row(const char *what, const cJSON *c, const char *label)
{
	const cJSON *l = cJSON_GetObjectItem(c, "latency_ms");
	cJSON *r = cJSON_CreateObject();
	static const char *const nums[] = { "median", "ci_lo", "ci_hi", "ci_level", "n" };
	size_t i;

	cJSON_AddStringToObject(r, "what", what);
	cJSON_AddStringToObject(r, "label", label);
	for (i = 0; i < sizeof(nums) / sizeof(nums[0]); i++)
		cJSON_AddNumberToObject(r, nums[i], summary_num(l, nums[i]));
	return r;
}

/* The label of @v[@i]: the dimensions that differ among @v (or its workload). */
static void label(struct sqlite3 *h, int64_t run_id, const cJSON **v, size_t n,
		  size_t i, char *buf, size_t len)
{
	/* the keys cell-label.c leaves to the figure; it adds the others */
	static const char *const keys[] = { "workload", "size", "mode", "threads" };
	char (*extra)[CELL_LABEL_MAX] = calloc(n, sizeof(*extra));
	int64_t *ids = calloc(n, sizeof(*ids));
	size_t k, l;

	buf[0] = '\0';
	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
		differing(v, n, i, keys[k], buf, len);
	for (k = 0; extra && ids && k < n; k++)
		ids[k] = summary_id(v[k], "cell_id");
	if (extra && ids && !cell_label_extras(h, run_id, ids, n, extra)) {
		l = strlen(buf);
		snprintf(buf + l, len - l, "%s", extra[i] + (l ? 0 : 1));
	}
	if (!buf[0])
		snprintf(buf, len, "%s", summary_str(v[i], "workload", "-"));
	free(extra);
	free(ids);
}

/* Fastest and slowest measured cell of @e (one row when only one cell). */
static void headline(struct sqlite3 *h, int64_t run_id, const cJSON *cells, cJSON *e)
{
	const cJSON *v[512];
	cJSON *rows = cJSON_AddArrayToObject(e, "rows");
	size_t n = measured(cells, summary_str(e, "experiment", ""), v, 512), i, lo = 0, hi = 0;
	char lab[2 * CELL_LABEL_MAX];

	for (i = 1; i < n; i++) {
		double m = summary_num(cJSON_GetObjectItem(v[i], "latency_ms"), "median");

		lo = m < summary_num(cJSON_GetObjectItem(v[lo], "latency_ms"), "median") ? i : lo;
		hi = m > summary_num(cJSON_GetObjectItem(v[hi], "latency_ms"), "median") ? i : hi;
	}
	if (!n)
		return;
	label(h, run_id, v, n, lo, lab, sizeof(lab));
	cJSON_AddItemToArray(rows, row(n > 1 ? "fastest" : "only cell", v[lo], lab));
	if (n > 1) {
		label(h, run_id, v, n, hi, lab, sizeof(lab));
		cJSON_AddItemToArray(rows, row("slowest", v[hi], lab));
	}
}

/**
 * report_summary_json() - the per-experiment summary described at the top
 * of this file for the run @run (summary_build()'s "run", id @run_id) of
 * @h. NULL when out of memory.
 */
struct cJSON *report_summary_json(struct sqlite3 *h, int64_t run_id,
				  const struct cJSON *run)
{
	const cJSON *cells = cJSON_GetObjectItem(run, "cells"), *c;
	cJSON *arr = cJSON_CreateArray(), *e;
	const char *st;

	if (!arr)
		return NULL;
	cJSON_ArrayForEach(c, cells) {
		e = exp_get(arr, summary_str(c, "experiment", "-"));
		st = summary_str(c, "status", "-");
		count(e, "cells");
		count(e, !strcmp(st, "ok") ? "ok" : !strcmp(st, "skipped") ? "skipped" :
			 "failed");
	}
	cJSON_ArrayForEach(e, arr)
		headline(h, run_id, cells, e);
	return arr;
}
