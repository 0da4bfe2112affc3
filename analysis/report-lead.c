// SPDX-License-Identifier: MIT
/*
 * report-lead.c - the top of the report page, what a reader came for:
 * what ran (run, config, host, time, version), how many cells were ok,
 * skipped and failed and why (each reason once, with its count of
 * cells), the fidelity flags raised, the headline numbers of each
 * experiment (report-summary.c: fastest and slowest cell, median with its
 * 95 % interval and the coverage it achieves, N), then the contents.
 * For a report of several runs: a row per run (its config, host, time,
 * status), then the same across them, each cell and experiment named with
 * its run.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "figures.h"
#include "report.h"
#include "summary.h"

#define NUM 32
#define WHY_MAX 24                /* distinct reasons listed; the rest counted */

static void lead_what(FILE *f, const struct report_ops *ops, const cJSON *run)
{
	char b[1024];

	snprintf(b, sizeof(b), "Run %.0f of %s on %s, %s to %s, cvmbench %s, %s vantage: %d "
		 "experiment%s, %s.", summary_num(run, "id"),
		 summary_str(run, "config_path", "(no config file)"),
		 summary_str(run, "hostname", "(unknown host)"),
		 summary_str(run, "started_at", "-"), summary_str(run, "ended_at", "(not ended)"),
		 summary_str(run, "version", "-"), summary_str(run, "vantage", "-"),
		 cJSON_GetArraySize(cJSON_GetObjectItem(run, "experiments")),
		 cJSON_GetArraySize(cJSON_GetObjectItem(run, "experiments")) == 1 ? "" : "s",
		 summary_str(run, "status_text", "-"));
	ops->para(f, b);
}

/* Count @reason once per @cell in @reasons ({reason, cells, last cell}). */
static void why_add(cJSON *reasons, const char *reason, const char *cell)
{
	cJSON *r;

	cJSON_ArrayForEach(r, reasons)
		if (!strcmp(summary_str(r, "reason", ""), reason))
			break;
	if (!r) {
		if (cJSON_GetArraySize(reasons) >= WHY_MAX)
			reason = "(other reasons)";
		cJSON_ArrayForEach(r, reasons)
			if (!strcmp(summary_str(r, "reason", ""), reason))
				break;
	}
	if (!r) {
		r = cJSON_CreateObject();
		cJSON_AddStringToObject(r, "reason", reason);
		cJSON_AddNumberToObject(r, "cells", 0);
		cJSON_AddStringToObject(r, "last", "");
		cJSON_AddItemToArray(reasons, r);
	}
	if (strcmp(summary_str(r, "last", ""), cell)) {
		cJSON_SetNumberValue(cJSON_GetObjectItem(r, "cells"), summary_num(r, "cells") + 1);
		cJSON_ReplaceItemInObject(r, "last", cJSON_CreateString(cell));
	}
}

/* Why cells were skipped (their skips) or failed (their errors). */
static void lead_why(FILE *f, const struct report_ops *ops, const cJSON *run)
{
	static const char *const head[] = { "why", "kind", "cells" };
	cJSON *skips = cJSON_CreateArray(), *errs = cJSON_CreateArray(), *r;
	const cJSON *o;
	char b[NUM];

	cJSON_ArrayForEach(o, cJSON_GetObjectItem(run, "skips"))
		why_add(skips, summary_str(o, "reason", "-"), summary_str(o, "cell_key", "(run)"));
	cJSON_ArrayForEach(o, cJSON_GetObjectItem(run, "errors"))
		why_add(errs, summary_str(o, "message", "-"), summary_str(o, "cell_key", "(run)"));
	if (cJSON_GetArraySize(skips) + cJSON_GetArraySize(errs)) {
		ops->table_begin(f, head, 3);
		cJSON_ArrayForEach(r, errs) {
			const char *row[] = { summary_str(r, "reason", "-"), "error",
					      summary_fmt(r, "cells", "%.0f", b, NUM) };
			ops->table_row(f, row, 3);
		}
		cJSON_ArrayForEach(r, skips) {
			const char *row[] = { summary_str(r, "reason", "-"), "skip",
					      summary_fmt(r, "cells", "%.0f", b, NUM) };
			ops->table_row(f, row, 3);
		}
		ops->table_end(f);
	}
	cJSON_Delete(skips);
	cJSON_Delete(errs);
}

