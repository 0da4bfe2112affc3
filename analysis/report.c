// SPDX-License-Identifier: MIT
/*
 * report.c - the body of the report page, the same for Markdown and HTML,
 * in the order a reader needs it: a summary (what ran, cells ok / skipped
 * / failed and why, the headline numbers of each experiment with their
 * intervals), the contents, the figures (each captioned with what it
 * shows and where its data came from; then those not drawn and why), the
 * system suite's findings and overheads (report-suite.c) when the database
 * has service cells, the cells and the study tables, the fidelity flags (every metric named
 * flag_* that a probe raised on a cell, view v_flag: a new flag shows
 * here without a change), the skips and the errors, and last the runs,
 * the run's command line and configuration and its environment, grouped
 * (report-env.c). Content comes from summary_build(), plus "experiments"
 * (report-summary.c) and "tables" (idle-tables.c) added by cmd-report.c.
 * A report of several runs (`report --run all`) has one summary naming
 * each run and its config, every figure drawn for any of them (labelled
 * with its run; those drawn for none, with each run's reason), then a
 * section per run with its cells, tables, flags, skips, errors,
 * configuration and environment, and last the runs of the database.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "figures.h"
#include "idle-tables.h"
#include "log.h"
#include "out-file.h"
#include "report.h"
#include "summary.h"

#define NUM 32                    /* room for one formatted number */

/**
 * report_fig_file() - the name of @rf's files, without .png or .svg:
 * rf->file, or the figure's name when that is empty (a one-run report).
 */
const char *report_fig_file(const struct report_fig *rf)
{
	return rf->file[0] ? rf->file : rf->fig->name;
}

/**
 * report_heading() - a section heading of the run @rid: level 2 with the
 * anchor @id in a one-run report (@rid < 0); level 3 with the anchor
 * "@id-rRID" inside the run's own section of a report of several runs.
 */
void report_heading(FILE *f, const struct report_ops *ops, long long rid, const char *id,
		    const char *title)
{
	char anchor[80];

	if (rid < 0) {
		ops->heading(f, 2, id, title);
		return;
	}
	snprintf(anchor, sizeof(anchor), "%s-r%lld", id, rid);
	ops->heading(f, 3, anchor, title);
}

static void rep_runs(FILE *f, const struct report_ops *ops, const cJSON *runs)
{
	static const char *const head[] = { "run", "started", "ended", "status",
		"vantage", "version", "host", "cells", "ok", "skipped", "failed" };
	char b[5][NUM];
	const cJSON *r;

	ops->heading(f, 2, "runs", "Runs in this database");
	ops->table_begin(f, head, 11);
	cJSON_ArrayForEach(r, runs) {
		const char *row[] = {
			summary_fmt(r, "id", "%.0f", b[0], NUM),
			summary_str(r, "started_at", "-"), summary_str(r, "ended_at", "-"),
			summary_str(r, "status", "-"), summary_str(r, "vantage", "-"),
			summary_str(r, "version", "-"), summary_str(r, "hostname", "-"),
			summary_fmt(r, "cells_total", "%.0f", b[1], NUM),
			summary_fmt(r, "cells_ok", "%.0f", b[2], NUM),
			summary_fmt(r, "cells_skipped", "%.0f", b[3], NUM),
			summary_fmt(r, "cells_failed", "%.0f", b[4], NUM),
		};
		ops->table_row(f, row, 11);
	}
	ops->table_end(f);
}

static void rep_run(FILE *f, const struct report_ops *ops, const cJSON *run, long long rid)
{
	static const char *const head[] = { "field", "value" };
	static const char *const fields[][2] = {
		{ "command_line", "command line" }, { "version", "cvmbench version" },
		{ "vantage", "vantage" }, { "hostname", "host" }, { "status_text", "status" },
		{ "started_at", "started" }, { "ended_at", "ended" },
		{ "config_path", "config file" } };
	char title[64];
	size_t i;

	snprintf(title, sizeof(title), "Run %.0f", summary_num(run, "id"));
	report_heading(f, ops, rid, "run", rid < 0 ? title : "Command line and configuration");
	ops->table_begin(f, head, 2);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const char *row[] = { fields[i][1], summary_str(run, fields[i][0], "-") };

		ops->table_row(f, row, 2);
	}
	ops->table_end(f);
	if (rid < 0)
		ops->heading(f, 3, "config", "Configuration");
	ops->fold_begin(f, summary_str(run, "config_path", "configuration"), 0);
	ops->pre(f, summary_str(run, "config_text", "(not recorded)"));
	ops->fold_end(f);
}

