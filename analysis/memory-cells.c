// SPDX-License-Identifier: MIT
/*
 * memory-cells.c - what the line figures of host memory (fig-memory.c,
 * fig-memory-overhead.c) share: how many workloads a run has (their
 * titles name the workload only when there are several), running a
 * query over the run a row at a time, and the data blocks of their lines.
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "gp-string.h"

#include "memory-cells.h"

/**
 * memory_cells_workloads() - the number of distinct workloads (a workload
 * with a variant counts as its own) among the cells of ctx->run_id (0 when
 * the query fails).
 */
int memory_cells_workloads(struct figure_ctx *ctx)
{
	sqlite3_stmt *st;
	int n = 0;

	if (analysis_prepare(ctx->h, "WITH " MEMORY_CELLS_CTE " SELECT count(DISTINCT wl)"
			     " FROM p", ctx->run_id, &st))
		return 0;
	if (analysis_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/**
 * memory_cells_each() - run @sql with ?1 bound to ctx->run_id and hand
 * each row to @row with @arg. Returns 0 or -EIO.
 */
int memory_cells_each(struct figure_ctx *ctx, const char *sql, memory_row_fn row, void *arg)
{
	sqlite3_stmt *st;
	int rc;

	if (analysis_prepare(ctx->h, sql, ctx->run_id, &st))
		return -EIO;
	while ((rc = analysis_step(st)) == SQLITE_ROW)
		row(ctx, arg, st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/**
 * memory_lines_point() - a point at @vms of the line of workload @wl and
 * variant @var (its title: the workload only when l->multi_wl, then the
 * variant and @suffix): a new data block, headed by the title and @cols,
 * when the line changes. The caller then writes the point's row.
 */
void memory_lines_point(struct figure_ctx *ctx, struct memory_lines *l, const char *wl,
			const char *var, const char *suffix, const char *cols, int vms)
{
	char series[sizeof(l->series)];

	snprintf(series, sizeof(series), "%s%s%s%s", l->multi_wl ? (wl ? wl : "?") : "",
		 l->multi_wl ? ": " : "", var ? var : "?", suffix);
	if (strcmp(series, l->series)) {
		if (l->blocks)
			fprintf(ctx->data, "\n\n");
		gp_data_string(ctx->data, series);
		fprintf(ctx->data, " %s\n", cols);
		snprintf(l->series, sizeof(l->series), "%s", series);
		l->blocks++;
		l->pts = 0;
	}
	l->pts++;
	l->maxpts = l->pts > l->maxpts ? l->pts : l->maxpts;
	l->maxvms = vms > l->maxvms ? vms : l->maxvms;
}

/**
 * memory_src_vars() - say where the host memory of the cells @src counts
 * came from: the variable hostsrc for the axis ("memory cgroups", "summed
 * PSS" or "memory cgroups, else summed PSS") and, when the figure mixes
 * the two, srcnote (lines of a label; else "") and ctx->src_note, the
 * report's caption.
 */
void memory_src_vars(struct figure_ctx *ctx, const struct memory_src *src)
{
	const char *axis = "summed PSS";

	ctx->src_note[0] = '\0';
	if (src->memcg && src->pss) {
		axis = "memory cgroups, else summed PSS";
		snprintf(ctx->src_note, sizeof(ctx->src_note), "Host memory mixes two "
			 "sources: %lld cell%s drawn from %s memory cgroup, %lld from summed "
			 "PSS (no memcg_usage_kb; PSS misses a CVM's private memory).",
			 src->memcg, src->memcg == 1 ? "" : "s",
			 src->memcg == 1 ? "its" : "their", src->pss);
	} else if (src->memcg) {
		axis = "memory cgroups";
	}
	figure_var_str(ctx, "hostsrc", axis);
	figure_var_text(ctx, "srcnote", ctx->src_note, 100);
}

/**
 * memory_lines_run() - @sql's rows through @row (memory_cells_each), with
 * @l set up first, then the variables nblocks, maxvms, maxpts (the most
 * points of a line: two points are drawn as points, not a trend) and run. Returns 0,
 * -ENODATA when no line was written (ctx->why is the caller's to say), or
 * -EIO.
 */
int memory_lines_run(struct figure_ctx *ctx, struct memory_lines *l, const char *sql,
		     memory_row_fn row)
{
	int ret;

	l->series[0] = '\0';
	l->blocks = 0;
	l->maxvms = 1;
	l->pts = l->maxpts = 0;
	l->multi_wl = memory_cells_workloads(ctx) > 1;
	ret = memory_cells_each(ctx, sql, row, l);
	if (ret)
		return ret;
	figure_var_int(ctx, "nblocks", l->blocks);
	figure_var_int(ctx, "maxvms", l->maxvms);
	figure_var_int(ctx, "maxpts", l->maxpts);
	figure_var_int(ctx, "run", ctx->run_id);
	return l->blocks ? 0 : -ENODATA;
}