/* "12.34 [12.1, 12.6; 96.1 %] N=20", "0.07 (no interval) N=1" or "-" */
static const char *headline_text(const cJSON *r, char *buf, size_t len)
{
	char m[NUM], lo[NUM], hi[NUM];

	if (!r)
		return "-";
	if (!(summary_num(r, "ci_level") > 0)) {    /* one value: no interval */
		snprintf(buf, len, "%s (no interval) N=%.0f", summary_ms(r, "median", m, NUM),
			 summary_num(r, "n"));
		return buf;
	}
	snprintf(buf, len, "%s [%s, %s; %.1f %%] N=%.0f", summary_ms(r, "median", m, NUM),
		 summary_ms(r, "ci_lo", lo, NUM), summary_ms(r, "ci_hi", hi, NUM),
		 100 * summary_num(r, "ci_level"), summary_num(r, "n"));
	return buf;
}

static const char *cells_text(const cJSON *e, char *buf, size_t len)
{
	snprintf(buf, len, "%.0f ok", summary_num(e, "ok"));
	if (summary_num(e, "skipped") > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %.0f skipped",
			 summary_num(e, "skipped"));
	if (summary_num(e, "failed") > 0)
		snprintf(buf + strlen(buf), len - strlen(buf), ", %.0f failed",
			 summary_num(e, "failed"));
	return buf;
}

static void lead_experiments(FILE *f, const struct report_ops *ops, const cJSON *run)
{
	static const char *const head[] = { "experiment", "cells", "fastest cell",
		"median ms [95 % CI; coverage] N", "slowest cell",
		"median ms [95 % CI; coverage] N" };
	const cJSON *e, *rows, *lo, *hi;
	char c[96], a[160], b[160];

	ops->table_begin(f, head, 6);
	cJSON_ArrayForEach(e, cJSON_GetObjectItem(run, "experiments")) {
		rows = cJSON_GetObjectItem(e, "rows");
		lo = cJSON_GetArrayItem(rows, 0);
		hi = cJSON_GetArrayItem(rows, 1);
		const char *row[] = { summary_str(e, "experiment", "-"),
			cells_text(e, c, sizeof(c)), lo ? summary_str(lo, "label", "-") : "-",
			headline_text(lo, a, sizeof(a)), hi ? summary_str(hi, "label", "-") : "-",
			headline_text(hi, b, sizeof(b)) };
		ops->table_row(f, row, 6);
	}
	ops->table_end(f);
	ops->para(f, "Median round trip of each experiment's fastest and slowest cell (named "
		  "by what differs), its distribution-free 95 % interval and the coverage "
		  "achieved (below 95 % under 6 calls).");
}

static void lead_contents(FILE *f, const struct report_ops *ops,
			  const struct report_fig *figs, size_t n)
{
	static const char *const ids[] = { "figures", "cells", "flags", "skips", "errors",
		"runs", "run", "config", "environment" };
	static const char *const texts[] = { "Figures", "Cells and tables",
		"Fidelity flags", "Skips", "Errors", "Runs", "Run", "Configuration",
		"Environment" };
	const char *fid[64], *ftext[64];
	char idbuf[64][80];
	int k = 0;
	size_t i;

	ops->heading(f, 2, "contents", "Contents");
	ops->toc(f, ids, texts, (int)(sizeof(ids) / sizeof(ids[0])));
	for (i = 0; i < n && k < 64; i++) {
		if (!figs[i].drawn)
			continue;
		snprintf(idbuf[k], sizeof(idbuf[k]), "fig-%s", report_fig_file(&figs[i]));
		fid[k] = idbuf[k];
		ftext[k++] = report_fig_file(&figs[i]);
	}
	if (k)
		ops->toc(f, fid, ftext, k);
}

/**
 * report_lead() - write the summary and the contents of the page (see
 * the top of this file) for @run, whose figures are @figs.
 */
void report_lead(FILE *f, const struct report_ops *ops, const cJSON *run,
		 const struct report_fig *figs, size_t n)
{
	char b[256];
	int nflags = cJSON_GetArraySize(cJSON_GetObjectItem(run, "flags"));

	ops->heading(f, 2, "summary", "Summary");
	lead_what(f, ops, run);
	lead_why(f, ops, run);
	if (nflags) {
		snprintf(b, sizeof(b), "%d fidelity flag%s raised on cells: see Fidelity flags.",
			 nflags, nflags == 1 ? "" : "s");
		ops->para(f, b);
	}
	lead_experiments(f, ops, run);
	lead_contents(f, ops, figs, n);
}

