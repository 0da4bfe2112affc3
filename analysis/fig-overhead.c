// SPDX-License-Identifier: MIT
/*
 * fig-overhead.c - data of the overhead figure (the study's Fig. 4): the
 * CVM latency overhead per function, the ratio of median latencies of
 * each confidential (or model) side to its regular twin, with its 95 %
 * bootstrap interval and the invocations of both sides, from the same
 * pairing and statistics as `cvmbench compare` (compare-*.c). Pairs span
 * runs, so the figure takes every run of the database, not only --run.
 *
 * Data: one block (index) per side, its header row naming the side
 * (columnheader(2)), then one row per pair: x, ratio, lo, hi, "N=b/s";
 * the last block holds the x tick labels: x, "workload size mode".
 * Pairs of service cells (the system suite) are not latencies: they are
 * left out here and drawn by system-overhead.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "compare.h"
#include "figures.h"
#include "gp-string.h"
#include "stats-boot.h"
#include "summary.h"

#define MAX_GROUPS 256

struct names {
	const char *v[MAX_GROUPS];
	int n;
};

/* The index of @s in @names, added if new; -1 when full. */
static int name_index(struct names *names, const char *s)
{
	int i;

	for (i = 0; i < names->n; i++)
		if (!strcmp(names->v[i], s))
			return i;
	if (names->n == MAX_GROUPS)
		return -1;
	names->v[names->n] = s;
	return names->n++;
}

static const char *jstr(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

static double jnum(const cJSON *o, const char *name)
{
	return cJSON_GetNumberValue(cJSON_GetObjectItem(o, name));
}

/* "workload size mode" of pair @p into @buf. */
static const char *group_of(const cJSON *p, char *buf, size_t len)
{
	snprintf(buf, len, "%s %s %s", jstr(p, "workload"), jstr(p, "size"), jstr(p, "mode"));
	return buf;
}

/*
 * The experiments of the cells @arr (compare's cells_json: run, cell_key)
 * into @buf, ", "-joined; each cell noted as a source of the figure with
 * @n invocations shared out (the report's caption).
 */
static void cells_experiments(struct figure_ctx *ctx, const cJSON *arr, double n,
			      char *buf, size_t len)
{
	const cJSON *c;
	sqlite3_stmt *st;
	const char *e;
	size_t l;

	buf[0] = '\0';
	if (analysis_prepare(ctx->h, "SELECT id, experiment FROM cell WHERE run_id = ? "
			     "AND cell_key = ?", 0, &st))
		return;
	cJSON_ArrayForEach(c, arr) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, summary_id(c, "run"));
		sqlite3_bind_text(st, 2, jstr(c, "cell_key"), -1, SQLITE_TRANSIENT);
		if (analysis_step(st) != SQLITE_ROW)
			continue;
		figure_source(ctx, sqlite3_column_int64(st, 0),
			      (long long)(n / cJSON_GetArraySize(arr)), "invocations");
		e = (const char *)sqlite3_column_text(st, 1);
		l = strlen(buf);
		if (e && !strstr(buf, e) && l + strlen(e) + 3 < len)
			snprintf(buf + l, len - l, "%s%s", l ? ", " : "", e);
	}
	sqlite3_finalize(st);
}

/* The achieved coverage of side @o's median interval in %, "-" when none. */
static void side_cov(const cJSON *o, char *buf, size_t len)
{
	double v = jnum(o, "median_ci_coverage");

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", 100 * v);
}

/*
 * "N=base/side, cov B/S%" (the achieved coverage of each side's median
 * interval: the bootstrap ratio interval has only its nominal level), and
 * "baseline from EXP" when the regular twin was measured by another
 * experiment.
 */
static void n_label(struct figure_ctx *ctx, const cJSON *p, const cJSON *st,
		    char *buf, size_t len)
{
	const cJSON *b = cJSON_GetObjectItem(st, "base"), *s = cJSON_GetObjectItem(st, "side");
	char eb[128], es[128], cb[16], cs[16];

	cells_experiments(ctx, cJSON_GetObjectItem(p, "base_cells"), jnum(b, "n"), eb,
			  sizeof(eb));
	cells_experiments(ctx, cJSON_GetObjectItem(p, "cells"), jnum(s, "n"), es, sizeof(es));
	side_cov(b, cb, sizeof(cb));
	side_cov(s, cs, sizeof(cs));
	snprintf(buf, len, "N=%.0f/%.0f, cov %s/%s%%%s%s", jnum(b, "n"), jnum(s, "n"), cb, cs,
		 strcmp(eb, es) ? ", baseline from " : "", strcmp(eb, es) ? eb : "");
}

