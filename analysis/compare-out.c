// SPDX-License-Identifier: MIT
/*
 * compare-out.c - the tree of cmd-compare.c as a table (one line per
 * pair, then what is refused and unpaired) or as CSV (one record per
 * pair, RFC 4180 through csv.c). What was not measured prints as "-" in
 * the table and as an empty field in CSV, never as 0. Service pairs print
 * their metrics instead (compare-out-svc.c).
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "csv.h"

static const char *str(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_IsString(v) ? v->valuestring : "-";
}

/* @name of @o with @fmt, or "-" when null or absent. */
static const char *num(const cJSON *o, const char *name, const char *fmt, char *buf,
		       size_t len)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	if (!cJSON_IsNumber(v))
		return "-";
	snprintf(buf, len, fmt, v->valuedouble);
	return buf;
}

/* "[lo, hi]" of the array @name of @o, or "-". */
static const char *range(const cJSON *o, const char *name, const char *fmt, char *buf,
			 size_t len)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);
	char f[32];

	if (cJSON_GetArraySize(v) != 2)
		return "-";
	snprintf(f, sizeof(f), "[%s, %s]", fmt, fmt);
	snprintf(buf, len, f, cJSON_GetArrayItem(v, 0)->valuedouble,
		 cJSON_GetArrayItem(v, 1)->valuedouble);
	return buf;
}

/* "median [lo, hi] coverage%" of one side. */
static const char *median(const cJSON *side, char *buf, size_t len)
{
	const cJSON *cov = cJSON_GetObjectItem(side, "median_ci_coverage");
	char m[32], r[64], c[32] = "-";

	if (cJSON_IsNumber(cov))
		snprintf(c, sizeof(c), "%.1f%%", 100 * cov->valuedouble);
	snprintf(buf, len, "%s %s %s", num(side, "median_ms", "%.4g", m, sizeof(m)),
		 range(side, "median_ci_ms", "%.4g", r, sizeof(r)), c);
	return buf;
}

/**
 * cmp_flags_text() - the strings of @list ","-joined, then MISMATCH-ALLOWED
 * when the pair @p was compared despite a mismatch, into @buf; "-" when
 * there is none.
 */
void cmp_flags_text(const cJSON *list, const cJSON *p, char *buf, size_t len)
{
	const cJSON *f;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(f, list)
		used += (size_t)snprintf(buf + used, len > used ? len - used : 0, "%s%s",
					 used ? "," : "", f->valuestring);
	if (cJSON_IsTrue(cJSON_GetObjectItem(p, "mismatch_allowed")))
		snprintf(buf + used, len > used ? len - used : 0, "%sMISMATCH-ALLOWED",
			 used ? "," : "");
	if (!buf[0])
		snprintf(buf, len, "-");
}

static void print_pair(FILE *f, const cJSON *p)
{
	const cJSON *st = cJSON_GetObjectItem(p, "stats"), *a = cJSON_GetObjectItem(st, "base");
	const cJSON *b = cJSON_GetObjectItem(st, "side"), *e;
	char r[32], ci[64], ma[96], mb[96], d50[32], d99[32], dm[32], fl[128], x[2][32];

	cmp_flags_text(cJSON_GetObjectItem(st, "flags"), p, fl, sizeof(fl));
	fprintf(f, "%-20s %-5s %-4s %-8s %-9s %-22s %6.0f %6.0f %7s %-17s %-28s %-28s %9s "
		"%9s %9s %-7s %s\n", str(p, "workload"), str(p, "size"), str(p, "mode"),
		str(p, "side"), str(p, "ksm"), str(p, "kind"), cJSON_GetObjectItem(a, "n")->valuedouble,
		cJSON_GetObjectItem(b, "n")->valuedouble, num(st, "ratio", "%.3f", r, sizeof(r)),
		range(st, "ratio_ci", "%.3f", ci, sizeof(ci)), median(a, ma, sizeof(ma)),
		median(b, mb, sizeof(mb)), num(st, "p50_diff_ms", "%+.4g", d50, sizeof(d50)),
		num(st, "p99_diff_ms", "%+.4g", d99, sizeof(d99)),
		num(st, "mem_diff_kb", "%+.0f", dm, sizeof(dm)),
		cJSON_GetObjectItem(st, "exits_per_s")->child ? "below" : "-", fl);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(st, "exits_per_s"))
		fprintf(f, "    exits/s %s: %s baseline, %s %s\n", e->string,
			num(e, "base", "%.6g", x[0], sizeof(x[0])), num(e, "side", "%.6g", x[1],
			sizeof(x[1])), str(p, "side"));
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(p, "differences"))
		fprintf(f, "    MISMATCH ALLOWED: %s\n", e->valuestring);
}

