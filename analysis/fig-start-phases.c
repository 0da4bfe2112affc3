// SPDX-License-Identifier: MIT
/*
 * fig-start-phases.c - data of the start-phases figure: the start of a
 * cell's first instance by phase, one stacked bar per cell, so that a
 * function's C and Python instances (runtime = c | python, issue 32)
 * stand side by side, in ms:
 *   interpreter start  runtime.interp_ns: cvmfn's exec of python3 to the
 *                      handler's first statement (Python only)
 *   imports            runtime.import_ns: the function's libraries (Python only)
 *   init               instance.init_ns: the function's init (inputs, model)
 *   rest of the start  instance.start_ns (spawn to ready line, seen by the
 *                      harness) less the three above: process or container
 *                      or guest start, cvmfn's own start, the handler's
 *                      modules, the ready line
 *   first call         fn_ns of the instance's first call (warm-up included)
 * The first three are what the instance reported on its ready line
 * (docs/workloads.md, "Cold start of a Python instance"); a C instance has
 * no interpreter nor imports (0). A phase that was not measured (a Python
 * cell without its interpreter or import time, no first call), and a rest
 * that comes out negative (clocks that disagree), is drawn 0 high and named
 * in the bar's label ("not measured: imports, first-call"), so that no 0
 * looks measured. Cells are ordered by workload, size,
 * backend, runtime. Only cells whose first instance has start_ns and
 * init_ns are drawn.
 *
 * Columns: a header row naming the phases, then per cell: label (workload,
 * backend where the cells have several, runtime), then the five phases in
 * ms, bottom up.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"

#define RS_PHASES 5

static const char *const phase_names[RS_PHASES] = {
	"rest-of-start", "interpreter", "imports", "fn-init", "first-call",
};

#define RS_PARAM(key) \
	"(SELECT CAST(value AS REAL) FROM cell_param WHERE cell_id = c.id AND key = '" key "')"

static const char sql_cells[] =
	"SELECT c.id, c.workload, c.size, c.backend, "
	"COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'runtime'), 'c'), "
	"i.start_ns, i.init_ns, " RS_PARAM("runtime.interp_ns") ", "
	RS_PARAM("runtime.import_ns") ", "
	"(SELECT fn_ns FROM invocation v WHERE v.cell_id = c.id AND v.instance_idx = 0 "
	" AND v.fn_ns IS NOT NULL ORDER BY v.seq LIMIT 1), "
	"(SELECT count(DISTINCT backend) FROM cell WHERE run_id = ?1) "
	"FROM cell c JOIN instance i ON i.cell_id = c.id AND i.idx = 0 "
	"WHERE c.run_id = ?1 AND i.start_ns IS NOT NULL AND i.init_ns IS NOT NULL "
	"ORDER BY c.workload, CASE c.size WHEN 'test' THEN 0 WHEN 'small' THEN 1 "
	"WHEN 'large' THEN 2 ELSE 3 END, c.backend, 5, c.id";

/* Column @col of @st, an interpreter or import time: 0 for C (it has none),
 * NaN for a Python cell that did not report it. */
static double runtime_phase(sqlite3_stmt *st, int col, int python)
{
	if (sqlite3_column_type(st, col) != SQLITE_NULL)
		return sqlite3_column_double(st, col);
	return python ? NAN : 0;
}

/*
 * One cell's row: its label, then its phases in ms; the label's length.
 * Read as doubles, so that a number beyond what a figure draws stays so
 * (plot-data.h leaves it out and says so) rather than clamping to INT64_MAX.
 */
static size_t write_row(struct figure_ctx *ctx, sqlite3_stmt *st)
{
	int python = !strcmp((const char *)sqlite3_column_text(st, 4) ?: "", "python");
	double start = sqlite3_column_double(st, 5), ns[RS_PHASES];
	char label[200], missing[96] = "";
	size_t used = 0;
	int i;

	ns[1] = runtime_phase(st, 7, python);
	ns[2] = runtime_phase(st, 8, python);
	ns[3] = sqlite3_column_double(st, 6);
	ns[0] = start - ns[1] - ns[2] - ns[3];
	ns[0] = ns[0] >= 0 ? ns[0] : NAN;    /* NaN stays NaN */
	ns[4] = sqlite3_column_type(st, 9) == SQLITE_NULL ? NAN : sqlite3_column_double(st, 9);
	for (i = 0; i < RS_PHASES; i++)
		if (isnan(ns[i]) && used < sizeof(missing))
			used += (size_t)snprintf(missing + used, sizeof(missing) - used, "%s%s",
						 used ? ", " : " (not measured: ", phase_names[i]);
	if (used && used < sizeof(missing))
		snprintf(missing + used, sizeof(missing) - used, ")");
	snprintf(label, sizeof(label), "%s%s%s [%s]%s", sqlite3_column_text(st, 1),
		 sqlite3_column_int(st, 10) > 1 ? " " : "",
		 sqlite3_column_int(st, 10) > 1 ? (const char *)sqlite3_column_text(st, 3) : "",
		 sqlite3_column_text(st, 4), missing);
	figure_source(ctx, sqlite3_column_int64(st, 0), 1, "instance starts");
	gp_data_string(ctx->data, label);
	for (i = 0; i < RS_PHASES; i++)
		fprintf(ctx->data, " %.4f", isnan(ns[i]) ? 0 : ns[i] / 1e6);
	fprintf(ctx->data, "\n");
	return gp_label_len(label);
}

/**
 * fig_start_phases_data() - write the start-phases data (see the top of
 * this file). Returns 0, -ENODATA when no cell of the run has a started
 * instance, or -errno.
 */
int fig_start_phases_data(struct figure_ctx *ctx)
{
	size_t n = 0, longest = 0, len;
	sqlite3_stmt *st;
	int rc, i;

	if (analysis_prepare(ctx->h, sql_cells, ctx->run_id, &st))
		return -EIO;
	fprintf(ctx->data, "label");
	for (i = 0; i < RS_PHASES; i++)
		fprintf(ctx->data, " %s", phase_names[i]);
	fprintf(ctx->data, "\n");
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		len = write_row(ctx, st);
		longest = len > longest ? len : longest;
		n++;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	if (!n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no instance with its start "
			 "and init recorded", (long long)ctx->run_id);
		return -ENODATA;
	}
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "longest", (long long)longest);
	figure_var_int(ctx, "run", ctx->run_id);
	return 0;
}

const struct figure figure_start_phases = {
	"start-phases",
	"instance start by phase (interpreter, imports, init, first call), C and Python side by side",
	"start-phases.gp", fig_start_phases_data, 0,
};