/*
 * @arr as a table of its members @cols, headed @head; NULL cell: "(run)".
 * The table is left open for more rows unless @end.
 */
static void rep_rows(FILE *f, const struct report_ops *ops, const cJSON *arr,
		     const char *const *cols, const char *const *head, int n, int end)
{
	const char *row[8];
	const cJSON *o;
	int i;

	ops->table_begin(f, head, n);
	cJSON_ArrayForEach(o, arr) {
		for (i = 0; i < n && i < 8; i++)
			row[i] = summary_str(o, cols[i],
					     strcmp(cols[i], "cell_key") ? "-" : "(run)");
		ops->table_row(f, row, n);
	}
	if (end)
		ops->table_end(f);
}

static void threads_text(const cJSON *c, char *buf, size_t len)
{
	double t = summary_num(c, "threads");

	if (t == 0)
		snprintf(buf, len, "auto");
	else
		snprintf(buf, len, "%.0f", t);
}

/*
 * The flags raised on the cell @key (every flag_* metric, v_flag: a flag a
 * new probe raises shows here without a change), ", "-joined, or "-".
 */
static const char *cell_flags(const cJSON *flags, const char *key, char *buf, size_t len)
{
	const cJSON *o;
	size_t l;

	buf[0] = '\0';
	cJSON_ArrayForEach(o, flags) {
		if (strcmp(summary_str(o, "cell_key", ""), key))
			continue;
		l = strlen(buf);
		snprintf(buf + l, len - l, "%s%s", l ? ", " : "", summary_str(o, "name", "?"));
	}
	return buf[0] ? buf : "-";
}

static void rep_cell(FILE *f, const struct report_ops *ops, const cJSON *c,
		     const cJSON *flags)
{
	char fl[256];
	const cJSON *l = cJSON_GetObjectItem(c, "latency_ms");
	const cJSON *fn = cJSON_GetObjectItem(c, "fn_ms");
	char b[10][NUM], ci[2 * NUM + 32];

	threads_text(c, b[0], NUM);
	/* with the coverage it really has: below 95 % for n < 6 ([min, max]) */
	snprintf(ci, sizeof(ci), "%s - %s (%.1f %%)", summary_ms(l, "ci_lo", b[1], NUM),
		 summary_ms(l, "ci_hi", b[2], NUM), 100 * summary_num(l, "ci_level"));
	const char *row[] = {
		summary_str(c, "cell_key", "-"), summary_str(c, "workload", "-"),
		summary_str(c, "size", "-"), summary_str(c, "backend", "-"), b[0],
		summary_str(c, "mode", "-"), summary_str(c, "status", "-"),
		summary_fmt(c, "n_measured", "%.0f", b[3], NUM),
		summary_fmt(c, "n_failed", "%.0f", b[4], NUM),
		summary_ms(l, "median", b[5], NUM), l && !cJSON_IsNull(l) ? ci : "-",
		summary_ms(l, "p25", b[6], NUM),
		summary_ms(l, "p75", b[7], NUM),
		summary_ms(l, "p99", b[8], NUM),
		summary_ms(fn, "median", b[9], NUM),
		cell_flags(flags, summary_str(c, "cell_key", ""), fl, sizeof(fl)),
	};
	ops->table_row(f, row, 16);
}

