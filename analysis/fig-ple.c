// SPDX-License-Identifier: MIT
/*
 * fig-ple.c - data of the ple figure (the study's Fig. 7): per workload of
 * the run and place of the co-runner (corunner-in: the host, or a second
 * VM), the median call latency with the host's pause-loop exiting on
 * (ple = default) and off, each alone (corunner = 0) and next to a
 * key-value co-runner (corunner-kind = kv: redis-server under
 * redis-benchmark), from the measured, successful calls
 * (v_invocation_measured); and both sides' slowdown next to each other:
 * the function's (median with the co-runner / median alone - 1) and the
 * co-runner's own (its requests/s alone, before the cell's instances, over
 * its requests/s in the cell window - 1: the time per request it lost;
 * cell params corunner.kv_alone_requests_per_s, corunner.kv_requests_per_s).
 * One cell per workload, place and slot: the first; a workload is drawn
 * when it has measured cells of both ple values. A run without a measured
 * cell of ple = off (where PLE cannot be turned off those cells are
 * skips) or of ple = default is -ENODATA with the reason (a skip's own
 * reason where there is one).
 *
 * Columns: label (workload, "[vm]" when the co-runner ran in a VM, N the
 * calls drawn), then the median latency (ms) of default alone, default kv,
 * off alone, off kv, then the slowdown (%) of the function with PLE on and
 * off and of the co-runner with PLE on and off ("?": no such measured cell
 * or figure). Variables: nwork, run, longest, and how many rows have each
 * slowdown: nfn_on, nfn_off, nco_on, nco_off.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-latency.h"
#include "figures.h"
#include "gp-string.h"

#define PLE_SLOTS 4            /* default alone, default kv, off alone, off kv */

struct ple_row {
	char *workload;            /* malloc'ed */
	int in_vm;                 /* corunner-in = vm */
	int64_t cell[PLE_SLOTS];   /* 0: none */
};

struct ple_rows {
	struct ple_row *r;
	size_t n;
	int have_off, have_default;
};

/* The row of @wl and @in_vm in @rows, added when new; NULL when out of memory. */
static struct ple_row *row_of(struct ple_rows *rows, const char *wl, int in_vm)
{
	struct ple_row *r;
	size_t i;

	for (i = 0; i < rows->n; i++)
		if (!strcmp(rows->r[i].workload, wl ? wl : "") && rows->r[i].in_vm == in_vm)
			return &rows->r[i];
	r = realloc(rows->r, (rows->n + 1) * sizeof(*r));
	if (!r)
		return NULL;
	rows->r = r;
	r = &rows->r[rows->n];
	memset(r, 0, sizeof(*r));
	r->workload = strdup(wl ? wl : "");
	r->in_vm = in_vm;
	if (!r->workload)
		return NULL;
	rows->n++;
	return r;
}

/*
 * The cells of the run by ple and co-runner (none or kv) and its place
 * (databases before corunner-in: the host), in cell order.
 */
static const char cells_sql[] =
	"SELECT c.id, c.workload, p.value, "
	"  (SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'corunner'), "
	"  (SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'corunner-kind'), "
	"  coalesce((SELECT value FROM cell_param WHERE cell_id = c.id "
	"            AND key = 'corunner-in'), 'host') = 'vm' "
	"FROM cell c JOIN cell_param p ON p.cell_id = c.id AND p.key = 'ple' "
	"WHERE c.run_id = ?1 AND p.value IN ('default', 'off') ORDER BY c.id";

/* Slot of a cell: 0..3, or -1 (a co-runner that is not kv: not drawn). */
static int slot_of(const char *ple, const char *corunner, const char *kind)
{
	int kv = corunner && atoi(corunner) > 0;

	if (kv && (!kind || strcmp(kind, "kv")))
		return -1;
	return (strcmp(ple, "off") ? 0 : 2) + kv;
}

static int load_rows(struct figure_ctx *ctx, const struct cell_latency *lat, size_t nlat,
		     struct ple_rows *rows)
{
	const struct cell_latency *l;
	struct ple_row *r;
	sqlite3_stmt *st;
	int ret = 0, s;

