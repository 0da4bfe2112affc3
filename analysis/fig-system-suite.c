// SPDX-License-Identifier: MIT
/*
 * fig-system-suite.c - data of the system-suite figure, the OCI blog's
 * form with what it lacked: a panel per tool (and pair key), the bars of
 * the tool's headline metric (its first throughput metric of
 * metrics/service-metrics.h) for the regular VM and each confidential
 * side, each the median over the measured windows with its
 * distribution-free 95 % interval, the coverage that achieves and N
 * printed above it. A side that is missing (its cell skipped: no CVM
 * here; its pair refused; no twin) has no bar, and its reason is printed
 * where the bar would be (skipped, refused, unpaired; the report's System
 * suite section gives the whole reason). Numbers from suite-data.c (compare's loading
 * and statistics), every run of the database.
 *
 * Data: block i (panel i): rows x, median, lo, hi, label_y, "label",
 * "tick"; a missing side has NaN for median, lo and hi and its reason as
 * the label. Panel titles are the variables title0 .. (quoted constants).
 */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "figures.h"
#include "gp-string.h"
#include "suite-data.h"
#include "summary.h"

#define MAX_PANELS 12
#define TITLE_TOOL 32          /* bytes of a tool's name in a panel title */

static const char *jstr(const cJSON *o, const char *name)
{
	return summary_str(o, name, "");
}

static void write_bar(struct figure_ctx *ctx, int x, const cJSON *b)
{
	double m = summary_num(b, "median"), lo = cmp_range_at(b, "median_ci", 0);
	double hi = cmp_range_at(b, "median_ci", 1);
	char label[160], cov[16] = "-";

	if (isfinite(summary_num(b, "median_ci_coverage")))
		snprintf(cov, sizeof(cov), "%.1f %%", 100 * summary_num(b, "median_ci_coverage"));
	snprintf(label, sizeof(label), "N=%.0f, %.3g [%.3g, %.3g] cov %s", summary_num(b, "n"), m,
		 isfinite(lo) ? lo : m, isfinite(hi) ? hi : m, cov);
	fprintf(ctx->data, "%d %.6g %.6g %.6g %.6g ", x, m, isfinite(lo) ? lo : m,
		isfinite(hi) ? hi : m, isfinite(hi) ? hi : m);
	gp_data_string(ctx->data, label);
	fputc(' ', ctx->data);
	gp_data_string(ctx->data, strcmp(jstr(b, "side"), "none") ? jstr(b, "side") : "regular");
	fputc('\n', ctx->data);
}

static void write_missing(struct figure_ctx *ctx, int x, const cJSON *m)
{
	char label[64];

	snprintf(label, sizeof(label), "missing: %s", jstr(m, "kind"));
	fprintf(ctx->data, "%d NaN NaN NaN 0 ", x);
	gp_data_string(ctx->data, label);
	fputc(' ', ctx->data);
	gp_data_string(ctx->data, jstr(m, "side"));
	fputc('\n', ctx->data);
}

/* Back from @i to the start of a UTF-8 character of @s. */
static size_t char_start(const char *s, size_t i)
{
	while (i && ((unsigned char)s[i] & 0xc0) == 0x80)
		i--;
	return i;
}

/*
 * @label as a panel title fits it: at most TITLE_TOOL bytes, a longer one
 * cut in its middle ("head…tail", whole characters), into @buf.
 */
static const char *short_tool(const char *label, char *buf, size_t len)
{
	size_t n = strlen(label), head, tail;

	if (n <= TITLE_TOOL)
		return label;
	head = char_start(label, TITLE_TOOL - 12);
	tail = char_start(label, n - 10);
	snprintf(buf, len, "%.*s\u2026%s", (int)head, label, label + tail);
	return buf;
}

/* Panel @i: the group @g's bars, then its missing sides; its title. */
static void write_panel(struct figure_ctx *ctx, int i, const cJSON *g)
{
	const cJSON *h = cJSON_GetObjectItem(g, "headline"), *b, *c;
	char name[16], title[256], tool[TITLE_TOOL + 8];
	int x = 0;

	fprintf(ctx->data, "# %d\n", i);
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(g, "bars")) {
		write_bar(ctx, ++x, b);
		cJSON_ArrayForEach(c, cJSON_GetObjectItem(b, "cell_ids"))
			figure_source(ctx, (int64_t)c->valuedouble, (long long)summary_num(b, "n") /
				      cJSON_GetArraySize(cJSON_GetObjectItem(b, "cell_ids")), "windows");
	}
	cJSON_ArrayForEach(b, cJSON_GetObjectItem(g, "missing"))
		write_missing(ctx, ++x, b);
	fprintf(ctx->data, "\n\n");
	snprintf(name, sizeof(name), "title%d", i);
	snprintf(title, sizeof(title), "%s: %s (%s), median over windows",
		 short_tool(jstr(g, "label"), tool, sizeof(tool)),
		 jstr(h, "metric"), jstr(h, "unit"));
	figure_var_str(ctx, name, title);
	snprintf(name, sizeof(name), "nbars%d", i);
	figure_var_int(ctx, name, x);
}

/**
 * fig_system_suite_data() - write the system-suite data (see the top of
 * this file). Returns 0, -ENODATA when no tool has a throughput to draw,
 * or -errno.
 */
int fig_system_suite_data(struct figure_ctx *ctx)
{
	cJSON *suite = suite_json(ctx->h), *g;
	int n = 0, left = 0;

	if (!suite)
		return -EIO;
	cJSON_ArrayForEach(g, cJSON_GetObjectItem(suite, "groups")) {
		if (!cJSON_IsObject(cJSON_GetObjectItem(g, "headline")))
			continue;
		if (n == MAX_PANELS) {
			left++;
			continue;
		}
		write_panel(ctx, n++, g);
	}
	cJSON_Delete(suite);
	if (!n) {
		snprintf(ctx->why, sizeof(ctx->why), "no service cell with a throughput metric "
			 "(the system suite, docs/experiments/system-suite.md)");
		return -ENODATA;
	}
	if (left)
		snprintf(ctx->src_note, sizeof(ctx->src_note), "%d more tool groups not drawn "
			 "(at most %d panels): see the report's System suite table", left,
			 MAX_PANELS);
	figure_var_int(ctx, "npanels", n);
	return 0;
}

const struct figure figure_system_suite = {
	"system-suite",
	"System suite: per tool, the headline throughput of the regular VM and each "
	"confidential side, median over measured windows with its 95 % interval, coverage "
	"and N; a missing side says why (all runs of the database)",
	"system-suite.gp", fig_system_suite_data, 0,
};