static void rep_cells(FILE *f, const struct report_ops *ops, const cJSON *run, long long rid)
{
	static const char *const head[] = { "cell", "workload", "size", "backend",
		"threads", "mode", "status", "n", "failed", "median ms",
		"95 % CI of median", "p25 ms", "p75 ms", "p99 ms", "fn median ms", "flags" };
	const cJSON *c, *cells = cJSON_GetObjectItem(run, "cells");

	report_heading(f, ops, rid, "cells", "Cells");
	ops->para(f, "Latency is the harness round trip of the measured, successful "
		  "invocations; fn is the function's own time inside cvmfn. "
		  "The CI of the median is distribution-free (order statistics), with "
		  "the coverage it achieves; p99 is given from 100 invocations on.");
	ops->table_begin(f, head, 16);
	cJSON_ArrayForEach(c, cells)
		rep_cell(f, ops, c, cJSON_GetObjectItem(run, "flags"));
	ops->table_end(f);
}

/* The study tables of the run (analysis/idle-tables.c): title, note, rows. */
static void rep_tables(FILE *f, const struct report_ops *ops, const cJSON *run, long long rid)
{
	const char *head[IDLE_TABLE_MAXCOLS], *row[IDLE_TABLE_MAXCOLS];
	const cJSON *t, *h, *r, *c;
	int i, n;

	cJSON_ArrayForEach(t, cJSON_GetObjectItem(run, "tables")) {
		h = cJSON_GetObjectItem(t, "head");
		n = cJSON_GetArraySize(h);
		n = n > IDLE_TABLE_MAXCOLS ? IDLE_TABLE_MAXCOLS : n;
		for (i = 0; i < n; i++)
			head[i] = cJSON_GetArrayItem(h, i)->valuestring;
		ops->heading(f, rid < 0 ? 2 : 3, NULL, summary_str(t, "title", "-"));
		ops->para(f, summary_str(t, "note", ""));
		ops->table_begin(f, head, n);
		cJSON_ArrayForEach(r, cJSON_GetObjectItem(t, "rows")) {
			for (i = 0; i < n; i++) {
				c = cJSON_GetArrayItem(r, i);
				row[i] = cJSON_IsString(c) ? c->valuestring : "-";
			}
			ops->table_row(f, row, n);
		}
		ops->table_end(f);
	}
}

/* Whether the figure of @figs[i] was drawn for any run of the report. */
static int drawn_any(const struct report_fig *figs, size_t n, size_t i)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (figs[k].fig == figs[i].fig && figs[k].drawn)
			return 1;
	return 0;
}

/*
 * The figures not drawn, and why: in a report of several runs (@multi)
 * those drawn for none of them, a row per run with that run's reason.
 */
static void rep_not_drawn(FILE *f, const struct report_ops *ops,
			  const struct report_fig *figs, size_t n, int multi)
{
	static const char *const head[] = { "figure", "run", "why it was not drawn" };
	static const char *const head1[] = { "figure", "why it was not drawn" };
	char rid[NUM];
	size_t i;

	ops->heading(f, 3, "not-drawn", "Figures not drawn");
	if (multi)
		ops->para(f, "Each figure drawn for none of the runs, with each run's reason.");
	ops->table_begin(f, multi ? head : head1, multi ? 3 : 2);
	for (i = 0; i < n; i++) {
		const char *row[] = { figs[i].fig->name, rid, figs[i].why };
		const char *row1[] = { figs[i].fig->name, figs[i].why };

		if (figs[i].drawn || (multi && drawn_any(figs, n, i)))
			continue;
		snprintf(rid, sizeof(rid), "%lld", figs[i].run_id);
		ops->table_row(f, multi ? row : row1, multi ? 3 : 2);
	}
	ops->table_end(f);
}

static void rep_figures(FILE *f, const struct report_ops *ops,
			const struct report_fig *figs, size_t n, int multi)
{
	char id[128], title[128];
	size_t i, missing = 0;

	ops->heading(f, 2, "figures", "Figures");
	for (i = 0; i < n; i++) {
		if (!figs[i].drawn) {
			missing += !multi || !drawn_any(figs, n, i);
			continue;
		}
		snprintf(id, sizeof(id), "fig-%s", report_fig_file(&figs[i]));
		if (multi)
			snprintf(title, sizeof(title), "%s (run %lld)", figs[i].fig->name,
				 figs[i].run_id);
		ops->heading(f, 3, id, multi ? title : figs[i].fig->name);
		ops->image(f, report_fig_file(&figs[i]), figs[i].fig->description,
			   figs[i].source);
	}
	if (missing)
		rep_not_drawn(f, ops, figs, n, multi);
}

