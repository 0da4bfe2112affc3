// SPDX-License-Identifier: MIT
/*
 * fig-ple.c - data of the ple figure (the study's Fig. 7): per workload of
 * the run, the median call latency with the host's pause-loop exiting on
 * (ple = default) and off, each alone (corunner = 0) and next to a
 * key-value co-runner (corunner-kind = kv: redis-server under
 * redis-benchmark), from the measured, successful calls
 * (v_invocation_measured). One cell per workload and slot: the first; a
 * workload is drawn when it has measured cells of both ple values. A run
 * without a measured cell of ple = off (where PLE cannot be turned off
 * those cells are skips) or of ple = default is -ENODATA with the reason
 * (a skip's own reason where there is one).
 *
 * Columns: label (workload, N the calls drawn for it), then the median
 * latency (ms) of default alone, default kv, off alone, off kv ("?": no
 * such measured cell). Variables: nwork, run, longest.
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
	int64_t cell[PLE_SLOTS];   /* 0: none */
};

struct ple_rows {
	struct ple_row *r;
	size_t n;
	int have_off, have_default;
};

/* The row of @wl in @rows, added when new; NULL when out of memory. */
static struct ple_row *row_of(struct ple_rows *rows, const char *wl)
{
	struct ple_row *r;
	size_t i;

	for (i = 0; i < rows->n; i++)
		if (!strcmp(rows->r[i].workload, wl ? wl : ""))
			return &rows->r[i];
	r = realloc(rows->r, (rows->n + 1) * sizeof(*r));
	if (!r)
		return NULL;
	rows->r = r;
	r = &rows->r[rows->n];
	memset(r, 0, sizeof(*r));
	r->workload = strdup(wl ? wl : "");
	if (!r->workload)
		return NULL;
	rows->n++;
	return r;
}

/* The cells of the run by ple and co-runner (none or kv), in cell order. */
static const char cells_sql[] =
	"SELECT c.id, c.workload, p.value, "
	"  (SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'corunner'), "
	"  (SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'corunner-kind') "
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
		r = row_of(rows, (const char *)sqlite3_column_text(st, 1));
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

static void write_rows(struct figure_ctx *ctx, const struct ple_rows *rows,
		       const struct cell_latency *lat, size_t nlat)
{
	const struct cell_latency *l;
	char lab[320];
	size_t i, longest = 0;
	long long n;
	int s;

	fprintf(ctx->data, "label default_alone default_kv off_alone off_kv\n");
	for (i = 0; i < rows->n; i++) {
		for (n = 0, s = 0; s < PLE_SLOTS; s++)
			if (rows->r[i].cell[s] && (l = latency_find(lat, nlat, rows->r[i].cell[s])))
				n += (long long)l->lat_ms.n;
		snprintf(lab, sizeof(lab), "%s (N=%lld)", rows->r[i].workload, n);
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
		fprintf(ctx->data, "\n");
	}
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
	"(the study's Fig. 7)",
	"ple.gp", fig_ple_data, 0,
};