static void print_cells(FILE *f, const cJSON *cells)
{
	const cJSON *c;

	cJSON_ArrayForEach(c, cells)
		fprintf(f, " %s (run %.0f, %s)", str(c, "cell_key"),
			cJSON_GetObjectItem(c, "run")->valuedouble, str(c, "db"));
}

static void print_rest(FILE *f, const cJSON *top)
{
	const cJSON *p, *e;

	if (cJSON_GetArraySize(cJSON_GetObjectItem(top, "refused")))
		fprintf(f, "\nrefused: their environments differ in more than %s "
			"(--allow-mismatch compares them anyway):\n", str(top, "pair_by"));
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "refused")) {
		fprintf(f, "  %s %s %s, %s vs %s (ksm %s):\n", str(p, "workload"),
			str(p, "size"), str(p, "mode"), str(p, "side"), str(p, "baseline"),
			str(p, "ksm"));
		cJSON_ArrayForEach(e, cJSON_GetObjectItem(p, "differences"))
			fprintf(f, "    %s\n", e->valuestring);
	}
	if (cJSON_GetArraySize(cJSON_GetObjectItem(top, "unpaired")))
		fprintf(f, "\nunpaired:\n");
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "unpaired")) {
		fprintf(f, "  %s %s %s (backend %s, side %s): %s; cells", str(p, "workload"),
			str(p, "size"), str(p, "mode"), str(p, "backend"), str(p, "side"),
			str(p, "why"));
		print_cells(f, cJSON_GetObjectItem(p, "cells"));
		fprintf(f, "\n");
	}
}

/* How many of @top's pairs compare latencies (not service metrics). */
static int latency_pairs(const cJSON *top)
{
	const cJSON *p;
	int n = 0;

	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "pairs"))
		n += !cmp_pair_is_service(p);
	return n;
}

/**
 * cmp_print_table() - print the compare tree @top as text to @f.
 */
void cmp_print_table(FILE *f, const cJSON *top)
{
	const cJSON *b = cJSON_GetObjectItem(top, "bootstrap"), *p;

	fprintf(f, "compare: pair by %s, baseline %s; 95 %% intervals: bootstrap of the median "
		"ratio (%.0f resamples, seed %.0f), order statistics of each median "
		"(with the coverage achieved)\n", str(top, "pair_by"), str(top, "baseline"),
		cJSON_GetObjectItem(b, "resamples")->valuedouble,
		cJSON_GetObjectItem(b, "seed")->valuedouble);
	if (!cJSON_GetArraySize(cJSON_GetObjectItem(top, "pairs")))
		fprintf(f, "no pairs: no cell has a twin on the baseline side (%s = %s) with "
			"the same settings%s\n", str(top, "pair_by"), str(top, "baseline"),
			cJSON_GetArraySize(cJSON_GetObjectItem(top, "refused")) ?
			" whose environment matches" : "");
	else if (latency_pairs(top))
		fprintf(f, "%-20s %-5s %-4s %-8s %-9s %-22s %6s %6s %7s %-17s %-28s %-28s "
			"%9s %9s %9s %-7s %s\n", "WORKLOAD", "SIZE", "MODE", "SIDE", "KSM",
			"KIND", "N_BASE",
			"N_SIDE", "RATIO", "RATIO_CI", "BASE_MEDIAN_MS [CI] COVERAGE",
			"SIDE_MEDIAN_MS [CI] COVERAGE", "DP50_MS", "DP99_MS", "DMEM_KB", "EXITS/S",
			"FLAGS");
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "pairs"))
		if (!cmp_pair_is_service(p))
			print_pair(f, p);
	cmp_print_svc_table(f, top);
	print_rest(f, top);
}

/**
 * cmp_csv_num() - the number @name of @o as a CSV field (empty when null
 * or absent), then a comma.
 */
void cmp_csv_num(FILE *f, const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	if (cJSON_IsNumber(v))
		fprintf(f, "%.17g", v->valuedouble);
	fputc(',', f);
}

/**
 * cmp_csv_range() - the pair @name of @o as two CSV fields (empty when
 * absent), each then a comma.
 */
void cmp_csv_range(FILE *f, const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	if (cJSON_GetArraySize(v) == 2)
		fprintf(f, "%.17g,%.17g,", cJSON_GetArrayItem(v, 0)->valuedouble,
			cJSON_GetArrayItem(v, 1)->valuedouble);
	else
		fputs(",,", f);
}

