// SPDX-License-Identifier: MIT
/*
 * fig-ksm-convergence.c - `plot ksm-convergence`: how KSM merged during
 * the ksm = on cells of a run, from their memory_sample time series: the
 * summed PSS of the cell's QEMU processes (hostmem probe, source
 * smaps_rollup; a sample round whose processes did not all answer is left
 * out rather than summed short) and KSM's pages_sharing (ksm probe), both
 * against seconds since the probe's cell window started. At most
 * KSMC_MAX_CELLS cells are drawn, the others counted (`nleft`). Two blocks
 * per cell, each headed by its title ("PSS: cell ..." and "sharing: cell
 * ...", with N, its samples):
 *   block 2i:   seconds, summed PSS MiB
 *   block 2i+1: seconds, pages_sharing
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"
#include "memory-cells.h"

#define KSMC_MAX_CELLS 8

static const char *const CELLS_SQL =
	"WITH " MEMORY_CELLS_CTE " SELECT id, COALESCE(vmwl, wl), vms, conf FROM p WHERE"
	" ksm = 'on' AND"
	" EXISTS (SELECT 1 FROM memory_sample WHERE cell_id = p.id AND source = 'ksm'"
	" AND name = 'pages_sharing') ORDER BY id";

static const char *const PSS_SQL =
	"WITH s AS (SELECT t_ns, pid, value, row_number() OVER (PARTITION BY pid"
	" ORDER BY t_ns) AS k FROM memory_sample WHERE cell_id = ?1 AND"
	" source = 'smaps_rollup' AND name = '" HOSTMEM_PSS "'), "
	"r AS (SELECT k, min(t_ns) AS t, sum(value) AS v, count(*) AS n FROM s GROUP BY k) "
	"SELECT t / 1e9, v / 1024.0 FROM r WHERE n = (SELECT count(DISTINCT pid) FROM s)"
	" ORDER BY k";

static const char *const SHARING_SQL =
	"SELECT t_ns / 1e9, value FROM memory_sample WHERE cell_id = ?1 AND"
	" source = 'ksm' AND name = 'pages_sharing' ORDER BY t_ns";

/* Rows of @sql for cell @id into a buffer: their count, or -errno. */
static int series(struct figure_ctx *ctx, const char *sql, long long id, char **buf,
		  size_t *len)
{
	FILE *f = open_memstream(buf, len);
	sqlite3_stmt *st;
	int rc, n = 0;

	if (!f)
		return -ENOMEM;
	if (analysis_prepare(ctx->h, sql, id, &st)) {
		fclose(f);
		return -EIO;
	}
	while ((rc = analysis_step(st)) == SQLITE_ROW && ++n)
		fprintf(f, "%.3f %.3f\n", sqlite3_column_double(st, 0),
			sqlite3_column_double(st, 1));
	sqlite3_finalize(st);
	fclose(f);
	return rc == SQLITE_DONE ? n : -EIO;
}

/*
 * One block: its title (@what, the cell's @label, N) then its rows. What
 * comes first: a long title is cut in its middle (gp_data_string), which
 * cut "pages_sharing" of a cell of two workloads to "pag…haring".
 */
static void block(struct figure_ctx *ctx, int first, const char *label, const char *what,
		  int n, const char *rows)
{
	char title[320];

	if (!first)
		fprintf(ctx->data, "\n\n");
	snprintf(title, sizeof(title), "%s: %s (N=%d)", what, label, n);
	gp_data_string(ctx->data, title);
	fprintf(ctx->data, " value\n%s", n ? rows : "NaN NaN\n");
}

static int write_cell(struct figure_ctx *ctx, sqlite3_stmt *cs, int first)
{
	long long id = sqlite3_column_int64(cs, 0);
	const unsigned char *wl = sqlite3_column_text(cs, 1);
	const unsigned char *conf = sqlite3_column_text(cs, 3);
	char label[200], *pss = NULL, *shr = NULL;
	size_t lp = 0, ls = 0;
	int np, ns;

	snprintf(label, sizeof(label), "cell %lld %s, %d VM%s%s%s", id, wl ? (const char *)wl :
		 "?", sqlite3_column_int(cs, 2), sqlite3_column_int(cs, 2) == 1 ? "" : "s",
		 conf && strcmp((const char *)conf, "none") ? ", " : "",
		 conf && strcmp((const char *)conf, "none") ? (const char *)conf : "");
	np = series(ctx, PSS_SQL, id, &pss, &lp);
	ns = np < 0 ? np : series(ctx, SHARING_SQL, id, &shr, &ls);
	if (np >= 0 && ns >= 0) {
		block(ctx, first, label, "PSS", np, pss);
		block(ctx, 0, label, "sharing", ns, shr);
	}
	free(pss);
	free(shr);
	return np < 0 ? np : ns < 0 ? ns : 0;
}

/**
 * fig_ksm_convergence_data() - write the ksm-convergence figure's data (see
 * the top of this file). Returns 0, -ENODATA when no ksm = on cell of the
 * run has the ksm probe's time series, or -errno.
 */
int fig_ksm_convergence_data(struct figure_ctx *ctx)
{
	sqlite3_stmt *st;
	int rc, n = 0, left = 0, ret = 0;

	if (analysis_prepare(ctx->h, CELLS_SQL, ctx->run_id, &st))
		return -EIO;
	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW) {
		if (n == KSMC_MAX_CELLS) {
			left++;
			continue;
		}
		ret = write_cell(ctx, st, !n);
		n++;
	}
	sqlite3_finalize(st);
	if (ret || rc != SQLITE_DONE)
		return ret ?: -EIO;
	figure_var_int(ctx, "ncells", n);
	figure_var_int(ctx, "nleft", left);
	figure_var_int(ctx, "run", ctx->run_id);
	if (!n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no ksm = on cell with the "
			 "ksm probe's time series (ksm = on, probes = hostmem, ksm)",
			 (long long)ctx->run_id);
		return -ENODATA;
	}
	return 0;
}

const struct figure figure_ksm_convergence = {
	"ksm-convergence", "KSM's pages_sharing and the summed PSS over time in ksm = on "
	"cells", "ksm-convergence.gp", fig_ksm_convergence_data, 0,
};
