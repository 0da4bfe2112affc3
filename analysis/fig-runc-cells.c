// SPDX-License-Identifier: MIT
/*
 * fig-runc-cells.c - the cells of a run with container starts traced by
 * the runc probe (tables runc_start / runc_phase, 002-runc-phase.sql),
 * labelled by the keys of the runc dimensions that are not at their
 * defaults, with the quantiles of their cold starts (stats.c).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "fig-runc.h"
#include "stats.h"

/* The runc keys and their defaults (config-keys.c). */
static const char *const keys[][2] = {
	{ "cpus", "0" }, { "cpu-quota", "100" }, { "corunner", "0" },
	{ "parallel", "1" }, { "seccomp", "on" }, { "netns", "new" },
	{ "cgroups", "on" }, { "favordynmods", "default" },
};

static const char sql_cells[] =
	"SELECT c.id, c.backend, c.workload, (SELECT count(DISTINCT workload) FROM cell "
	"WHERE run_id = ?1 AND id IN (SELECT cell_id FROM runc_start)) FROM cell c "
	"WHERE c.run_id = ?1 AND EXISTS (SELECT 1 FROM runc_start s WHERE s.cell_id = c.id) "
	"ORDER BY c.id";

static void param(sqlite3 *h, int64_t cell, const char *key, char *val, size_t len)
{
	sqlite3_stmt *st;

	val[0] = '\0';
	if (analysis_prepare(h, "SELECT value FROM cell_param WHERE cell_id = ? AND "
			     "key = ?", cell, &st))
		return;
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (analysis_step(st) == SQLITE_ROW)
		snprintf(val, len, "%s", (const char *)sqlite3_column_text(st, 0) ?: "");
	sqlite3_finalize(st);
}

static void label(sqlite3 *h, struct runc_cell *c, const char *sweep)
{
	char v[64];
	size_t i, l, s;

	c->x = -1;
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		param(h, c->id, keys[i][0], v, sizeof(v));
		if (sweep && !strcmp(sweep, keys[i][0]))
			c->x = atof(v);
		if (!v[0] || !strcmp(v, keys[i][1]))
			continue;
		l = strlen(c->label);
		snprintf(c->label + l, sizeof(c->label) - l, " %s=%s", keys[i][0], v);
		if (sweep && !strcmp(sweep, keys[i][0]))
			continue;
		s = strlen(c->series);
		snprintf(c->series + s, sizeof(c->series) - s, " %s=%s", keys[i][0], v);
	}
}

/* Quantiles of the cell's cold starts and means of total and blocked time. */
static int starts(sqlite3 *h, struct runc_cell *c)
{
	sqlite3_stmt *st;
	double *v = NULL, *n, tot = 0, blk = 0;
	size_t cap = 0;

	if (analysis_prepare(h, "SELECT cold_start_ns, total_ns, blocked_ns FROM "
			     "runc_start WHERE cell_id = ? AND cold_start_ns IS NOT NULL",
			     c->id, &st))
		return -EIO;
	while (analysis_step(st) == SQLITE_ROW) {
		if (c->nstarts == cap) {
			cap = cap ? 2 * cap : 64;
			n = realloc(v, cap * sizeof(*v));
			if (!n)
				break;
			v = n;
		}
		v[c->nstarts++] = sqlite3_column_double(st, 0) / 1e6;
		tot += sqlite3_column_double(st, 1) / 1e6;
		blk += sqlite3_column_double(st, 2) / 1e6;
	}
	sqlite3_finalize(st);
	if (c->nstarts) {
		stats_sort(v, c->nstarts);
		c->median_ms = stats_median(v, c->nstarts);
		c->p25_ms = stats_quantile(v, c->nstarts, 0.25);
		c->p75_ms = stats_quantile(v, c->nstarts, 0.75);
		c->total_ms = tot / (double)c->nstarts;
		c->blocked_ms = blk / (double)c->nstarts;
	}
	free(v);
	return 0;
}

int runc_cells_load(sqlite3 *h, int64_t run_id, const char *sweep,
		    struct runc_cell **out, size_t *n)
{
	struct runc_cell *v = NULL, *p;
	sqlite3_stmt *st;
	size_t cap = 0;
	int ret = 0;

	*n = 0;
	if (analysis_prepare(h, sql_cells, run_id, &st))
		return -EIO;
	while (!ret && analysis_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			p = realloc(v, cap * sizeof(*v));
			if (!p) {
				ret = -ENOMEM;
				break;
			}
			v = p;
		}
		p = &v[(*n)++];
		memset(p, 0, sizeof(*p));
		p->id = sqlite3_column_int64(st, 0);
		snprintf(p->label, sizeof(p->label), "%s%s%s", sqlite3_column_text(st, 1),
			 sqlite3_column_int(st, 3) > 1 ? " " : "",
			 sqlite3_column_int(st, 3) > 1 ? (const char *)sqlite3_column_text(st, 2) : "");
		snprintf(p->series, sizeof(p->series), "%s", p->label);
		label(h, p, sweep);
		ret = starts(h, p);
	}
	sqlite3_finalize(st);
	*out = v;
	return ret;
}

size_t runc_cells_measured(struct runc_cell *v, size_t n)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (v[i].nstarts)
			v[k++] = v[i];
	return k;
}

const char *runc_cell_tick(const struct runc_cell *c, char *buf, size_t len)
{
	snprintf(buf, len, "%s (N=%zu)", c->label, c->nstarts);
	return buf;
}
