// SPDX-License-Identifier: MIT
/*
 * report-source.c - where a drawn figure's data came from, as the report's
 * caption says it: "Data: experiments quick-warm, quick-functions; 18
 * cells, N = 230 invocations; run 1." The cells and N are the ones the
 * figure's data function noted with figure_source() while it wrote the
 * points; the experiments are those of these cells in the database.
 */
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "figures.h"
#include "report-source.h"

/* Whether @e is one of the ", "-joined names in @list. */
static int listed(const char *list, const char *e)
{
	size_t n = strlen(e);
	const char *p;

	for (p = list; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 2 : 0))
		if (!strncmp(p, e, n) && (p[n] == ',' || !p[n]))
			return 1;
	return 0;
}

/* The distinct experiments of the noted cells, ", "-joined, into @buf. */
static void experiments(struct sqlite3 *h, const struct figure_ctx *ctx, char *buf,
			size_t len, int *nexp)
{
	sqlite3_stmt *st;
	const char *e;
	size_t i, l;

	buf[0] = '\0';
	*nexp = 0;
	if (analysis_prepare(h, "SELECT experiment FROM cell WHERE id = ?", 0, &st))
		return;
	for (i = 0; i < ctx->src_ncells; i++) {
		sqlite3_reset(st);
		sqlite3_bind_int64(st, 1, ctx->src_cells[i]);
		if (analysis_step(st) != SQLITE_ROW)
			continue;
		e = (const char *)sqlite3_column_text(st, 0);
		l = strlen(buf);
		if (!e || listed(buf, e))
			continue;
		if (l + strlen(e) + 8 < len) {
			snprintf(buf + l, len - l, "%s%s", l ? ", " : "", e);
			(*nexp)++;
		}
	}
	sqlite3_finalize(st);
}

/* Its experiments, cells, N with its unit, run; "Data: run R." without sources. */
static void source_only(struct sqlite3 *h, const struct figure_ctx *ctx, char *buf,
			size_t len)
{
	char exps[512];
	int nexp;

	experiments(h, ctx, exps, sizeof(exps), &nexp);
	if (!ctx->src_unit) {
		snprintf(buf, len, "Data: run %lld.", (long long)ctx->run_id);
		return;
	}
	if (!nexp) {
		snprintf(buf, len, "Data: N = %lld %s; run %lld.", ctx->src_n, ctx->src_unit,
			 (long long)ctx->run_id);
		return;
	}
	snprintf(buf, len, "Data: experiment%s %s; %zu cell%s, N = %lld %s; run %lld.",
		 nexp > 1 ? "s" : "", exps, ctx->src_ncells, ctx->src_ncells == 1 ? "" : "s",
		 ctx->src_n, ctx->src_unit, (long long)ctx->run_id);
}

/**
 * report_source_text() - the caption line of a figure drawn with @ctx
 * (plot_render_src()) of the database @h into @buf: its experiments, its
 * cells, N with its unit, its run, then the figure's sentence on its data
 * (ctx->src_note: memory figures that mix two sources of host memory).
 * Figures that did not note their sources get "Data: run R." only.
 */
void report_source_text(struct sqlite3 *h, const struct figure_ctx *ctx, char *buf,
			size_t len)
{
	size_t l;

	source_only(h, ctx, buf, len);
	l = strlen(buf);
	if (ctx->src_note[0] && l + 1 < len)
		snprintf(buf + l, len - l, " %s", ctx->src_note);
}