/* A row of the Errors table for each figure of run @rid (< 0: any) that failed to draw. */
static size_t rep_figure_errors(FILE *f, const struct report_ops *ops,
				const struct report_fig *figs, size_t n, long long rid, int write)
{
	char src[96];
	size_t i, k = 0;

	for (i = 0; i < n; i++) {
		const char *row[] = { "(report)", "-", src, figs[i].why };

		if (!figs[i].failed || (rid >= 0 && figs[i].run_id != rid))
			continue;
		k++;
		snprintf(src, sizeof(src), "figure %s", figs[i].fig->name);
		if (write)
			ops->table_row(f, row, 4);
	}
	return k;
}

static void rep_skips_errors(FILE *f, const struct report_ops *ops, const cJSON *run,
			     const struct report_fig *figs, size_t n, long long rid)
{
	static const char *const skip_cols[] = { "cell_key", "probe", "reason" };
	static const char *const skip_head[] = { "cell", "probe", "reason" };
	static const char *const err_cols[] = { "cell_key", "at", "source", "message" };
	static const char *const err_head[] = { "cell", "at", "source", "message" };
	static const char *const flag_cols[] = { "cell_key", "probe", "name", "meaning" };
	static const char *const flag_head[] = { "cell", "probe", "flag", "meaning" };
	const cJSON *skips = cJSON_GetObjectItem(run, "skips");
	const cJSON *errors = cJSON_GetObjectItem(run, "errors");
	const cJSON *flags = cJSON_GetObjectItem(run, "flags");

	report_heading(f, ops, rid, "flags", "Fidelity flags");
	if (!cJSON_GetArraySize(flags))
		ops->para(f, "No check flagged a measurement.");
	else
		rep_rows(f, ops, flags, flag_cols, flag_head, 4, 1);
	report_heading(f, ops, rid, "skips", "Skips");
	if (!cJSON_GetArraySize(skips))
		ops->para(f, "Nothing was skipped.");
	else
		rep_rows(f, ops, skips, skip_cols, skip_head, 3, 1);
	report_heading(f, ops, rid, "errors", "Errors");
	if (!cJSON_GetArraySize(errors) && !rep_figure_errors(f, ops, figs, n, rid, 0)) {
		ops->para(f, "No errors.");
		return;
	}
	rep_rows(f, ops, errors, err_cols, err_head, 4, 0);
	rep_figure_errors(f, ops, figs, n, rid, 1);
	ops->table_end(f);
}

/* The newest capacity plan (plan-table.c), when the database has one: its answers. */
static void rep_plan(FILE *f, const struct report_ops *ops, const cJSON *top)
{
	static const char *const head[] = { "platform", "twin", "target %", "MiB", "twin MiB",
					    "extra MiB", "95 % interval" };
	const cJSON *plan = cJSON_GetObjectItem(top, "plan"), *r;
	char num[4][32], iv[80], title[96];
	const char *row[7];

	if (!plan)
		return;
	snprintf(title, sizeof(title), "Capacity plan %.0f", summary_num(plan, "plan"));
	ops->heading(f, 2, "plan", title);
	ops->para(f, "The extra warm memory a CVM pool needs over its regular twin to keep "
		  "cold starts at or below each target (TTL ladder; cvmbench plan --config, "
		  "docs/capacity.md; figures plan-pareto and plan-budget).");
	ops->table_begin(f, head, 7);
	cJSON_ArrayForEach(r, cJSON_GetObjectItem(plan, "targets")) {
		snprintf(num[0], 32, "%g", summary_num(r, "target_pct"));
		snprintf(num[1], 32, "%.1f", summary_num(r, "mem_mib"));
		snprintf(num[2], 32, "%.1f", summary_num(r, "twin_mem_mib"));
		snprintf(num[3], 32, "%.1f", summary_num(r, "extra_mib"));
		snprintf(iv, sizeof(iv), "%.1f .. %.1f", summary_num(r, "extra_lo_mib"),
			 summary_num(r, "extra_hi_mib"));
		row[0] = summary_str(r, "platform", "-");
		row[1] = summary_str(r, "twin", "-");
		row[2] = num[0], row[3] = num[1], row[4] = num[2], row[5] = num[3], row[6] = iv;
		ops->table_row(f, row, 7);
	}
	ops->table_end(f);
}

