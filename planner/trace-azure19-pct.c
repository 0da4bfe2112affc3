// SPDX-License-Identifier: MIT
/*
 * trace-azure19-pct.c - the two percentile files beside the 2019 counts
 * (trace-azure19.h): function_durations_percentiles.anon.dXX.csv (per
 * function: Average,Count,Minimum,Maximum,percentile_Average_0, _1, _25,
 * _50, _75, _99, _100, in ms) and app_memory_percentiles.anon.dXX.csv (per
 * app: SampleCount,AverageAllocatedMb,AverageAllocatedMb_pct1 ... _pct100).
 * Columns are found by their header names, so their order does not matter.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-azure19.h"
#include "trace-csv.h"

const double trace19_pct_at[TRACE19_NPCT] = { 0, 1, 25, 50, 75, 99, 100 };

static const char *const dur_cols[TRACE19_NPCT] = {
	"percentile_Average_0", "percentile_Average_1", "percentile_Average_25",
	"percentile_Average_50", "percentile_Average_75", "percentile_Average_99",
	"percentile_Average_100"
};

/* The column of @name in the header @c, or a malformed-line error. */
static int column(const struct trace_csv *c, const char *name, size_t *at)
{
	size_t i;

	for (i = 0; i < c->nfield; i++)
		if (!strcmp(c->field[i], name)) {
			*at = i;
			return 0;
		}
	return trace_csv_bad(c, "header has no column %s", name);
}

/* Open @path and find the columns @names (n of them) in its header. */
static int open_with(struct trace_csv *c, const char *path, const char *const *names,
		     size_t n, size_t *at)
{
	size_t i;
	int r = trace_csv_open(c, path);

	if (r)
		return r;
	r = trace_csv_next(c);
	if (r == 0)
		r = trace_csv_bad(c, "empty file: no header");
	for (i = 0; r > 0 && i < n; i++)
		if (column(c, names[i], &at[i]))
			r = -EINVAL;
	if (r <= 0)
		trace_csv_close(c);
	return r > 0 ? 0 : r;
}

static double *nan_array(size_t n)
{
	double *a = malloc((n ? n : 1) * sizeof(*a));
	size_t i;

	for (i = 0; a && i < n; i++)
		a[i] = NAN;
	return a;
}

static int dur_row(struct trace19 *t, struct trace_csv *c, const size_t *at)
{
	char key[512];
	long idx;
	size_t i;
	double *row, prev = 0;

	if (c->nfield < 3 + TRACE19_NPCT)
		return trace_csv_bad(c, "%zu columns, too few", c->nfield);
	snprintf(key, sizeof(key), "%s/%s/%s", c->field[at[0]], c->field[at[1]], c->field[at[2]]);
	idx = fn_map_get(&t->fns, key, strlen(key), 0);
	for (i = 0; i < TRACE19_NPCT; i++) {
		double v;

		if (at[3 + i] >= c->nfield)
			return trace_csv_bad(c, "no value in column %s", dur_cols[i]);
		if (trace_csv_double(c, at[3 + i], dur_cols[i], &v))
			return -EINVAL;
		if (v < prev)
			return trace_csv_bad(c, "%s %g is below the percentile before it (%g)",
					     dur_cols[i], v, prev);
		prev = v;
		if (idx >= 0) {
			row = t->exec_ms + (size_t)idx * TRACE19_NPCT;
			row[i] = v;
		}
	}
	return 0;
}

int trace19_read_durations(struct trace19 *t, const char *path)
{
	const char *names[3 + TRACE19_NPCT] = { "HashOwner", "HashApp", "HashFunction" };
	size_t at[3 + TRACE19_NPCT], i;
	struct trace_csv c;
	int r;

	for (i = 0; i < TRACE19_NPCT; i++)
		names[3 + i] = dur_cols[i];
	free(t->exec_ms);
	t->exec_ms = nan_array(t->fns.n * TRACE19_NPCT);
	if (!t->exec_ms)
		return -ENOMEM;
	r = open_with(&c, path, names, 3 + TRACE19_NPCT, at);
	if (r)
		return r;
	while ((r = trace_csv_next(&c)) > 0)
		if ((r = dur_row(t, &c, at)))
			break;
	trace_csv_close(&c);
	return r;
}

/* The length of the app part "HashOwner/HashApp" of a function's name. */
static size_t app_len(const char *name)
{
	const char *s = strchr(name, '/');

	s = s ? strchr(s + 1, '/') : NULL;
	return s ? (size_t)(s - name) : strlen(name);
}

/* The apps of @t's functions: @apps gets each app once, app_of[i] function i's. */
static int apps_of(const struct trace19 *t, struct fn_map *apps, long *app_of)
{
	size_t i;

	for (i = 0; i < t->fns.n; i++) {
		app_of[i] = fn_map_get(apps, t->fns.name[i], app_len(t->fns.name[i]), 1);
		if (app_of[i] < 0)
			return -ENOMEM;
	}
	return 0;
}

static int mem_row(struct fn_map *apps, double *app_mib, struct trace_csv *c,
		   const size_t *at)
{
	double mib;
	char key[512];
	long idx;

	if (at[2] >= c->nfield || at[1] >= c->nfield)
		return trace_csv_bad(c, "%zu columns, too few", c->nfield);
	if (trace_csv_double(c, at[2], "AverageAllocatedMb", &mib))
		return -EINVAL;
	snprintf(key, sizeof(key), "%s/%s", c->field[at[0]], c->field[at[1]]);
	idx = fn_map_get(apps, key, strlen(key), 0);
	if (idx >= 0)
		app_mib[idx] = mib;
	return 0;
}

static int read_app_mib(struct fn_map *apps, double *app_mib, const char *path)
{
	static const char *const names[3] = { "HashOwner", "HashApp", "AverageAllocatedMb" };
	size_t at[3];
	struct trace_csv c;
	int r = open_with(&c, path, names, 3, at);

	if (r)
		return r;
	while ((r = trace_csv_next(&c)) > 0)
		if ((r = mem_row(apps, app_mib, &c, at)))
			break;
	trace_csv_close(&c);
	return r;
}

int trace19_read_memory(struct trace19 *t, const char *path)
{
	struct fn_map apps = { 0 };
	long *app_of = malloc((t->fns.n ? t->fns.n : 1) * sizeof(*app_of));
	double *app_mib = nan_array(t->fns.n);
	size_t i;
	int r = -ENOMEM;

	free(t->mem_mib);
	t->mem_mib = nan_array(t->fns.n);
	if (!app_of || !app_mib || !t->mem_mib || apps_of(t, &apps, app_of))
		goto out;
	r = read_app_mib(&apps, app_mib, path);
	for (i = 0; !r && i < t->fns.n; i++)
		t->mem_mib[i] = app_mib[app_of[i]];
out:
	fn_map_free(&apps);
	free(app_of);
	free(app_mib);
	return r;
}

double trace19_exec_draw(const struct trace19 *t, size_t fn, double u)
{
	const double *p;
	double at = u * 100;
	int i;

	if (!t->exec_ms || isnan(t->exec_ms[fn * TRACE19_NPCT]))
		return 0;
	p = t->exec_ms + fn * TRACE19_NPCT;
	for (i = 1; i < TRACE19_NPCT - 1 && at > trace19_pct_at[i]; i++)
		;
	return (p[i - 1] + (p[i] - p[i - 1]) * (at - trace19_pct_at[i - 1]) /
		(trace19_pct_at[i] - trace19_pct_at[i - 1])) / 1000.0;
}
