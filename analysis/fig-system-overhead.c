// SPDX-License-Identifier: MIT
/*
 * fig-system-overhead.c - data of the system-overhead figure: one bar per
 * tool, metric (with a direction) and confidential side, its CVM overhead
 * in percent as `compare` gives it (higher is better: regular / CVM - 1,
 * lower is better: CVM / regular - 1, so a bar above 0 is the CVM doing
 * worse) with its 95 % bootstrap interval and N of both sides; a tool
 * whose confidential side is missing (skipped: no CVM here) gets a place
 * with "missing: skipped" and no bar. Numbers from suite-data.c, every
 * run of the database.
 *
 * Data: block 0 (throughput: higher is better) and block 1 (latency and
 * errors: lower is better), rows x, overhead %, lo %, hi %, label_y,
 * "N=b/s"; block 2 the missing places: x, 0, "missing: KIND"; block 3
 * the tick labels: x, "tool metric [side]". An empty block holds one row
 * of NaN at x 0 (blocks are found by their blank lines) and the script
 * leaves it out (nhigher, nlower, nmissing).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "figures.h"
#include "gp-string.h"
#include "suite-data.h"
#include "summary.h"

#define MAX_BARS 96

static const char *jstr(const cJSON *o, const char *name)
{
	return summary_str(o, name, "");
}

/* The rows of block @dir ("higher", "lower"): x counts on in *@x over both. */
static void write_block(struct figure_ctx *ctx, const cJSON *groups, const char *dir,
			int *x, FILE *ticks)
{
	const cJSON *g, *o;
	char n[64], tick[256];
	double ov, lo, hi;
	int first = *x;

	cJSON_ArrayForEach(g, groups)
		cJSON_ArrayForEach(o, cJSON_GetObjectItem(g, "overheads")) {
			if (strcmp(jstr(o, "direction"), dir) || *x >= MAX_BARS)
				continue;
			ov = 100 * summary_num(o, "overhead");
			lo = 100 * cmp_range_at(o, "overhead_ci", 0);
			hi = 100 * cmp_range_at(o, "overhead_ci", 1);
			snprintf(n, sizeof(n), "N=%.0f/%.0f", summary_num(cJSON_GetObjectItem(o, "base"), "n"),
				 summary_num(cJSON_GetObjectItem(o, "side"), "n"));
			fprintf(ctx->data, "%d %.6g %.6g %.6g %.6g ", ++*x, ov, isfinite(lo) ? lo : ov,
				isfinite(hi) ? hi : ov, isfinite(hi) && hi > 0 ? hi : 0);
			gp_data_string(ctx->data, n);
			fputc('\n', ctx->data);
			snprintf(tick, sizeof(tick), "%s %s [%s]", jstr(g, "label"), jstr(o, "metric"),
				 jstr(o, "side_name"));
			fprintf(ticks, "%d ", *x);
			gp_data_string(ticks, tick);
			fputc('\n', ticks);
		}
	if (*x == first)           /* an empty block would merge with the next */
		fprintf(ctx->data, "0 NaN NaN NaN NaN \"-\"\n");
	fprintf(ctx->data, "\n\n");
}

/* Block 2: a place per missing confidential side, its kind as the label. */
static void write_missing(struct figure_ctx *ctx, const cJSON *groups, int *x, FILE *ticks)
{
	const cJSON *g, *m;
	char label[64], tick[256];
	int first = *x;

	cJSON_ArrayForEach(g, groups)
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "missing")) {
			if (*x >= MAX_BARS)
				break;
			snprintf(label, sizeof(label), "missing: %s", jstr(m, "kind"));
			fprintf(ctx->data, "%d 0 ", ++*x);
			gp_data_string(ctx->data, label);
			fputc('\n', ctx->data);
			snprintf(tick, sizeof(tick), "%s [%s]", jstr(g, "label"), jstr(m, "side"));
			fprintf(ticks, "%d ", *x);
			gp_data_string(ticks, tick);
			fputc('\n', ticks);
		}
	if (*x == first)
		fprintf(ctx->data, "0 NaN \"-\"\n");
	fprintf(ctx->data, "\n\n");
}

/**
 * fig_system_overhead_data() - write the system-overhead data (see the top
 * of this file). Returns 0, -ENODATA without a service pair or missing
 * side to show, or -errno.
 */
int fig_system_overhead_data(struct figure_ctx *ctx)
{
	cJSON *suite = suite_json(ctx->h), *groups;
	char *tbuf = NULL;
	size_t tlen = 0;
	FILE *ticks;
	int x = 0, bars, higher;

	if (!suite || !(ticks = open_memstream(&tbuf, &tlen))) {
		cJSON_Delete(suite);
		return -EIO;
	}
	groups = cJSON_GetObjectItem(suite, "groups");
	write_block(ctx, groups, "higher", &x, ticks);
	higher = x;
	write_block(ctx, groups, "lower", &x, ticks);
	bars = x;
	write_missing(ctx, groups, &x, ticks);
	figure_var_int(ctx, "nhigher", higher);
	figure_var_int(ctx, "nlower", bars - higher);
	figure_var_int(ctx, "nmissing", x - bars);
	fclose(ticks);
	fputs(tbuf ? tbuf : "", ctx->data);
	free(tbuf);
	cJSON_Delete(suite);
	if (!bars) {
		snprintf(ctx->why, sizeof(ctx->why), "no service pair of a confidential cell and its "
			 "regular twin (cvmbench compare says why)");
		return -ENODATA;
	}
	figure_var_int(ctx, "nbars", x);
	return 0;
}

const struct figure figure_system_overhead = {
	"system-overhead",
	"System suite: CVM overhead per tool and metric (positive: the CVM is worse; "
	"throughput regular/CVM - 1, latency CVM/regular - 1), 95 % bootstrap interval, "
	"N windows per side; a missing confidential side says so (all runs of the database)",
	"system-overhead.gp", fig_system_overhead_data, FIGURE_SIGNED,
};
