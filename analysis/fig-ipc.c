// SPDX-License-Identifier: MIT
/*
 * fig-ipc.c - data of the ipc figure: per cell of the run that the pmu
 * probe measured with hardware counters, the median over its measured
 * calls of instructions per cycle and of LLC misses per kilo-instruction
 * (mpki.cache-misses, the generic event perf maps to last-level cache
 * misses). Cells without an IPC row (no PMU: the software fallback; other
 * probes) are left out; none at all is -ENODATA with the reason.
 *
 * Columns: label (workload, what sets the cell apart, backend, N the
 * calls with an IPC row), ipc, mpki ("?" when the cell has no
 * mpki.cache-misses). Variables: ncells, run.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "analysis.h"
#include "cell-label.h"
#include "figures.h"
#include "gp-string.h"
#include "log.h"
#include "pmu-metrics.h"
#include "stats.h"

#define MPKI_LLC PMU_MPKI_PREFIX "cache-misses"

/* Append the value of @st's row to @v (@n used, @cap allocated); 0 or -ENOMEM. */
static int values_add(double **v, size_t *n, size_t *cap, sqlite3_stmt *st)
{
	double *p;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 64;
		p = realloc(*v, *cap * sizeof(*p));
		if (!p)
			return -ENOMEM;
		*v = p;
	}
	(*v)[(*n)++] = sqlite3_column_double(st, 0);
	return 0;
}

/*
 * The median of metric @name over the calls of cell @id into @med, *@n how
 * many (0: no call, @med -1). 0, -ENOMEM or -EIO: all the calls or no median.
 */
static int cell_median(struct figure_ctx *ctx, int64_t id, const char *name, double *med,
		       size_t *n)
{
	double *v = NULL;
	size_t cap = 0;
	sqlite3_stmt *st;
	int ret = 0, rc;

	*n = 0;
	*med = -1;
	/* ?1 is the cell here (analysis_prepare binds its id argument to ?1) */
	if (analysis_prepare(ctx->h, "SELECT value FROM metric WHERE cell_id = ?1 AND "
			     "probe = '" PMU_PROBE "' AND invocation_id IS NOT NULL AND "
			     "name = ?2", id, &st))
		return -EIO;
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	while (!ret && (rc = analysis_step(st)) == SQLITE_ROW)
		ret = values_add(&v, n, &cap, st);
	if (!ret && rc != SQLITE_DONE)
		ret = -EIO;               /* reported by analysis_step() */
	sqlite3_finalize(st);
	if (!ret && *n) {
		stats_sort(v, *n);
		*med = stats_quantile(v, *n, 0.5);
	}
	free(v);
	return ret;
}

struct ipc_cells {
	int64_t *ids;
	char (*name)[96];         /* "workload backend" */
	size_t n;
};

/* Add cell @id named @name to @c; 0 or -ENOMEM. */
static int cells_add(struct ipc_cells *c, int64_t id, const char *name)
{
	int64_t *ids = realloc(c->ids, (c->n + 1) * sizeof(*ids));
	char (*names)[96];

	if (!ids)
		return -ENOMEM;
	c->ids = ids;
	names = realloc(c->name, (c->n + 1) * sizeof(*names));
	if (!names)
		return -ENOMEM;
	c->name = names;
	c->ids[c->n] = id;
	snprintf(c->name[c->n++], sizeof(*names), "%s", name);
	return 0;
}

/* Cells of the run with an IPC row, in order, with workload and backend. */
static int cells_with_ipc(struct figure_ctx *ctx, struct ipc_cells *c)
{
	sqlite3_stmt *st;
	int ret = 0;

	if (analysis_prepare(ctx->h, "SELECT c.id, c.workload || ' ' || c.backend FROM cell c "
			     "WHERE c.run_id = ?1 AND EXISTS (SELECT 1 FROM metric m WHERE "
			     "m.cell_id = c.id AND m.probe = '" PMU_PROBE "' AND m.name = '"
			     PMU_IPC "') ORDER BY c.id", ctx->run_id, &st))
		return -EIO;
	while (!ret && analysis_step(st) == SQLITE_ROW)
		ret = cells_add(c, sqlite3_column_int64(st, 0),
				(const char *)sqlite3_column_text(st, 1));
	sqlite3_finalize(st);
	return ret;
}

static int write_rows(struct figure_ctx *ctx, const struct ipc_cells *c)
{
	char (*extra)[CELL_LABEL_MAX] = calloc(c->n, sizeof(*extra)), lab[320];
	double ipc, mpki;
	size_t i, ni, nm, longest = 0;
	int ret = 0;

	if (!extra)
		return -ENOMEM;
	cell_label_extras(ctx->h, ctx->run_id, c->ids, c->n, extra);
	fprintf(ctx->data, "label ipc mpki\n");
	for (i = 0; i < c->n; i++) {
		ret = cell_median(ctx, c->ids[i], PMU_IPC, &ipc, &ni) ?:
		      cell_median(ctx, c->ids[i], MPKI_LLC, &mpki, &nm);
		if (ret)
			break;
		snprintf(lab, sizeof(lab), "%s%s%s (N=%zu)", c->name[i], extra[i][0] ? " " : "",
			 extra[i], ni);
		gp_data_string(ctx->data, lab);
		longest = gp_label_len(lab) > longest ? gp_label_len(lab) : longest;
		figure_source(ctx, c->ids[i], (long long)ni, "calls");
		fprintf(ctx->data, " %.6g", ipc);
		if (nm)
			fprintf(ctx->data, " %.6g\n", mpki);
		else
			fprintf(ctx->data, " ?\n");
	}
	if (!ret)
		figure_var_int(ctx, "longest", (long long)longest);
	free(extra);
	return ret;
}

/**
 * fig_ipc_data() - write the ipc data (see the top of this file). Returns
 * 0, -ENODATA when no cell of the run has IPC rows, or -errno.
 */
int fig_ipc_data(struct figure_ctx *ctx)
{
	struct ipc_cells c = { 0 };
	int ret = cells_with_ipc(ctx, &c);

	if (!ret && !c.n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no cell with instructions per "
			 "cycle (probes = pmu where there is a hardware PMU; `show` lists the "
			 "probe's skips)", (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret)
		ret = write_rows(ctx, &c);
	figure_var_int(ctx, "ncells", (long long)c.n);
	figure_var_int(ctx, "run", ctx->run_id);
	free(c.ids);
	free(c.name);
	return ret;
}

const struct figure figure_ipc = {
	"ipc",
	"instructions per cycle and LLC misses per kilo-instruction per cell (pmu probe)",
	"ipc.gp", fig_ipc_data, 0,
};