	if (analysis_prepare(ctx->h, cells_sql, ctx->run_id, &st))
		return -EIO;
	while (!ret && analysis_step(st) == SQLITE_ROW) {
		s = slot_of((const char *)sqlite3_column_text(st, 2),
			    (const char *)sqlite3_column_text(st, 3),
			    (const char *)sqlite3_column_text(st, 4));
		l = latency_find(lat, nlat, sqlite3_column_int64(st, 0));
		if (s < 0 || !l || !l->lat_ms.n)
			continue;
		r = row_of(rows, (const char *)sqlite3_column_text(st, 1),
			   sqlite3_column_int(st, 5));
		if (!r) {
			ret = -ENOMEM;
			break;
		}
		if (!r->cell[s])
			r->cell[s] = sqlite3_column_int64(st, 0);
		rows->have_off |= s >= 2;
		rows->have_default |= s < 2;
	}
	sqlite3_finalize(st);
	return ret;
}

/* Keep the workloads with cells of both ple values; 1 if any is left. */
static int keep_pairs(struct ple_rows *rows)
{
	size_t i, k = 0;

	for (i = 0; i < rows->n; i++) {
		const int64_t *c = rows->r[i].cell;

		if ((c[0] || c[1]) && (c[2] || c[3]))
			rows->r[k++] = rows->r[i];
		else
			free(rows->r[i].workload);
	}
	rows->n = k;
	return k > 0;
}

/* Why there is nothing to draw: the ple = @want cells' skip, if any. */
static void why_missing(struct figure_ctx *ctx, const char *want)
{
	sqlite3_stmt *st;
	const char *reason = NULL;
	long long k = 0;

	if (!analysis_prepare(ctx->h, "SELECT count(*), min(s.reason) FROM skip s JOIN "
			      "cell_param p ON p.cell_id = s.cell_id AND p.key = 'ple' AND "
			      "p.value = ?2 WHERE s.run_id = ?1 AND s.probe IS NULL",
			      ctx->run_id, &st)) {
		sqlite3_bind_text(st, 2, want, -1, SQLITE_STATIC);
		if (analysis_step(st) == SQLITE_ROW) {
			k = sqlite3_column_int64(st, 0);
			reason = (const char *)sqlite3_column_text(st, 1);
		}
	}
	if (k && reason)
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no measured cell with ple = %s "
			 "(%lld skipped: %s)", (long long)ctx->run_id, want, k, reason);
	else
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no measured cell with ple = %s "
			 "alone or next to a kv co-runner (configs/ple.ini runs both)",
			 (long long)ctx->run_id, want);
	sqlite3_finalize(st);
}

/* A cell param of @cell as a positive number into @v: 1, or 0 (none, not > 0). */
static int param_positive(struct figure_ctx *ctx, int64_t cell, const char *key, double *v)
{
	sqlite3_stmt *st;
	int ok = 0;

	if (analysis_prepare(ctx->h, "SELECT value FROM cell_param WHERE cell_id = ?1 AND "
			     "key = ?2", cell, &st))
		return 0;
	sqlite3_bind_text(st, 2, key, -1, SQLITE_STATIC);
	if (analysis_step(st) == SQLITE_ROW && sqlite3_column_type(st, 0) != SQLITE_NULL) {
		*v = sqlite3_column_double(st, 0);
		ok = *v > 0;
	}
	sqlite3_finalize(st);
	return ok;
}

/* The function's slowdown (%) next to the co-runner: slots @alone and @kv. */
static int write_fn_slowdown(struct figure_ctx *ctx, const struct ple_row *r, int alone,
			     const struct cell_latency *lat, size_t nlat)
{
	const struct cell_latency *a = r->cell[alone] ?
				       latency_find(lat, nlat, r->cell[alone]) : NULL;
	const struct cell_latency *k = r->cell[alone + 1] ?
				       latency_find(lat, nlat, r->cell[alone + 1]) : NULL;

	if (a && k && a->lat_ms.median > 0) {
		fprintf(ctx->data, " %.6g", 100 * (k->lat_ms.median / a->lat_ms.median - 1));
		return 1;
	}
	fprintf(ctx->data, " ?");
	return 0;
}

