// SPDX-License-Identifier: MIT
/*
 * report-suite.c - the report's System suite section, when the database
 * holds service cells (suite-data.c, compare's numbers): first the
 * findings, one sentence per tool and confidential side on its headline
 * throughput (how much lower or higher on the CVM, the overhead with its
 * interval and N), and one per missing side with its whole reason (a
 * skipped cell: no CVM here); then every metric's overhead as a table,
 * and the metric names a parser wrote that the catalog lacks. Text from
 * the database goes through the page's own escaping (report_ops).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "report.h"
#include "summary.h"

#define NUM 48

static const char *jstr(const cJSON *o, const char *name)
{
	return summary_str(o, name, "-");
}

/* "+25.0 % [+23.1 %, +27.2 %]" or "- (why)" */
static const char *overhead_text(const cJSON *o, char *buf, size_t len)
{
	double v = summary_num(o, "overhead");

	if (!isfinite(v))
		snprintf(buf, len, "- (%s)", jstr(o, "why"));
	else if (!isfinite(cmp_range_at(o, "overhead_ci", 0)))
		snprintf(buf, len, "%+.1f %% (no interval)", 100 * v);
	else
		snprintf(buf, len, "%+.1f %% [%+.1f %%, %+.1f %%]", 100 * v,
			 100 * cmp_range_at(o, "overhead_ci", 0), 100 * cmp_range_at(o, "overhead_ci", 1));
	return buf;
}

/* The finding on the headline metric of group @g, side of overhead @o. */
static void finding(FILE *f, const struct report_ops *ops, const cJSON *g, const cJSON *o)
{
	const cJSON *b = cJSON_GetObjectItem(o, "base"), *s = cJSON_GetObjectItem(o, "side");
	double rel = summary_num(s, "median") / summary_num(b, "median") - 1;
	char t[1024], ov[128];

	if (!isfinite(rel))
		snprintf(t, sizeof(t), "%s, %s: %s not measured on both sides.", jstr(g, "label"),
			 jstr(o, "side_name"), jstr(o, "metric"));
	else
		snprintf(t, sizeof(t), "%s, %s: %s (%s) %.1f %% %s on the CVM (median %.4g vs %.4g); "
			 "overhead %s, N = %.0f/%.0f windows%s.", jstr(g, "label"),
			 jstr(o, "side_name"), jstr(o, "metric"), jstr(o, "unit"), 100 * fabs(rel),
			 rel < 0 ? "lower" : "higher", summary_num(s, "median"),
			 summary_num(b, "median"), overhead_text(o, ov, sizeof(ov)),
			 summary_num(b, "n"), summary_num(s, "n"),
			 cJSON_IsTrue(cJSON_GetObjectItem(o, "mismatch_allowed")) ?
			 " (setups differ: compared anyway)" : "");
	ops->para(f, t);
}

static void findings(FILE *f, const struct report_ops *ops, const cJSON *groups)
{
	const cJSON *g, *o, *m, *h;
	char t[1024];

	cJSON_ArrayForEach(g, groups) {
		h = cJSON_GetObjectItem(g, "headline");
		cJSON_ArrayForEach(o, cJSON_GetObjectItem(g, "overheads"))
			if (!strcmp(jstr(o, "metric"), jstr(h, "metric")) &&
			    !strcmp(jstr(o, "parser"), jstr(h, "parser")))
				finding(f, ops, g, o);
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "missing")) {
			snprintf(t, sizeof(t), "%s, %s: not compared, %s.", jstr(g, "label"),
				 jstr(m, "side"), jstr(m, "why"));
			ops->para(f, t);
		}
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(g, "unknown")) {
			snprintf(t, sizeof(t), "%s: metric %s/%s is %s.", jstr(g, "label"),
				 jstr(m, "parser"), jstr(m, "metric"), jstr(m, "why"));
			ops->para(f, t);
		}
	}
}

static const char *median_text(const cJSON *s, char *buf, size_t len)
{
	if (!isfinite(summary_num(s, "median")))
		return "-";
	snprintf(buf, len, "%.4g (%.0f)", summary_num(s, "median"), summary_num(s, "n"));
	return buf;
}

static void metric_table(FILE *f, const struct report_ops *ops, const cJSON *groups)
{
	static const char *const head[] = { "tool", "side", "metric", "unit", "better",
		"regular median (N)", "CVM median (N)", "overhead [95 % CI]", "flags" };
	const cJSON *g, *o, *e;
	char b[NUM], s[NUM], ov[256], fl[64];
	size_t used;

	ops->table_begin(f, head, 9);
	cJSON_ArrayForEach(g, groups)
		cJSON_ArrayForEach(o, cJSON_GetObjectItem(g, "overheads")) {
			fl[0] = '\0';
			used = 0;
			cJSON_ArrayForEach(e, cJSON_GetObjectItem(o, "flags"))
				used += (size_t)snprintf(fl + used, used < sizeof(fl) ?
							 sizeof(fl) - used : 0, "%s%s",
							 used ? ", " : "", e->valuestring);
			const char *row[] = { jstr(g, "label"), jstr(o, "side_name"),
				jstr(o, "metric"), jstr(o, "unit"), jstr(o, "direction"),
				median_text(cJSON_GetObjectItem(o, "base"), b, NUM),
				median_text(cJSON_GetObjectItem(o, "side"), s, NUM),
				overhead_text(o, ov, sizeof(ov)), fl[0] ? fl : "-" };
			ops->table_row(f, row, 9);
		}
	ops->table_end(f);
}

/**
 * report_suite() - the System suite section of the page for @top's
 * "suite" (suite_json()), nothing when it has no group.
 */
void report_suite(FILE *f, const struct report_ops *ops, const cJSON *top)
{
	const cJSON *groups = cJSON_GetObjectItem(cJSON_GetObjectItem(top, "suite"), "groups");

	if (!cJSON_GetArraySize(groups))
		return;
	ops->heading(f, 2, "system-suite", "System suite");
	ops->para(f, "Each tool's CVM overhead per metric, from cvmbench compare (all runs of "
		  "the database, pairs by confidential): higher is better gives regular / CVM "
		  "- 1, lower is better CVM / regular - 1, so a positive overhead means the CVM "
		  "is worse; 95 % bootstrap interval; N = measured windows (load generator "
		  "runs) per side. Figures system-suite and system-overhead; "
		  "docs/experiments/system-suite.md.");
	findings(f, ops, groups);
	metric_table(f, ops, groups);
}
