// SPDX-License-Identifier: MIT
/*
 * seed-groups.c - seed-groups.h: a figure's per-cell rows, merged into
 * groups of the same workload, layer and VM type (the query's order puts
 * them next to each other).
 */
#include <errno.h>
#include <math.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"
#include "seed-groups.h"

static void col_text(char *dst, size_t len, sqlite3_stmt *st, int i)
{
	const char *s = (const char *)sqlite3_column_text(st, i);

	snprintf(dst, len, "%s", s ? s : "");
}

/* The group of the row at @st: the last one if it matches, else a new one. */
static struct seed_group *group_of(sqlite3_stmt *st, struct seed_group *v, size_t *n)
{
	struct seed_group key;

	memset(&key, 0, sizeof(key));
	col_text(key.workload, sizeof(key.workload), st, 1);
	col_text(key.layer, sizeof(key.layer), st, 2);
	col_text(key.vmtype, sizeof(key.vmtype), st, 3);
	if (*n && !strcmp(v[*n - 1].workload, key.workload) &&
	    !strcmp(v[*n - 1].layer, key.layer) && !strcmp(v[*n - 1].vmtype, key.vmtype))
		return &v[*n - 1];
	v[*n] = key;
	return &v[(*n)++];
}

static void add_row(struct figure_ctx *ctx, sqlite3_stmt *st, struct seed_group *g,
		    int nvalues, const char *unit)
{
	long long rows = sqlite3_column_int64(st, 5);
	int i;

	g->rows += rows;
	g->cells++;
	for (i = 0; i < nvalues; i++) {
		if (sqlite3_column_type(st, 7 + 2 * i) == SQLITE_NULL)
			continue;
		g->sum[i] += sqlite3_column_double(st, 6 + 2 * i);
		g->count[i] += sqlite3_column_int64(st, 7 + 2 * i);
	}
	figure_source(ctx, sqlite3_column_int64(st, 0), rows, unit);
}

/*
 * Run @sql (SEED_GROUP_COLUMNS, then @nvalues (sum, count) pairs; ?1 the
 * run) and merge its cells into groups; each cell is noted as a source of
 * its rows in @unit. *@out is malloc'd. 0, or -errno.
 */
static int groups_load(struct figure_ctx *ctx, const char *sql, int nvalues, const char *unit,
		     struct seed_group **out, size_t *n)
{
	struct seed_group *v = NULL, *nv;
	size_t cap = 0;
	sqlite3_stmt *st;
	int rc;

	*out = NULL;
	*n = 0;
	if (nvalues > SEED_GROUP_VALUES || analysis_prepare(ctx->h, sql, ctx->run_id, &st))
		return -EINVAL;
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			nv = realloc(v, cap * sizeof(*v));
			if (!nv) {
				rc = SQLITE_NOMEM;
				break;
			}
			v = nv;
		}
		add_row(ctx, st, group_of(st, v, n), nvalues, unit);
	}
	sqlite3_finalize(st);
	*out = v;
	return rc == SQLITE_DONE ? 0 : rc == SQLITE_NOMEM ? -ENOMEM : -EIO;
}

/* The mean of value @i of @g; NaN when no row had it. */
static double group_mean(const struct seed_group *g, int i)
{
	return g->count[i] ? g->sum[i] / (double)g->count[i] : NAN;
}

static void write_mean(struct figure_ctx *ctx, double v)
{

	if (isnan(v))
		fprintf(ctx->data, " NaN");     /* not measured: no point, not a dropped one */
	else
		fprintf(ctx->data, " %.4f", v);
}

/* @g's label: "workload layer", its VM type too when @vmtypes > 1. */
static void write_label(struct figure_ctx *ctx, const struct seed_group *g, int vmtypes)
{
	char label[160];

	snprintf(label, sizeof(label), "%s %s%s%s", g->workload, g->layer,
		 vmtypes > 1 ? ", " : "", vmtypes > 1 ? g->vmtype : "");
	gp_data_string(ctx->data, label);
}

/* How many VM types the groups of @g are of. */
static int count_vmtypes(const struct seed_group *g, size_t n)
{
	size_t i, j;
	int k = 0;

	for (i = 0; i < n; i++) {
		for (j = 0; j < i && strcmp(g[j].vmtype, g[i].vmtype); j++)
			;
		k += j == i;
	}
	return k;
}

static void write_groups(struct figure_ctx *ctx, const struct seed_figure *f,
			 const struct seed_group *g, size_t n)
{
	int vmtypes = count_vmtypes(g, n), i;
	double tot;
	size_t k;

	fprintf(ctx->data, "label");
	for (i = 0; i < f->nvalues; i++)
		gp_data_string((fputc(' ', ctx->data), ctx->data), f->names[i]);
	fprintf(ctx->data, "%s %s cells\n", f->total ? " total" : "", f->rows_name);
	for (k = 0; k < n; k++) {
		write_label(ctx, &g[k], vmtypes);
		for (i = 0, tot = 0; i < f->nvalues; i++) {
			write_mean(ctx, group_mean(&g[k], i));
			tot += group_mean(&g[k], i);
		}
		if (f->total)
			write_mean(ctx, tot);
		fprintf(ctx->data, " %lld %d\n", g[k].rows, g[k].cells);
	}
}

int seed_figure_data(struct figure_ctx *ctx, const struct seed_figure *f)
{
	struct seed_group *g = NULL;
	size_t n = 0;
	int ret = 0;

	if (analysis_table_present(ctx->h, f->table))
		ret = groups_load(ctx, f->sql, f->nvalues, f->unit, &g, &n);
	if (!ret && !n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no %s", (long long)ctx->run_id,
			 f->nodata);
		ret = -ENODATA;
	}
	if (!ret)
		write_groups(ctx, f, g, n);
	figure_var_int(ctx, "ngroups", (long long)n);
	figure_var_int(ctx, "run", ctx->run_id);
	free(g);
	return ret;
}
