// SPDX-License-Identifier: MIT
/*
 * fig-plan.c - data of the capacity plan figures, from the newest plan of
 * the database (tables plan_point, 010-plan.sql; not a run's: the run
 * picked is ignored):
 *   plan-pareto  per (platform, policy) of the TTL ladder, one data block
 *                titled "platform: policy" (columnheader), rows mean warm
 *                memory (MiB) and cold starts (%), at the plan's first
 *                seed, in the order of the parameter
 *   plan-budget  per (platform, policy) at the budget, one row: its title,
 *                cold starts (%) and p99 (ms), means over the seeds
 * Variables: nblocks (pareto), nrows and budget (budget), plan.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "figures.h"
#include "gp-string.h"
#include "plan-table.h"

static const char sql_pareto[] =
	"SELECT platform || ': ' || policy, mean_mib, 100 * cold_frac FROM plan_point "
	"WHERE plan_id = ?1 AND question = 'ladder' AND seed = (SELECT min(seed) FROM "
	"plan_point WHERE plan_id = ?1) ORDER BY platform, policy, param";
static const char sql_budget[] =
	"SELECT platform || ': ' || label, 100 * avg(cold_frac), avg(p99_ms), "
	"(SELECT budget_mib FROM plan WHERE id = ?1) FROM plan_point WHERE plan_id = ?1 "
	"AND question = 'budget' GROUP BY platform, label ORDER BY min(rowid)";

static int64_t plan_or_why(struct figure_ctx *ctx)
{
	int64_t id = plan_table_latest(ctx->h);

	if (!id)
		snprintf(ctx->why, sizeof(ctx->why), "no capacity plan in the database: run "
			 "cvmbench plan --config FILE (docs/capacity.md)");
	return id;
}

/**
 * fig_plan_pareto_data() - write the plan-pareto data (see the top of this
 * file). Returns 0, -ENODATA (no plan, ctx->why) or -EIO.
 */
int fig_plan_pareto_data(struct figure_ctx *ctx)
{
	char last[256] = "";
	int64_t id = plan_or_why(ctx);
	sqlite3_stmt *st;
	int rc, blocks = 0;

	if (!id || analysis_prepare(ctx->h, sql_pareto, id, &st))
		return id ? -EIO : -ENODATA;
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		const char *t = (const char *)sqlite3_column_text(st, 0);

		if (strcmp(t, last)) {
			fprintf(ctx->data, blocks ? "\n\n" : "");
			gp_data_string(ctx->data, t);
			fprintf(ctx->data, " cold_pct\n");
			snprintf(last, sizeof(last), "%s", t);
			blocks++;
		}
		fprintf(ctx->data, "%.6g %.6g\n", sqlite3_column_double(st, 1),
			sqlite3_column_double(st, 2));
	}
	sqlite3_finalize(st);
	figure_var_int(ctx, "nblocks", blocks);
	figure_var_int(ctx, "plan", id);
	if (rc == SQLITE_DONE && !blocks)
		snprintf(ctx->why, sizeof(ctx->why), "plan %lld has no ladder points", (long long)id);
	return rc != SQLITE_DONE ? -EIO : blocks ? 0 : -ENODATA;
}

/**
 * fig_plan_budget_data() - write the plan-budget data (see the top of this
 * file). Returns 0, -ENODATA (no plan or no budget, ctx->why) or -EIO.
 */
int fig_plan_budget_data(struct figure_ctx *ctx)
{
	int64_t id = plan_or_why(ctx);
	sqlite3_stmt *st;
	int rc, rows = 0;
	double budget = 0;

	if (!id || analysis_prepare(ctx->h, sql_budget, id, &st))
		return id ? -EIO : -ENODATA;
	while ((rc = analysis_step(st)) == SQLITE_ROW) {
		gp_data_string(ctx->data, (const char *)sqlite3_column_text(st, 0));
		fprintf(ctx->data, " %.6g %.6g\n", sqlite3_column_double(st, 1),
			sqlite3_column_double(st, 2));
		budget = sqlite3_column_double(st, 3);
		rows++;
	}
	sqlite3_finalize(st);
	figure_var_int(ctx, "nrows", rows);
	figure_var_int(ctx, "budget", (long long)budget);
	figure_var_int(ctx, "plan", id);
	if (rc == SQLITE_DONE && !rows)
		snprintf(ctx->why, sizeof(ctx->why), "plan %lld asked no budget question (budget = "
			 "in [plan])", (long long)id);
	return rc != SQLITE_DONE ? -EIO : rows ? 0 : -ENODATA;
}

const struct figure figure_plan_pareto = {
	"plan-pareto",
	"capacity plan: cold starts against mean warm memory per platform and policy "
	"(TTL ladder; docs/capacity.md)",
	"plan-pareto.gp", fig_plan_pareto_data, 0,
};

const struct figure figure_plan_budget = {
	"plan-budget",
	"capacity plan: cold starts and p99 per platform and policy at the budget",
	"plan-budget.gp", fig_plan_budget_data, 0,
};