/* The co-runner's own slowdown (%) in the kv cell @cell (0: none). */
static int write_co_slowdown(struct figure_ctx *ctx, int64_t cell)
{
	double alone, beside;

	if (cell && param_positive(ctx, cell, "corunner.kv_alone_requests_per_s", &alone) &&
	    param_positive(ctx, cell, "corunner.kv_requests_per_s", &beside)) {
		fprintf(ctx->data, " %.6g", 100 * (alone / beside - 1));
		return 1;
	}
	fprintf(ctx->data, " ?");
	return 0;
}

static void write_rows(struct figure_ctx *ctx, const struct ple_rows *rows,
		       const struct cell_latency *lat, size_t nlat)
{
	const struct cell_latency *l;
	char lab[320];
	size_t i, longest = 0;
	long long n, have[4] = { 0 };
	int s;

	fprintf(ctx->data, "label default_alone default_kv off_alone off_kv fn_slowdown_on "
		"fn_slowdown_off corunner_slowdown_on corunner_slowdown_off\n");
	for (i = 0; i < rows->n; i++) {
		for (n = 0, s = 0; s < PLE_SLOTS; s++)
			if (rows->r[i].cell[s] && (l = latency_find(lat, nlat, rows->r[i].cell[s])))
				n += (long long)l->lat_ms.n;
		snprintf(lab, sizeof(lab), "%s%s (N=%lld)", rows->r[i].workload,
			 rows->r[i].in_vm ? " [vm]" : "", n);
		gp_data_string(ctx->data, lab);
		longest = gp_label_len(lab) > longest ? gp_label_len(lab) : longest;
		for (s = 0; s < PLE_SLOTS; s++) {
			l = rows->r[i].cell[s] ? latency_find(lat, nlat, rows->r[i].cell[s]) : NULL;
			if (!l) {
				fprintf(ctx->data, " ?");
				continue;
			}
			fprintf(ctx->data, " %.6g", l->lat_ms.median);
			figure_source(ctx, rows->r[i].cell[s], (long long)l->lat_ms.n, "calls");
		}
		have[0] += write_fn_slowdown(ctx, &rows->r[i], 0, lat, nlat);
		have[1] += write_fn_slowdown(ctx, &rows->r[i], 2, lat, nlat);
		have[2] += write_co_slowdown(ctx, rows->r[i].cell[1]);
		have[3] += write_co_slowdown(ctx, rows->r[i].cell[3]);
		fprintf(ctx->data, "\n");
	}
	figure_var_int(ctx, "nfn_on", have[0]);
	figure_var_int(ctx, "nfn_off", have[1]);
	figure_var_int(ctx, "nco_on", have[2]);
	figure_var_int(ctx, "nco_off", have[3]);
	figure_var_int(ctx, "longest", (long long)longest);
}

/**
 * fig_ple_data() - write the ple data (see the top of this file). Returns
 * 0, -ENODATA when the run lacks measured cells of ple = off or of ple =
 * default (ctx->why says which, with a skip's reason), or -errno.
 */
int fig_ple_data(struct figure_ctx *ctx)
{
	struct cell_latency *lat = NULL;
	struct ple_rows rows = { 0 };
	size_t nlat = 0;
	int ret = latency_load(ctx->h, ctx->run_id, NULL, &lat, &nlat);

	if (!ret)
		ret = load_rows(ctx, lat, nlat, &rows);
	if (!ret && !keep_pairs(&rows)) {
		if (!rows.have_off || !rows.have_default)
			why_missing(ctx, rows.have_off ? "default" : "off");
		else
			snprintf(ctx->why, sizeof(ctx->why), "run %lld has no workload measured "
				 "with both ple = default and ple = off", (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret)
		write_rows(ctx, &rows, lat, nlat);
	figure_var_int(ctx, "nwork", (long long)rows.n);
	figure_var_int(ctx, "run", ctx->run_id);
	while (rows.n)
		free(rows.r[--rows.n].workload);
	free(rows.r);
	free(lat);
	return ret;
}

const struct figure figure_ple = {
	"ple",
	"median latency with pause-loop exiting on and off, alone and next to a kv co-runner "
	"(on the host or in a second VM), and both sides' slowdown (the study's Fig. 7)",
	"ple.gp", fig_ple_data, 0,
};