/* A report of one run: its summary, figures, cells, tables, skips, then the runs. */
static void rep_body_one(FILE *f, const struct report_ops *ops, const cJSON *top,
			 const struct report_fig *figs, size_t n)
{
	const cJSON *run = cJSON_GetObjectItem(top, "run");

	report_lead(f, ops, run, figs, n);
	rep_figures(f, ops, figs, n, 0);
	report_suite(f, ops, top);
	rep_cells(f, ops, run, -1);
	rep_tables(f, ops, run, -1);
	rep_plan(f, ops, top);
	rep_skips_errors(f, ops, run, figs, n, -1);
	rep_runs(f, ops, cJSON_GetObjectItem(top, "runs"));
	rep_run(f, ops, run, -1);
	report_env(f, ops, cJSON_GetObjectItem(run, "environment"), -1);
}

/*
 * A report of several runs (@top's "chosen"): one summary naming each run
 * and its config, every figure of every run, then a section per run.
 */
static void rep_body_runs(FILE *f, const struct report_ops *ops, const cJSON *top,
			  const struct report_fig *figs, size_t n)
{
	const cJSON *chosen = cJSON_GetObjectItem(top, "chosen"), *run;
	char id[NUM], title[512];
	long long rid;

	report_lead_runs(f, ops, chosen, figs, n);
	rep_figures(f, ops, figs, n, 1);
	report_suite(f, ops, top);
	rep_plan(f, ops, top);
	cJSON_ArrayForEach(run, chosen) {
		rid = (long long)summary_num(run, "id");
		snprintf(id, sizeof(id), "run-%lld", rid);
		snprintf(title, sizeof(title), "Run %lld: %s (%s)", rid,
			 summary_str(run, "config_path", "(no config file)"),
			 summary_str(run, "status_text", "-"));
		ops->heading(f, 2, id, title);
		rep_cells(f, ops, run, rid);
		rep_tables(f, ops, run, rid);
		rep_skips_errors(f, ops, run, figs, n, rid);
		rep_run(f, ops, run, rid);
		report_env(f, ops, cJSON_GetObjectItem(run, "environment"), rid);
	}
	rep_runs(f, ops, cJSON_GetObjectItem(top, "runs"));
}

/**
 * report_write() - write the report page for @top (from summary_build();
 * with "chosen", an array of the runs' "run" objects, a report of several
 * runs) and the figures @figs to the file @name of @dir with the backend @ops,
 * under a temporary name renamed into place (out-file.h). Returns 0,
 * -EPERM when @name may not be written (a symlink) or -EIO (reported).
 */
int report_write(const struct out_dir *dir, const char *name, const struct report_ops *ops,
		 const struct cJSON *top, const struct report_fig *figs, size_t n)
{
	const cJSON *run = cJSON_GetObjectItem(top, "run");
	struct out_file o;
	FILE *f;
	int ret = out_file_create_tmp(&o, dir, name);

	if (ret)
		return ret == -EPERM ? ret : -EIO;
	f = o.f;
	ops->begin(f, "cvmbench report");
	if (cJSON_IsArray(cJSON_GetObjectItem(top, "chosen"))) {
		rep_body_runs(f, ops, top, figs, n);
	} else if (cJSON_IsObject(run)) {
		rep_body_one(f, ops, top, figs, n);
	} else {
		ops->para(f, "The database holds no run.");
		rep_runs(f, ops, cJSON_GetObjectItem(top, "runs"));
	}
	ops->end(f);
	return out_file_commit(&o) ? -EIO : 0;
}
