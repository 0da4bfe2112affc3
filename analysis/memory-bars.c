// SPDX-License-Identifier: MIT
/*
 * memory-bars.c - the data of memory-bars.gp for fig-memory-mixed.c and
 * fig-consolidation.c: the cells of a run with the hostmem probe's host
 * memory (memory cgroups, else summed PSS: memory-cells.h) that the figure
 * takes (struct memory_bars), grouped by the label the figure gives them;
 * per group the mean host memory in MiB of the regular "ksm on" and "ksm
 * off" cells and of the "model", "sev-snp" and "tdx" cells (the
 * confidential type a cell got, cell-series.h, under any KSM setting, at
 * the eager acceptance point: a lazy cell, guest-accept, is drawn by the
 * line figures and the table only; NaN: the group has no such cell), the number of cells of each and the source
 * of each bar (memcg, pss, memcg+pss; "-": no bar). A header row, then
 *   1 label  2 ksm on  3 ksm off  4 model  5 sev-snp  6 tdx  7..11 N of each
 *   12..16 source of each
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "analysis.h"
#include "gp-string.h"
#include "memory-bars.h"
#include "memory-cells.h"

#define VARIANT_MEAN(cond) "avg(CASE WHEN " cond " THEN host END) / 1024.0, "
#define VARIANT_N(cond) "count(CASE WHEN " cond " THEN host END)"
#define VARIANT_SRC(cond) ", " MEMORY_SOURCE("(" cond ")")
#define IS_ON "variant = 'ksm on'"
#define IS_OFF "variant = 'ksm off'"
#define EAGER " AND accept IS NOT 'lazy'"
#define IS_MODEL "conf = 'model'" EAGER
#define IS_SNP "conf = 'sev-snp'" EAGER
#define IS_TDX "conf = 'tdx'" EAGER
#define IS_BAR "(" IS_ON " OR " IS_OFF " OR (conf IN ('model', 'sev-snp', 'tdx')" EAGER "))"
#define NBARS 5         /* the columns of bars, 2 .. NBARS + 1 */
#define COL_SRC (2 * NBARS + 1)   /* the first source column of the query */

static void write_value(FILE *f, sqlite3_stmt *st, int col)
{
	if (sqlite3_column_type(st, col) == SQLITE_NULL)
		fprintf(f, " NaN");
	else
		fprintf(f, " %.3f", sqlite3_column_double(st, col));
}

/* Columns 2..NBARS + 1 that hold a bar in some group: gnuplot refuses an empty one. */
static void note_columns(sqlite3_stmt *st, int *has)
{
	int j;

	for (j = 0; j < NBARS; j++)
		if (sqlite3_column_int(st, NBARS + 1 + j))
			has[j] = 1;
}

/* The source of each bar: columns COL_SRC .. COL_SRC + NBARS - 1. */
static void write_sources(FILE *f, sqlite3_stmt *st)
{
	const char *s;
	int j;

	for (j = 0; j < NBARS; j++) {
		s = (const char *)sqlite3_column_text(st, COL_SRC + j);
		fprintf(f, " ");
		gp_data_string(f, s ? s : "-");
	}
}

static int write_groups(struct figure_ctx *ctx, sqlite3_stmt *st, int *groups, int *has,
			struct memory_src *src)
{
	int rc, j, n;

	fprintf(ctx->data, "label \"ksm on\" \"ksm off\" model sev-snp tdx"
		" n_on n_off n_model n_snp n_tdx src_on src_off src_model src_snp src_tdx\n");
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		for (n = 0, j = 1; j <= NBARS; j++)
			n += sqlite3_column_int(st, NBARS + j);
		if (!n)
			continue;        /* only regular ksm unchanged cells: no bar of its own */
		gp_data_string(ctx->data, (const char *)sqlite3_column_text(st, 0));
		for (j = 1; j <= NBARS; j++)
			write_value(ctx->data, st, j);
		for (j = 1; j <= NBARS; j++)
			fprintf(ctx->data, " %d", sqlite3_column_int(st, NBARS + j));
		write_sources(ctx->data, st);
		fprintf(ctx->data, "\n");
		src->memcg += sqlite3_column_int64(st, COL_SRC + NBARS);
		src->pss += sqlite3_column_int64(st, COL_SRC + NBARS + 1);
		note_columns(st, has);
		(*groups)++;
	}
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/**
 * memory_bars_data() - write memory-bars.gp's data (see the top of this
 * file) for the cells @b takes, and its variables (ngroups, run, title,
 * cols: the data columns that hold a bar in some group, as "2 3 4"; nbars;
 * hostsrc, srcnote: memory_src_vars()).
 * Returns 0, -ENODATA (ctx->why from @b) when no group has a bar, or -errno.
 */
int memory_bars_data(struct figure_ctx *ctx, const struct memory_bars *b)
{
	char sql[16384], cols[16] = "";
	struct memory_src src = { 0, 0 };
	sqlite3_stmt *st;
	int groups = 0, has[NBARS] = { 0 }, ret, j, n;

	n = snprintf(sql, sizeof(sql), "WITH " MEMORY_CELLS_CTE " SELECT %s AS label, "
		 VARIANT_MEAN(IS_ON) VARIANT_MEAN(IS_OFF) VARIANT_MEAN(IS_MODEL)
		 VARIANT_MEAN(IS_SNP) VARIANT_MEAN(IS_TDX)
		 VARIANT_N(IS_ON) ", " VARIANT_N(IS_OFF) ", " VARIANT_N(IS_MODEL) ", "
		 VARIANT_N(IS_SNP) ", " VARIANT_N(IS_TDX)
		 VARIANT_SRC(IS_ON) VARIANT_SRC(IS_OFF) VARIANT_SRC(IS_MODEL)
		 VARIANT_SRC(IS_SNP) VARIANT_SRC(IS_TDX)
		 ", " MEMORY_N_MEMCG(IS_BAR) ", " MEMORY_N_PSS(IS_BAR)
		 " FROM p WHERE host IS NOT NULL AND (%s) GROUP BY label ORDER BY label",
		 b->label_sql, b->where_sql);
	if (n < 0 || (size_t)n >= sizeof(sql))
		return -ENOSPC;
	if (analysis_prepare(ctx->h, sql, ctx->run_id, &st))
		return -EIO;
	ret = write_groups(ctx, st, &groups, has, &src);
	sqlite3_finalize(st);
	if (ret)
		return ret;
	for (j = 0; j < NBARS; j++)
		if (has[j])
			snprintf(cols + strlen(cols), sizeof(cols) - strlen(cols), "%s%d",
				 cols[0] ? " " : "", j + 2);
	figure_var_str(ctx, "cols", cols);
	figure_var_int(ctx, "ngroups", groups);
	figure_var_int(ctx, "nbars", NBARS);
	figure_var_int(ctx, "run", ctx->run_id);
	figure_var_str(ctx, "title", b->title);
	memory_src_vars(ctx, &src);
	if (!groups) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has %s", (long long)ctx->run_id,
			 b->nodata);
		return -ENODATA;
	}
	return 0;
}
