// SPDX-License-Identifier: MIT
/*
 * fig-vmexit-rate.c - data of the vmexit-rate figure (the study's Fig. 5,
 * exit side): one stacked bar per cell of the run that has VM-exit counts
 * of the vmexit probe, each segment the exits per second of one
 * cross-vendor class over the cell window. kvm_exit where any cell has it;
 * else kvm_userspace_exit (a host whose KVM does not trace kvm_exit), and
 * the title says which. Cells without counts (other backends, TCG, skips)
 * are left out; none at all is -ENODATA with the reason.
 *
 * Columns: label (with N, the measured invocations of the cell), then one column per class (VMEXIT_CLASSES order; the
 * first row names them). Variables: ncells, run, event.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "cell-label.h"
#include "figures.h"
#include "gp-string.h"
#include "vmexit-metrics.h"

#define CLASS_NAME(n) n,
static const char *const classes[] = { VMEXIT_CLASSES(CLASS_NAME) };
#undef CLASS_NAME
#define NCLASSES (sizeof(classes) / sizeof(classes[0]))

/* Cells of the run with "<event>.total" for the cell window, in order. */
static int cells_with(struct figure_ctx *ctx, const char *event, int64_t **ids,
		      char (**wl)[64], size_t *n)
{
	sqlite3_stmt *st;
	size_t cap = 0;
	void *p;

	*n = 0;
	if (sqlite3_prepare_v2(ctx->h, "SELECT c.id, c.workload FROM cell c WHERE c.run_id = ?1 "
			       "AND EXISTS (SELECT 1 FROM metric m WHERE m.cell_id = c.id "
			       "AND m.probe = '" VMEXIT_PROBE "' AND m.invocation_id IS NULL "
			       "AND m.name = ?2 || '" VMEXIT_TOTAL "' AND m.value > 0) "
			       "ORDER BY c.id", -1, &st, NULL) != SQLITE_OK)
		return -EIO;
	sqlite3_bind_int64(st, 1, ctx->run_id);
	sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
	while (sqlite3_step(st) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? 2 * cap : 16;
			if (!(p = realloc(*ids, cap * sizeof(**ids))))
				break;
			*ids = p;
			if (!(p = realloc(*wl, cap * sizeof(**wl))))
				break;
			*wl = p;
		}
		(*ids)[*n] = sqlite3_column_int64(st, 0);
		snprintf((*wl)[(*n)++], sizeof(**wl), "%s",
			 (const char *)sqlite3_column_text(st, 1));
	}
	sqlite3_finalize(st);
	return 0;
}

static double class_rate(struct figure_ctx *ctx, int64_t cell, const char *event,
			 const char *cls)
{
	char name[128];
	sqlite3_stmt *st;
	double v = 0;

	snprintf(name, sizeof(name), "%s" VMEXIT_CLASS "%s" VMEXIT_RATE, event, cls);
	if (sqlite3_prepare_v2(ctx->h, "SELECT value FROM metric WHERE cell_id = ? AND "
			       "probe = '" VMEXIT_PROBE "' AND invocation_id IS NULL AND "
			       "name = ?", -1, &st, NULL) != SQLITE_OK)
		return 0;
	sqlite3_bind_int64(st, 1, cell);
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

static int write_rows(struct figure_ctx *ctx, const char *event, const int64_t *ids,
		      char (*wl)[64], size_t n)
{
	char (*extra)[CELL_LABEL_MAX] = calloc(n, sizeof(*extra)), lab[256];
	size_t i, k, longest = 0;

	if (!extra)
		return -ENOMEM;
	cell_label_extras(ctx->h, ctx->run_id, ids, n, extra);
	fprintf(ctx->data, "label");
	for (k = 0; k < NCLASSES; k++)
		fprintf(ctx->data, " %s", classes[k]);
	fprintf(ctx->data, "\n");
	for (i = 0; i < n; i++) {
		snprintf(lab, sizeof(lab), "%s%s%s (N=%lld)", wl[i], extra[i][0] ? " " : "",
			 extra[i], cell_measured(ctx->h, ids[i]));
		figure_source(ctx, ids[i], cell_measured(ctx->h, ids[i]), "invocations");
		gp_data_string(ctx->data, lab);
		longest = gp_label_len(lab) > longest ? gp_label_len(lab) : longest;
		for (k = 0; k < NCLASSES; k++)
			fprintf(ctx->data, " %.6g", class_rate(ctx, ids[i], event, classes[k]));
		fprintf(ctx->data, "\n");
	}
	figure_var_int(ctx, "maxlabel", (long long)longest);
	free(extra);
	return 0;
}

/**
 * fig_vmexit_rate_data() - write the vmexit-rate data (see the top of this
 * file). Returns 0, -ENODATA when no cell of the run has exit counts, or
 * -errno.
 */
int fig_vmexit_rate_data(struct figure_ctx *ctx)
{
	static const char *const events[] = { VMEXIT_KVM_EXIT, VMEXIT_USERSPACE };
	char (*wl)[64] = NULL;
	int64_t *ids = NULL;
	size_t n = 0, e;
	int ret = 0;

	for (e = 0; !ret && !n && e < 2; e++)
		ret = cells_with(ctx, events[e], &ids, &wl, &n);
	if (!ret && !n) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no cell with VM-exit counts "
			 "(probes = vmexit on backend = qemu with accel = kvm; `show` lists "
			 "the probe's skips)", (long long)ctx->run_id);
		ret = -ENODATA;
	}
	if (!ret)
		ret = write_rows(ctx, events[e - 1], ids, wl, n);
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "run", ctx->run_id);
	figure_var_str(ctx, "event", n ? events[e - 1] : "");
	free(ids);
	free(wl);
	return ret;
}

const struct figure figure_vmexit_rate = {
	"vmexit-rate",
	"Fig. 5 (exits): VM exits per second by class (idle, io, mmio, msr, ...), per cell",
	"vmexit-rate.gp", fig_vmexit_rate_data,
};
