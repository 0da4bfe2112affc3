// SPDX-License-Identifier: MIT
/*
 * cell-noise.c - store how busy the machine was around a cell (noise.c) as
 * the cell's metrics of the pseudo-probe "noise", and the fidelity flag
 * flag_noisy (1 when other processes' CPU use or steal exceeded the cell's
 * noise-threshold, % of all CPUs' time; 0 otherwise). docs/data-model.md
 * lists the names.
 */
#include <math.h>
#include <unistd.h>

#include "cell-noise.h"
#include "db.h"
#include "log.h"

#define NOISE_PROBE "noise"

static int put(const struct cell_ctx *ctx, const char *name, double v, const char *unit)
{
	if (!isfinite(v) || v < 0)
		return 0;           /* not measured: no row, never a zero */
	return db_metric_add(ctx->db, ctx->cell_id, 0, NOISE_PROBE, name, v, unit);
}

static int put_result(const struct cell_ctx *ctx, const struct noise_result *r)
{
	int flag = noise_over(r, ctx->cell->noise_threshold);

	return put(ctx, "wall_ms", r->wall_ms, "ms") ?:
	       put(ctx, "cpus", r->ncpus, "count") ?:
	       put(ctx, "busy_ms", r->busy_ms, "ms") ?:
	       put(ctx, "own_cpu_ms", r->own_ms, "ms") ?:
	       put(ctx, "other_cpu_ms", r->other_ms, "ms") ?:
	       put(ctx, "other_cpu_pct", r->other_pct, "%") ?:
	       put(ctx, "steal_ms", r->steal_ms, "ms") ?:
	       put(ctx, "steal_pct", r->steal_pct, "%") ?:
	       put(ctx, "resolution_ms", r->resolution_ms, "ms") ?:
	       put(ctx, "threshold_pct", ctx->cell->noise_threshold, "%") ?:
	       put(ctx, "flag_noisy", flag, "count");
}

/**
 * cell_noise_store() - write what @n measured around the cell of @ctx.
 * A machine whose /proc/stat cannot be read gets a skip row for "noise".
 * Returns 0 or -EIO (a row could not be written).
 */
int cell_noise_store(const struct cell_ctx *ctx, const struct noise *n)
{
	struct noise_result r;
	int ret;

	ret = put(ctx, "load1_before", n->a.load1, "load") ?:
	      put(ctx, "load1_after", n->b.load1, "load") ?:
	      put(ctx, "procs_running_before", (double)n->a.procs_running, "count") ?:
	      put(ctx, "procs_running_after", (double)n->b.procs_running, "count");
	if (ret)
		return ret;
	if (noise_result(n, sysconf(_SC_CLK_TCK), &r))
		return db_skip_add(ctx->db, ctx->run_id, ctx->cell_id, NOISE_PROBE,
				   "cannot read /proc/stat twice around the cell");
	return put_result(ctx, &r);
}
