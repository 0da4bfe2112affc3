// SPDX-License-Identifier: MIT
/*
 * fig-memory.c - data of the study's Fig. 3 a-c: host memory (the summed
 * PSS of a cell's instance processes, from the hostmem probe) against the
 * VMs per cell (cell_param `vms`; 1 where the key is absent: one VM per
 * cell), one line per workload and memory variant: "ksm on", "ksm off",
 * "model" (confidential = model; its KSM setting beside it when it is not
 * off). Cells without the hostmem probe's pss_kb are left out and counted
 * (variable `nodata`). One gnuplot block per line, headed by its title:
 *   vms, mean MiB, min MiB, max MiB, N (cells at that point)
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"
#include "gp-string.h"
#include "hostmem-metrics.h"

static const char *const SQL =
	"WITH p AS (SELECT c.id, "
	" (SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'workload') AS wl,"
	" COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'ksm'),"
	"  'unchanged') AS ksm,"
	" COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND"
	"  key = 'confidential'), 'none') AS conf,"
	" CAST(COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND"
	"  key = 'vms'), '1') AS INTEGER) AS vms,"
	" (SELECT value FROM metric WHERE cell_id = c.id AND probe = '" HOSTMEM_PROBE "'"
	"  AND name = '" HOSTMEM_PSS "' AND invocation_id IS NULL) AS pss"
	" FROM cell c WHERE c.run_id = ?1) "
	"SELECT wl, CASE WHEN conf = 'model' THEN"
	"  'model' || CASE WHEN ksm = 'off' THEN '' ELSE ', ksm ' || ksm END"
	"  ELSE 'ksm ' || ksm END AS variant, vms, avg(pss) / 1024.0, min(pss) / 1024.0,"
	" max(pss) / 1024.0, count(pss), sum(pss IS NULL) "
	"FROM p GROUP BY wl, variant, vms ORDER BY wl, variant, vms";

struct mem_state {
	char series[160];
	int blocks, maxvms, multi_wl, nodata;
	int pts, maxpts;          /* points of the current line, of the longest */
	char first_wl[64];
};

static void write_row(struct figure_ctx *ctx, struct mem_state *m, sqlite3_stmt *st)
{
	char series[160];
	const char *wl = (const char *)sqlite3_column_text(st, 0);
	const char *var = (const char *)sqlite3_column_text(st, 1);
	int vms = sqlite3_column_int(st, 2);

	m->nodata += sqlite3_column_int(st, 7);
	if (!sqlite3_column_int(st, 6))
		return;
	snprintf(series, sizeof(series), "%s%s%s", m->multi_wl ? (wl ? wl : "?") : "",
		 m->multi_wl ? ": " : "", var ? var : "?");
	if (strcmp(series, m->series)) {
		if (m->blocks)
			fprintf(ctx->data, "\n\n");
		gp_data_string(ctx->data, series);
		fprintf(ctx->data, " min max n\n");
		snprintf(m->series, sizeof(m->series), "%s", series);
		m->blocks++;
		m->pts = 0;
	}
	m->pts++;
	m->maxpts = m->pts > m->maxpts ? m->pts : m->maxpts;
	fprintf(ctx->data, "%d %.3f %.3f %.3f %d\n", vms, sqlite3_column_double(st, 3),
		sqlite3_column_double(st, 4), sqlite3_column_double(st, 5),
		sqlite3_column_int(st, 6));
	figure_source(ctx, -1, sqlite3_column_int(st, 6), "cells measured by hostmem");
	m->maxvms = vms > m->maxvms ? vms : m->maxvms;
}

/* One workload or several: the titles name it only when several. */
static int count_workloads(struct figure_ctx *ctx)
{
	sqlite3_stmt *st;
	int n = 0;

	if (sqlite3_prepare_v2(ctx->h, "SELECT count(DISTINCT value) FROM cell_param p JOIN"
			       " cell c ON c.id = p.cell_id WHERE c.run_id = ?1 AND"
			       " p.key = 'workload'", -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, ctx->run_id);
	if (sqlite3_step(st) == SQLITE_ROW)
		n = sqlite3_column_int(st, 0);
	sqlite3_finalize(st);
	return n;
}

/**
 * fig_memory_data() - write the memory figure's data (see the top of this
 * file). Returns 0, -ENODATA when no cell of the run has the hostmem
 * probe's summed PSS, or -errno.
 */
int fig_memory_data(struct figure_ctx *ctx)
{
	struct mem_state m = { .maxvms = 1 };
	sqlite3_stmt *st;
	int rc;

	m.multi_wl = count_workloads(ctx) > 1;
	if (sqlite3_prepare_v2(ctx->h, SQL, -1, &st, NULL))
		return -EIO;
	sqlite3_bind_int64(st, 1, ctx->run_id);
	while ((rc = sqlite3_step(st)) == SQLITE_ROW)
		write_row(ctx, &m, st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return -EIO;
	figure_var_int(ctx, "nblocks", m.blocks);
	figure_var_int(ctx, "maxvms", m.maxvms);
	figure_var_int(ctx, "maxpts", m.maxpts);
	figure_var_int(ctx, "nodata", m.nodata);
	figure_var_int(ctx, "run", ctx->run_id);
	if (!m.blocks) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no cell measured with the "
			 "hostmem probe (probes = hostmem, ksm)", (long long)ctx->run_id);
		return -ENODATA;
	}
	return 0;
}

const struct figure figure_memory = {
	"memory", "Fig. 3 a-c: host memory (summed PSS) against VMs, KSM on, off, model",
	"memory.gp", fig_memory_data,
};
