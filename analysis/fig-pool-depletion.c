// SPDX-License-Identifier: MIT
/*
 * fig-pool-depletion.c - `plot pool-depletion`: the free slots of each
 * pool of a run's runc / crun cells over time (oci_pool_event, written by
 * bench/backends/oci-pool.c), from its first take on (full then: every
 * slot was made before the starts), refills and fallbacks marked, and
 * the refill's own cost: each refill's wall time in a second panel, and
 * per pool its refills' count, wall and CPU time in that panel's key. At
 * most DEPL_MAX_POOLS pools are drawn, the others counted (`nleft`). Two
 * blocks per pool:
 *   block 2i:   title (experiment, runtime, parallel, pool), then
 *               1 seconds since the first take  2 free after the event
 *               3 event: 0 take/recycle/spent, 1 refill, 2 fallback
 *   block 2i+1: title ("N refills: X ms, Y ms CPU"), then per refill
 *               1 seconds  2 its wall time ms  3 its CPU time ms
 */
#include <errno.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"
#include "pool-metrics.h"

#define DEPL_MAX_POOLS 8

static const char *const POOLS_SQL =
	"SELECT e.cell_id, e.pool, c.experiment || ' ' || c.backend || ' K=' || "
	"COALESCE((SELECT value FROM cell_param WHERE cell_id = c.id AND key = 'parallel'), "
	"'?') || ' ' || e.pool, sum(e.event = '" POOL_EVENT_FILL "'), "
	"min(CASE WHEN e.event <> '" POOL_EVENT_FILL "' THEN e.t_ns END) "
	"FROM oci_pool_event e JOIN cell c ON c.id = e.cell_id WHERE c.run_id = ?1 "
	"GROUP BY e.cell_id, e.pool HAVING count(*) > sum(e.event = '" POOL_EVENT_FILL "') "
	"ORDER BY e.cell_id, e.pool";

static const char *const EVENTS_SQL =
	"SELECT t_ns, free, CASE event WHEN '" POOL_EVENT_REFILL "' THEN 1 WHEN '"
	POOL_EVENT_FALLBACK "' THEN 2 ELSE 0 END, cost_ns, cpu_ns FROM oci_pool_event "
	"WHERE cell_id = ?1 AND pool = ?2 AND event <> '" POOL_EVENT_FILL "' ORDER BY rowid";

/* The events of pool @kind of cell @id: block 2i into @ctx, refills into @ref. */
static int events(struct figure_ctx *ctx, long long id, const char *kind, long long t0,
		  FILE *ref, long long *nref, double *ms, double *cpu)
{
	sqlite3_stmt *st;
	double t;
	int rc, ev;

	if (analysis_prepare(ctx->h, EVENTS_SQL, id, &st))
		return -EIO;
	sqlite3_bind_text(st, 2, kind, -1, SQLITE_STATIC);
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		t = (double)(sqlite3_column_int64(st, 0) - t0) / 1e9;
		ev = sqlite3_column_int(st, 2);
		fprintf(ctx->data, "%.6f %lld %d\n", t, sqlite3_column_int64(st, 1), ev);
		if (ev != 1 || sqlite3_column_type(st, 3) == SQLITE_NULL)
			continue;
		fprintf(ref, "%.6f %.4f %.4f\n", t, sqlite3_column_double(st, 3) / 1e6,
			sqlite3_column_double(st, 4) / 1e6);
		(*nref)++;
		*ms += sqlite3_column_double(st, 3) / 1e6;
		*cpu += sqlite3_column_double(st, 4) / 1e6;
	}
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? 0 : -EIO;
}

/* The two blocks of the pool in row @ps of POOLS_SQL. */
static int pool_blocks(struct figure_ctx *ctx, sqlite3_stmt *ps, int first,
		       long long *all)
{
	long long id = sqlite3_column_int64(ps, 0), nref = 0;
	const char *kind = (const char *)sqlite3_column_text(ps, 1) ?: "";
	char *rows = NULL, title[96];
	size_t len = 0;
	double ms = 0, cpu = 0;
	FILE *ref = open_memstream(&rows, &len);
	int ret;

	if (!ref)
		return -ENOMEM;
	fprintf(ctx->data, "%s", first ? "" : "\n\n");
	gp_data_string(ctx->data, (const char *)sqlite3_column_text(ps, 2) ?: "?");
	fprintf(ctx->data, " free event\n0 %d 0\n", sqlite3_column_int(ps, 3));
	ret = events(ctx, id, kind, sqlite3_column_int64(ps, 4), ref, &nref, &ms, &cpu);
	fclose(ref);
	snprintf(title, sizeof(title), "N = %lld refills: %.1f ms, %.1f ms CPU", nref, ms, cpu);
	fprintf(ctx->data, "\n\n");
	gp_data_string(ctx->data, title);
	fprintf(ctx->data, " ms cpu\n%s", nref ? rows : "NaN NaN NaN\n");
	free(rows);
	figure_source(ctx, id, nref, "refills");
	*all += nref;
	return ret;
}

/**
 * fig_pool_depletion_data() - write the pool-depletion data (see the top of
 * this file). 0, -ENODATA when no cell of the run has a pool that was
 * taken from, or -errno.
 */
int fig_pool_depletion_data(struct figure_ctx *ctx)
{
	sqlite3_stmt *st;
	long long nref = 0;
	int rc, n = 0, left = 0, ret = 0;

	if (!analysis_table_present(ctx->h, "oci_pool_event")) {   /* before 013 */
		snprintf(ctx->why, sizeof(ctx->why), "the database has no pool events (it is "
			 "older than cgroup-pool and netns-pool)");
		return -ENODATA;
	}
	if (analysis_prepare(ctx->h, POOLS_SQL, ctx->run_id, &st))
		return -EIO;
	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW) {
		if (n == DEPL_MAX_POOLS) {
			left++;
			continue;
		}
		ret = pool_blocks(ctx, st, !n, &nref);
		n++;
	}
	sqlite3_finalize(st);
	if (ret || rc != SQLITE_DONE)
		return ret ?: -EIO;
	figure_var_int(ctx, "npools", n);
	figure_var_int(ctx, "nleft", left);
	figure_var_int(ctx, "nrefills", nref);
	figure_var_int(ctx, "run", ctx->run_id);
	if (!n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no pool that a start took "
			 "from (cgroup-pool or netns-pool on runc / crun)", (long long)ctx->run_id);
		return -ENODATA;
	}
	return 0;
}

const struct figure figure_pool_depletion = {
	"pool-depletion", "free slots of each cgroup / netns pool over time, refills and "
	"fallbacks marked, and what each refill cost", "pool-depletion.gp",
	fig_pool_depletion_data, 0,
};
