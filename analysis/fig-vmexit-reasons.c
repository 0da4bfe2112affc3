// SPDX-License-Identifier: MIT
/*
 * fig-vmexit-reasons.c - data of the vmexit-reasons figure: for one cell
 * (plot --only CELLKEY, else the run's first cell with counts by reason in
 * the vmexit table), its VM exits of the cell window by reason (or by
 * class, vmexit-detail = class), counted by the tracepoint source, summed
 * over isa tables and VMs, largest first; and beside the counts the time
 * spent per reason where the rows have it (time_ns). kvm_exit where the
 * cell has its reasons, else kvm_userspace_exit, else kvm_vmgexit_enter.
 *
 * Columns: label ("reason (class)"), count, time in ms ("?" where not
 * known). Variables: run, cell, event, nreasons, has_time, n (the cell's
 * measured invocations).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-label.h"
#include "figures.h"
#include "gp-string.h"
#include "vmexit-metrics.h"
#include "vmexit-table.h"

static const char reason_rows[] =
	"SELECT reason_name, class, sum(count), CASE WHEN count(time_ns) = count(*) "
	"THEN sum(time_ns) END FROM vmexit WHERE cell_id = ?1 AND invocation_id IS NULL "
	"AND source = 'tracepoint' AND event = ?2 AND reason_name != 'total' "
	"AND count IS NOT NULL GROUP BY reason_name, class ORDER BY 3 DESC, 1";

/* Cell @key of the run (or with NULL the first with reason rows) into @id. */
static int pick_cell(struct figure_ctx *ctx, int64_t *id, char *key, size_t len)
{
	sqlite3_stmt *st;
	int rc;

	if (!vmexit_table_present(ctx->h)) {
		snprintf(ctx->why, sizeof(ctx->why), "the database has no vmexit table (a "
			 "schema before 007)");
		return -ENODATA;
	}
	if (analysis_prepare(ctx->h, ctx->only ?
		"SELECT id, cell_key FROM cell WHERE run_id = ?1 AND cell_key = ?2" :
		"SELECT c.id, c.cell_key FROM cell c WHERE c.run_id = ?1 AND EXISTS (SELECT 1 "
		"FROM vmexit v WHERE v.cell_id = c.id AND v.source = 'tracepoint' AND "
		"v.invocation_id IS NULL AND v.count IS NOT NULL AND v.reason_name != 'total') "
		"ORDER BY c.id LIMIT 1", ctx->run_id, &st))
		return -EIO;
	if (ctx->only)
		sqlite3_bind_text(st, 2, ctx->only, -1, SQLITE_STATIC);
	rc = analysis_step(st) == SQLITE_ROW ? 0 : -ENODATA;
	if (!rc) {
		*id = sqlite3_column_int64(st, 0);
		snprintf(key, len, "%s", (const char *)sqlite3_column_text(st, 1));
	} else if (ctx->only) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no cell %s",
			 (long long)ctx->run_id, ctx->only);
	} else {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no cell with VM exits by "
			 "reason (probes = vmexit on backend = qemu with accel = kvm; `show "
			 "--table vmexit` says why)", (long long)ctx->run_id);
	}
	sqlite3_finalize(st);
	return rc;
}

/* The reasons of @event in cell @id as data rows; their number, or -EIO. */
static int write_reasons(struct figure_ctx *ctx, int64_t id, const char *event, int *timed)
{
	char lab[256];
	sqlite3_stmt *st;
	size_t longest = 0;
	int n = 0;

	if (analysis_prepare(ctx->h, reason_rows, id, &st))
		return -EIO;
	sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
	while (analysis_step(st) == SQLITE_ROW) {
		if (!n++)
			fprintf(ctx->data, "label count time_ms\n");
		snprintf(lab, sizeof(lab), "%s (%s)", (const char *)sqlite3_column_text(st, 0),
			 sqlite3_column_type(st, 1) == SQLITE_NULL ? "-" :
			 (const char *)sqlite3_column_text(st, 1));
		gp_data_string(ctx->data, lab);
		longest = gp_label_len(lab) > longest ? gp_label_len(lab) : longest;
		fprintf(ctx->data, " %lld", (long long)sqlite3_column_int64(st, 2));
		if (sqlite3_column_type(st, 3) == SQLITE_NULL) {
			fprintf(ctx->data, " ?\n");
			continue;
		}
		*timed = 1;
		fprintf(ctx->data, " %.6g\n", (double)sqlite3_column_int64(st, 3) / 1e6);
	}
	sqlite3_finalize(st);
	figure_var_int(ctx, "longest", (long long)longest);
	return n;
}

/**
 * fig_vmexit_reasons_data() - write the vmexit-reasons data (see the top of
 * this file). Returns 0, -ENODATA (no such cell, or no counts by reason)
 * or -errno.
 */
int fig_vmexit_reasons_data(struct figure_ctx *ctx)
{
	static const char *const events[] = { VMEXIT_KVM_EXIT, VMEXIT_USERSPACE,
					      VMEXIT_VMGEXIT };
	char key[256] = "";
	int64_t id = 0;
	int n = 0, timed = 0, e, ret = pick_cell(ctx, &id, key, sizeof(key));

	for (e = 0; !ret && !n && e < 3; e++)
		n = write_reasons(ctx, id, events[e], &timed);
	if (!ret && n < 0)
		ret = n;
	if (!ret && !n) {
		snprintf(ctx->why, sizeof(ctx->why), "cell %s of run %lld has no VM exits by "
			 "reason (`show --table vmexit` says why)", key, (long long)ctx->run_id);
		ret = -ENODATA;
	}
	figure_var_int(ctx, "run", ctx->run_id);
	figure_var_str(ctx, "cell", key);
	figure_var_str(ctx, "event", n > 0 ? events[e - 1] : "");
	figure_var_int(ctx, "nreasons", n > 0 ? n : 0);
	figure_var_int(ctx, "has_time", timed);
	figure_var_int(ctx, "n", ret ? 0 : cell_measured(ctx->h, id));
	return ret;
}

const struct figure figure_vmexit_reasons = {
	"vmexit-reasons",
	"VM exits of one cell by reason: counts, and time per reason where known (--only CELLKEY)",
	"vmexit-reasons.gp", fig_vmexit_reasons_data, 0,
};
