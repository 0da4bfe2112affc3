// SPDX-License-Identifier: MIT
/*
 * compare-out-svc.c - the service pairs of the compare tree (their
 * metrics, compare-metrics.c) as text, one line per pair and metric after
 * the latency table, and as CSV records, one per pair and metric, in the
 * metric_* columns that close every CSV record. Overheads print as signed
 * percentages: positive means the CVM side is worse, whatever the
 * metric's direction. What was not measured is "-" (CSV: empty), with why.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "csv.h"
#include "summary.h"

const char cmp_svc_csv_head[] = "metric_parser,metric,metric_unit,metric_direction,"
	"metric_base_n,metric_base_median,metric_base_ci_lo,metric_base_ci_hi,"
	"metric_base_ci_coverage,metric_side_n,metric_side_median,metric_side_ci_lo,"
	"metric_side_ci_hi,metric_side_ci_coverage,metric_overhead,metric_overhead_ci_lo,"
	"metric_overhead_ci_hi,metric_flags,metric_why";

static const char *str(const cJSON *o, const char *name)
{
	return summary_str(o, name, "-");
}

/* "[lo, hi]" of the pair @name of @o, each × @scale with @fmt, or "-". */
static const char *range(const cJSON *o, const char *name, const char *fmt, double scale,
			 char *buf, size_t len)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);
	char f[48];

	if (cJSON_GetArraySize(v) != 2)
		return "-";
	snprintf(f, sizeof(f), "[%s, %s]", fmt, fmt);
	snprintf(buf, len, f, scale * cJSON_GetArrayItem(v, 0)->valuedouble,
		 scale * cJSON_GetArrayItem(v, 1)->valuedouble);
	return buf;
}

/* "median [lo, hi] coverage%" of one side of a metric. */
static const char *side_text(const cJSON *s, char *buf, size_t len)
{
	char r[96], c[32] = "-", m[32] = "-";

	if (isfinite(summary_num(s, "median")))
		snprintf(m, sizeof(m), "%.5g", summary_num(s, "median"));
	if (isfinite(summary_num(s, "median_ci_coverage")))
		snprintf(c, sizeof(c), "%.1f%%", 100 * summary_num(s, "median_ci_coverage"));
	snprintf(buf, len, "%s %s %s", m, range(s, "median_ci", "%.5g", 1, r, sizeof(r)), c);
	return buf;
}

static void print_metric(FILE *f, const cJSON *p, const cJSON *m)
{
	const cJSON *b = cJSON_GetObjectItem(m, "base"), *s = cJSON_GetObjectItem(m, "side");
	char ov[32] = "-", ci[64], tb[128], ts[128], fl[96];

	if (isfinite(summary_num(m, "overhead")))
		snprintf(ov, sizeof(ov), "%+.1f%%", 100 * summary_num(m, "overhead"));
	cmp_flags_text(cJSON_GetObjectItem(m, "flags"), p, fl, sizeof(fl));
	fprintf(f, "%-16s %-8s %-9s %-16s %-20s %-6s %-6s %6.0f %6.0f %8s %-17s %-30s %-30s "
		"%s%s%s\n", str(p, "workload"), str(p, "side"), str(p, "ksm"), str(m, "parser"),
		str(m, "metric"), str(m, "unit"), str(m, "direction"), summary_num(b, "n"),
		summary_num(s, "n"), ov, range(m, "overhead_ci", "%+.1f%%", 100, ci, sizeof(ci)),
		side_text(b, tb, sizeof(tb)), side_text(s, ts, sizeof(ts)), fl,
		cJSON_GetObjectItem(m, "why") ? " why: " : "",
		cJSON_GetObjectItem(m, "why") ? str(m, "why") : "");
}

/**
 * cmp_print_svc_table() - the metrics of @top's service pairs as text to
 * @f (nothing when it has none).
 */
void cmp_print_svc_table(FILE *f, const cJSON *top)
{
	const cJSON *p, *m;
	int any = 0;

	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "pairs")) {
		if (!cmp_pair_is_service(p))
			continue;
		if (!any++)
			fprintf(f, "\nservice metrics: OVERHEAD = regular/side - 1 for a metric where "
				"higher is better, side/regular - 1 where lower is better (positive: "
				"the side is worse), 95 %% bootstrap interval; N = measured windows "
				"per side; each median with its order-statistic interval and the "
				"coverage achieved\n%-16s %-8s %-9s %-16s %-20s %-6s %-6s %6s %6s %8s "
				"%-17s %-30s %-30s %s\n", "WORKLOAD", "SIDE", "KSM", "PARSER",
				"METRIC", "UNIT", "BETTER", "N_BASE", "N_SIDE", "OVERHEAD",
				"OVERHEAD_CI", "BASE_MEDIAN [CI] COVERAGE",
				"SIDE_MEDIAN [CI] COVERAGE", "FLAGS");
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(cJSON_GetObjectItem(p, "stats"), "metrics"))
			print_metric(f, p, m);
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(cJSON_GetObjectItem(p, "stats"),
							  "unknown_metrics"))
			fprintf(f, "    %s %s/%s: %s\n", str(p, "workload"), str(m, "parser"),
				str(m, "metric"), str(m, "why"));
		cJSON_ArrayForEach(m, cJSON_GetObjectItem(p, "differences"))
			fprintf(f, "    MISMATCH ALLOWED: %s\n", m->valuestring);
	}
}

static void csv_side(FILE *f, const cJSON *s)
{
	cmp_csv_num(f, s, "n");
	cmp_csv_num(f, s, "median");
	cmp_csv_range(f, s, "median_ci");
	cmp_csv_num(f, s, "median_ci_coverage");
}

static void csv_metric(FILE *f, const cJSON *m)
{
	char fl[96];
	const cJSON *e;
	size_t used = 0;

	fl[0] = '\0';
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(m, "flags"))
		used += (size_t)snprintf(fl + used, sizeof(fl) > used ? sizeof(fl) - used : 0,
					 "%s%s", used ? "; " : "", e->valuestring);
	csv_field(f, str(m, "parser"));
	fputc(',', f);
	csv_field(f, str(m, "metric"));
	fputc(',', f);
	csv_field(f, str(m, "unit"));
	fputc(',', f);
	csv_field(f, str(m, "direction"));
	fputc(',', f);
	csv_side(f, cJSON_GetObjectItem(m, "base"));
	csv_side(f, cJSON_GetObjectItem(m, "side"));
	cmp_csv_num(f, m, "overhead");
	cmp_csv_range(f, m, "overhead_ci");
	csv_field(f, fl);
	fputc(',', f);
	csv_field(f, cJSON_GetObjectItem(m, "why") ? str(m, "why") : "");
}

/**
 * cmp_print_svc_csv() - the metric_* fields that close a CSV record: of
 * the metric @m of a service pair, or empty ones when @m is NULL (a
 * latency pair, a refused pair); then the end of the line.
 */
void cmp_print_svc_csv(FILE *f, const cJSON *m)
{
	if (m)
		csv_metric(f, m);
	else
		fputs(",,,,,,,,,,,,,,,,,,", f);
	fputc('\n', f);
}