static void csv_side(FILE *f, const cJSON *side)
{
	cmp_csv_num(f, side, "n");
	cmp_csv_num(f, side, "median_ms");
	cmp_csv_range(f, side, "median_ci_ms");
	cmp_csv_num(f, side, "median_ci_coverage");
	cmp_csv_num(f, side, "p99_ms");
	cmp_csv_num(f, side, "cv");
	cmp_csv_num(f, side, "mem_kb");
}

/* "a; b; c" of the strings in @arr into @buf. */
static const char *joined(const cJSON *arr, char *buf, size_t len)
{
	const cJSON *e;
	size_t used = 0;

	buf[0] = '\0';
	cJSON_ArrayForEach(e, arr)
		used += (size_t)snprintf(buf + used, len > used ? len - used : 0, "%s%s",
					 used ? "; " : "", e->valuestring);
	return buf;
}

/* The latency fields of a compared pair's record: ratio .. differences, each then a comma. */
static void csv_latency(FILE *f, const cJSON *p)
{
	const cJSON *st = cJSON_GetObjectItem(p, "stats");
	char buf[4096];

	cmp_csv_num(f, st, "ratio");
	cmp_csv_range(f, st, "ratio_ci");
	csv_side(f, cJSON_GetObjectItem(st, "base"));
	csv_side(f, cJSON_GetObjectItem(st, "side"));
	cmp_csv_num(f, st, "p50_diff_ms");
	cmp_csv_num(f, st, "p99_diff_ms");
	cmp_csv_num(f, st, "mem_diff_kb");
	csv_field(f, joined(cJSON_GetObjectItem(st, "flags"), buf, sizeof(buf)));
	fputc(',', f);
	csv_field(f, joined(cJSON_GetObjectItem(p, "differences"), buf, sizeof(buf)));
	fputc(',', f);
}

/* The fields before the latency: status and what the pair is, each then a comma. */
static void csv_lead(FILE *f, const cJSON *p, const char *status)
{
	static const char *const head[] = { "workload", "size", "mode", "pair_key", "kind",
					    "baseline", "side", "ksm", "series" };
	size_t i;

	csv_field(f, status);
	for (i = 0; i < sizeof(head) / sizeof(head[0]); i++) {
		fputc(',', f);
		csv_field(f, str(p, head[i]));
	}
	fputc(',', f);
}

/*
 * One record for a latency (or refused) pair; one per metric for a
 * compared service pair, its latency fields empty (the windows' durations
 * are not what it compares) but for the differences.
 */
static void csv_pair(FILE *f, const cJSON *p, const char *status)
{
	const cJSON *ms = cJSON_GetObjectItem(cJSON_GetObjectItem(p, "stats"), "metrics"), *m;
	char buf[4096];

	if (!cJSON_GetArraySize(ms) || !strcmp(status, "refused")) {
		csv_lead(f, p, status);
		csv_latency(f, p);
		cmp_print_svc_csv(f, NULL);
		return;
	}
	cJSON_ArrayForEach(m, ms) {
		csv_lead(f, p, status);
		fputs(",,,,,,,,,,,,,,,,,,,,,,,", f);
		csv_field(f, joined(cJSON_GetObjectItem(p, "differences"), buf, sizeof(buf)));
		fputc(',', f);
		cmp_print_svc_csv(f, m);
	}
}

/**
 * cmp_print_csv() - the pairs of @top, compared then refused, one record
 * each (a refused pair has its differences and no numbers), to @f.
 */
void cmp_print_csv(FILE *f, const cJSON *top)
{
	const cJSON *p;

	fputs("status,workload,size,mode,pair_key,kind,baseline,side,ksm,series,ratio,"
	      "ratio_ci_lo,"
	      "ratio_ci_hi,base_n,base_median_ms,base_ci_lo_ms,base_ci_hi_ms,"
	      "base_ci_coverage,base_p99_ms,base_cv,base_mem_kb,side_n,side_median_ms,"
	      "side_ci_lo_ms,side_ci_hi_ms,side_ci_coverage,side_p99_ms,side_cv,"
	      "side_mem_kb,p50_diff_ms,p99_diff_ms,mem_diff_kb,flags,differences,", f);
	fputs(cmp_svc_csv_head, f);
	fputc('\n', f);
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "pairs"))
		csv_pair(f, p, cJSON_IsTrue(cJSON_GetObjectItem(p, "mismatch_allowed")) ?
			 "compared-mismatch-allowed" : "compared");
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "refused"))
		csv_pair(f, p, "refused");
}