static void write_side(struct figure_ctx *ctx, const cJSON *pairs, const char *side,
		       int si, int nsides, struct names *groups)
{
	double bw = 0.8 / nsides, x;
	const cJSON *p, *st, *ci;
	char g[256], n[320];

	fprintf(ctx->data, "\"x\" ");
	gp_data_string(ctx->data, side);
	fprintf(ctx->data, " \"lo\" \"hi\" \"n\"\n");
	cJSON_ArrayForEach(p, pairs) {
		if (strcmp(jstr(p, "side"), side))
			continue;
		st = cJSON_GetObjectItem(p, "stats");
		ci = cJSON_GetObjectItem(st, "ratio_ci");
		x = name_index(groups, group_of(p, g, sizeof(g))) + 1 + (si - (nsides - 1) / 2.0) * bw;
		n_label(ctx, p, st, n, sizeof(n));
		fprintf(ctx->data, "%.4f %.6g %.6g %.6g ", x, jnum(st, "ratio"),
			cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 0)->valuedouble : jnum(st, "ratio"),
			cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 1)->valuedouble : jnum(st, "ratio"));
		gp_data_string(ctx->data, n);
		fprintf(ctx->data, "\n");
	}
	fprintf(ctx->data, "\n\n");
}

static int write_pairs(struct figure_ctx *ctx, const cJSON *pairs)
{
	struct names sides = { .n = 0 }, groups = { .n = 0 };
	const cJSON *p;
	char g[256];
	int i;

	int ret = 0;

	cJSON_ArrayForEach(p, pairs) {
		group_of(p, g, sizeof(g));
		if (name_index(&sides, jstr(p, "side")) < 0)
			ret = -E2BIG;
		for (i = 0; !ret && i < groups.n && strcmp(groups.v[i], g); i++)
			;
		if (!ret && i == groups.n && name_index(&groups, strdup(g)) < 0)
			ret = -E2BIG;
		if (!ret && !groups.v[groups.n - 1])
			ret = -ENOMEM;
		if (ret)
			goto out;
	}
	for (i = 0; i < sides.n; i++)
		write_side(ctx, pairs, sides.v[i], i, sides.n, &groups);
	for (i = 0; i < groups.n; i++) {
		fprintf(ctx->data, "%d ", i + 1);
		gp_data_string(ctx->data, groups.v[i]);
		fprintf(ctx->data, "\n");
	}
	figure_var_int(ctx, "nsides", sides.n);
	figure_var_int(ctx, "ngroups", groups.n);
out:
	for (i = 0; i < groups.n; i++)
		free((void *)groups.v[i]);
	return ret;
}

/* Why there is no pair to draw, into ctx->why. */
static void no_pairs(struct figure_ctx *ctx, const cJSON *top)
{
	int refused = cJSON_GetArraySize(cJSON_GetObjectItem(top, "refused"));

	if (refused)
		snprintf(ctx->why, sizeof(ctx->why), "no pair to draw: %d pair(s) refused, their "
			 "environments differ (cvmbench compare lists the differences)", refused);
	else
		snprintf(ctx->why, sizeof(ctx->why), "no pair of a confidential (or model) cell "
			 "and its regular twin in this database (cvmbench compare says why)");
}

/*
 * Leave out the pairs of service cells: their invocations are load
 * generator windows, whose durations are no latency (system-overhead
 * draws their metrics).
 */
static void drop_service_pairs(cJSON *top)
{
	cJSON *pairs = cJSON_GetObjectItem(top, "pairs"), *p, *next;

	for (p = pairs ? pairs->child : NULL; p; p = next) {
		next = p->next;
		if (cmp_pair_is_service(p))
			cJSON_Delete(cJSON_DetachItemViaPointer(pairs, p));
	}
}

/**
 * fig_overhead_data() - write the overhead data (see the top of this
 * file). Returns 0, -ENODATA when the database has no pair, or -errno.
 */
int fig_overhead_data(struct figure_ctx *ctx)
{
	struct cmp_opts o = { .pair_by = "confidential", .baseline = "none", .level = 0.95,
			      .resamples = STATS_BOOT_RESAMPLES, .seed = STATS_BOOT_SEED };
	const char *paths[1];
	struct cmp_data d = { .paths = paths };
	cJSON *top = NULL;
	int ret;

	ret = cmp_load_handle(&d, ctx->h, "this database") ?: cmp_assign(&d, &o);
	if (!ret && !(top = cmp_pairs(&d, &o)))
		ret = -ENOMEM;
	if (!ret)
		drop_service_pairs(top);
	if (!ret && !cJSON_GetArraySize(cJSON_GetObjectItem(top, "pairs"))) {
		no_pairs(ctx, top);
		ret = -ENODATA;
	}
	if (!ret)
		ret = write_pairs(ctx, cJSON_GetObjectItem(top, "pairs"));
	figure_var_int(ctx, "resamples", o.resamples);
	cJSON_Delete(top);
	cmp_free(&d);
	return ret;
}

const struct figure figure_overhead = {
	"overhead",
	"CVM (and model) latency overhead per function: median ratio to the regular twin, "
	"95 % bootstrap interval, N per side (all runs of the database)",
	"overhead.gp", fig_overhead_data, 0,
};