/* A row per run of a report of several runs: what ran where, and how it ended. */
static void lead_runs(FILE *f, const struct report_ops *ops, const cJSON *chosen)
{
	static const char *const head[] = { "run", "config", "host", "started", "ended",
		"cvmbench", "status" };
	const cJSON *run;
	char b[NUM];

	ops->table_begin(f, head, 7);
	cJSON_ArrayForEach(run, chosen) {
		const char *row[] = { summary_fmt(run, "id", "%.0f", b, NUM),
			summary_str(run, "config_path", "(no config file)"),
			summary_str(run, "hostname", "-"), summary_str(run, "started_at", "-"),
			summary_str(run, "ended_at", "(not ended)"), summary_str(run, "version", "-"),
			summary_str(run, "status_text", "-") };
		ops->table_row(f, row, 7);
	}
	ops->table_end(f);
}

/* Copies of the members @name of each run, their member @label prefixed "run R: ". */
static void gather(cJSON *into, const cJSON *chosen, const char *name, const char *label)
{
	const cJSON *run, *o;
	char b[512];
	cJSON *c;

	cJSON_ArrayForEach(run, chosen) {
		cJSON_ArrayForEach(o, cJSON_GetObjectItem(run, name)) {
			c = cJSON_Duplicate(o, 1);
			if (!c)
				continue;
			snprintf(b, sizeof(b), "run %.0f: %s", summary_num(run, "id"),
				 summary_str(o, label, "(run)"));
			cJSON_DeleteItemFromObject(c, label);
			cJSON_AddStringToObject(c, label, b);
			cJSON_AddItemToArray(into, c);
		}
	}
}

static void lead_runs_contents(FILE *f, const struct report_ops *ops, const cJSON *chosen)
{
	const char *ids[66], *texts[66];
	char idbuf[64][NUM], textbuf[64][NUM];
	const cJSON *run;
	int k = 1, r = 0;

	ids[0] = "figures";
	texts[0] = "Figures";
	cJSON_ArrayForEach(run, chosen) {
		if (r == 64)
			break;
		snprintf(idbuf[r], NUM, "run-%.0f", summary_num(run, "id"));
		snprintf(textbuf[r], NUM, "Run %.0f", summary_num(run, "id"));
		ids[k] = idbuf[r];
		texts[k++] = textbuf[r++];
	}
	ids[k] = "runs";
	texts[k++] = "Runs";
	ops->heading(f, 2, "contents", "Contents");
	ops->toc(f, ids, texts, k);
}

/**
 * report_lead_runs() - the summary and contents of a report of the runs
 * @chosen (an array of summary_build()'s "run" objects), whose figures
 * are @figs: a row per run naming its config, then why cells were skipped
 * or failed and the experiments' headline numbers across the runs.
 */
void report_lead_runs(FILE *f, const struct report_ops *ops, const cJSON *chosen,
		      const struct report_fig *figs, size_t n)
{
	cJSON *all = cJSON_CreateObject();
	char b[128];
	size_t i, drawn = 0;

	for (i = 0; i < n; i++)
		drawn += figs[i].drawn;
	ops->heading(f, 2, "summary", "Summary");
	snprintf(b, sizeof(b), "%d runs, %zu figure%s drawn.", cJSON_GetArraySize(chosen),
		 drawn, drawn == 1 ? "" : "s");
	ops->para(f, b);
	lead_runs(f, ops, chosen);
	if (all && cJSON_AddArrayToObject(all, "skips") && cJSON_AddArrayToObject(all, "errors") &&
	    cJSON_AddArrayToObject(all, "experiments")) {
		gather(cJSON_GetObjectItem(all, "skips"), chosen, "skips", "cell_key");
		gather(cJSON_GetObjectItem(all, "errors"), chosen, "errors", "cell_key");
		gather(cJSON_GetObjectItem(all, "experiments"), chosen, "experiments",
		       "experiment");
		lead_why(f, ops, all);
		lead_experiments(f, ops, all);
	}
	cJSON_Delete(all);
	lead_runs_contents(f, ops, chosen);
}
