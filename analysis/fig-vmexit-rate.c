// SPDX-License-Identifier: MIT
/*
 * fig-vmexit-rate.c - data of the vmexit-rate figure (the study's Fig. 5):
 * one stacked bar per cell of the run that has VM-exit counts of the
 * vmexit probe, each segment the exits per second of one cross-vendor
 * class over the cell window; kvm_exit where any cell has it, else
 * kvm_userspace_exit (a host whose KVM does not trace kvm_exit), and the
 * title says which. Cells without counts (other backends, TCG, skips) are
 * left out; none at all is -ENODATA with the reason.
 *
 * Beside each bar that is the confidential (or model) side of a pair,
 * its slowdown against its regular twin: the ratio of median latencies
 * with its bootstrap interval, N of both sides and the achieved coverage
 * of each side's median interval, taken as they are from the pairs of
 * `cvmbench compare` with its defaults (compare-*.c, stats*.c: nothing
 * is computed here). The bars are of one run (--run, default the latest);
 * the twins, like compare's, are found in the whole database (a twin from
 * another experiment or run is named: "baseline from EXP, run R").
 *
 * Columns: 1 label (with N, the measured invocations of the cell), 2..9
 * one per class (VMEXIT_CLASSES order; the header row names them), 10 x
 * (0-based), 11 ratio, 12 lo, 13 hi ("?": not a compared side), 14 the
 * ratio and interval as text ("-": none), 15 a note (N, coverage; or
 * "regular twin (baseline)", "pair refused: ..."; "-": none), 16 "baseline
 * from EXP, run R" ("-": the twin is of this run and experiment), all
 * three drawn under the tick. Variables: ncells, npaired, run, event, maxlabel, resamples.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "cell-label.h"
#include "compare.h"
#include "figures.h"
#include "gp-string.h"
#include "stats-boot.h"
#include "summary.h"
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
	if (analysis_prepare(ctx->h, "SELECT c.id, c.workload FROM cell c WHERE c.run_id = ?1 "
			     "AND EXISTS (SELECT 1 FROM metric m WHERE m.cell_id = c.id "
			     "AND m.probe = '" VMEXIT_PROBE "' AND m.invocation_id IS NULL "
			     "AND m.name = ?2 || '" VMEXIT_TOTAL "' AND m.value > 0) "
			     "ORDER BY c.id", ctx->run_id, &st))
		return -EIO;
	sqlite3_bind_text(st, 2, event, -1, SQLITE_STATIC);
	while (analysis_step(st) == SQLITE_ROW) {
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
	if (analysis_prepare(ctx->h, "SELECT value FROM metric WHERE cell_id = ? AND "
			     "probe = '" VMEXIT_PROBE "' AND invocation_id IS NULL AND "
			     "name = ?", cell, &st))
		return 0;
	sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
	if (analysis_step(st) == SQLITE_ROW)
		v = sqlite3_column_double(st, 0);
	sqlite3_finalize(st);
	return v;
}

/* A drawn cell's place among compare's pairs (compare-find.c). */
struct vx_pair {
	int role;                 /* CMP_ROLE_* or 0 */
	double ratio, lo, hi;     /* NAN unless the cell is a compared side */
	char value[64];           /* under the tick: "slowdown 1.250 [1.198, 1.304]" */
	char note[256];           /* under the tick: N, coverage; or what the cell is */
	char from[256];           /* under the tick: "baseline from EXP, run R" or "" */
};

/* The loaded cell @cell_key of run @run, or NULL. */
static const struct cmp_cell *cmp_cell_find(const struct cmp_data *d, int64_t run,
					    const char *cell_key)
{
	size_t i;

	for (i = 0; i < d->ncells; i++)
		if (d->runs[d->cells[i].run].id == run && !strcmp(d->cells[i].cell_key, cell_key))
			return &d->cells[i];
	return NULL;
}

static const char *jstr(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_IsString(v) ? v->valuestring : "";
}

/* A number of compare's JSON (null: NAN). */
static double jnum(const cJSON *o, const char *name)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_IsNumber(v) ? v->valuedouble : NAN;
}

/* The twin cell @c as a source of the figure, unless it is drawn (noted) already. */
static void note_twin(struct figure_ctx *ctx, const struct cmp_cell *c)
{
	size_t i;

	for (i = 0; i < ctx->src_ncells; i++)
		if (ctx->src_cells[i] == c->id)
			return;
	figure_source(ctx, c->id, (long long)c->nlat, "invocations");
}

/*
 * "baseline from EXP" when the twin's cells (@base, compare's cells_json)
 * are of another experiment than the drawn ones (@side), ", run R" (or
 * "baseline from run R") when of another run than the one drawn; each
 * twin cell not drawn noted as a source of the figure (note_twin()).
 */
static void baseline_from(struct figure_ctx *ctx, const struct cmp_data *d,
			  const cJSON *base, const cJSON *side, char *buf, size_t len)
{
	const struct cmp_cell *c, *s0 = NULL;
	const cJSON *b;
	int64_t run = ctx->run_id;
	const char *exp = NULL;

	if (cJSON_GetArraySize(side))
		s0 = cmp_cell_find(d, summary_id(cJSON_GetArrayItem(side, 0), "run"),
				   jstr(cJSON_GetArrayItem(side, 0), "cell_key"));
	cJSON_ArrayForEach(b, base) {
		if (!(c = cmp_cell_find(d, summary_id(b, "run"), jstr(b, "cell_key"))))
			continue;
		note_twin(ctx, c);
		if (s0 && strcmp(c->experiment, s0->experiment))
			exp = c->experiment;
		if (d->runs[c->run].id != ctx->run_id)
			run = d->runs[c->run].id;
	}
	buf[0] = '\0';
	if (exp)
		snprintf(buf, len, "baseline from %s", exp);
	if (run != ctx->run_id)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s run %lld",
			 exp ? "," : "baseline from", (long long)run);
}

/* The achieved coverage of side @o's median interval in %, "-" when none. */
static const char *pct(const cJSON *o, char *buf, size_t len)
{
	double v = jnum(o, "median_ci_coverage");

	if (isnan(v))
		snprintf(buf, len, "-");
	else
		snprintf(buf, len, "%.1f", 100 * v);
	return buf;
}

/* The slowdown of the compared pair @p whose side the cell is, into @x. */
static void side_pair(struct figure_ctx *ctx, const struct cmp_data *d, const cJSON *p,
		      struct vx_pair *x)
{
	const cJSON *st = cJSON_GetObjectItem(p, "stats"), *ci = cJSON_GetObjectItem(st, "ratio_ci");
	const cJSON *b = cJSON_GetObjectItem(st, "base"), *s = cJSON_GetObjectItem(st, "side");
	char cb[16], cs[16];
	int model;

	x->ratio = jnum(st, "ratio");
	x->lo = cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 0)->valuedouble : NAN;
	x->hi = cJSON_GetArraySize(ci) == 2 ? cJSON_GetArrayItem(ci, 1)->valuedouble : NAN;
	if (isnan(x->ratio))     /* a side without a measured call: nothing to draw */
		snprintf(x->value, sizeof(x->value), "no slowdown: a side has no calls");
	else if (isnan(x->lo))
		snprintf(x->value, sizeof(x->value), "slowdown %.3f [no interval]",
			 x->ratio);
	else
		snprintf(x->value, sizeof(x->value), "slowdown %.3f [%.3f, %.3f]", x->ratio,
			 x->lo, x->hi);
	baseline_from(ctx, d, cJSON_GetObjectItem(p, "base_cells"), cJSON_GetObjectItem(p, "cells"),
		      x->from, sizeof(x->from));
	model = !strncmp(jstr(p, "side"), "model", 5);      /* "model", "model lazy" */
	snprintf(x->note, sizeof(x->note), "N=%.0f/%.0f, cov %s/%s%%%s%s", jnum(b, "n"),
		 jnum(s, "n"), pct(b, cb, sizeof(cb)), pct(s, cs, sizeof(cs)),
		 model ? ", " : "", model ? jstr(p, "side") : "");
}

/* Where cell @id (@cell_key) of the drawn run stands among @top's pairs. */
static void cell_pair(struct figure_ctx *ctx, const struct cmp_data *d, const cJSON *top,
		      int64_t id, struct vx_pair *x)
{
	const struct cmp_cell *c = NULL;
	const cJSON *p = NULL;
	size_t i;

	*x = (struct vx_pair){ .ratio = NAN, .lo = NAN, .hi = NAN };
	for (i = 0; i < d->ncells && !c; i++)
		if (d->cells[i].id == id && d->runs[d->cells[i].run].id == ctx->run_id)
			c = &d->cells[i];
	if (c)
		p = cmp_pair_of(top, ctx->run_id, c->cell_key, &x->role);
	if (!p)
		return;
	if (x->role & CMP_ROLE_REFUSED)
		snprintf(x->note, sizeof(x->note), "pair refused: setups differ (compare)");
	else if (x->role & CMP_ROLE_BASE)
		snprintf(x->note, sizeof(x->note), "regular twin (baseline)");
	else
		side_pair(ctx, d, p, x);
}

/* One row: label, the class rates, x, ratio, lo, hi, value, note, from. */
static void write_row(struct figure_ctx *ctx, const char *event, int64_t id,
		      const char *lab, size_t x, const struct vx_pair *p)
{
	size_t k;

	gp_data_string(ctx->data, lab);
	for (k = 0; k < NCLASSES; k++)
		fprintf(ctx->data, " %.6g", class_rate(ctx, id, event, classes[k]));
	fprintf(ctx->data, " %zu", x);
	if (isnan(p->ratio))
		fprintf(ctx->data, " ? ? ?");
	else
		fprintf(ctx->data, " %.6g %.6g %.6g", p->ratio, isnan(p->lo) ? p->ratio : p->lo,
			isnan(p->hi) ? p->ratio : p->hi);
	fputc(' ', ctx->data);
	gp_data_string(ctx->data, p->value);
	fputc(' ', ctx->data);
	gp_data_string(ctx->data, p->note);
	fputc(' ', ctx->data);
	gp_data_string(ctx->data, p->from);
	fprintf(ctx->data, "\n");
}

static size_t max_len(size_t a, const char *s)
{
	return gp_label_len(s) > a ? gp_label_len(s) : a;
}

static int write_rows(struct figure_ctx *ctx, const char *event, const int64_t *ids,
		      char (*wl)[64], size_t n, const struct cmp_data *d, const cJSON *top)
{
	char (*extra)[CELL_LABEL_MAX] = calloc(n, sizeof(*extra)), lab[256];
	size_t i, k, longest = 0, npaired = 0;
	struct vx_pair p;

	if (!extra)
		return -ENOMEM;
	cell_label_extras(ctx->h, ctx->run_id, ids, n, extra);
	fprintf(ctx->data, "label");
	for (k = 0; k < NCLASSES; k++)
		fprintf(ctx->data, " %s", classes[k]);
	fprintf(ctx->data, " x ratio lo hi value note from\n");
	for (i = 0; i < n; i++)      /* the drawn cells first: a twin among them counts once */
		figure_source(ctx, ids[i], cell_measured(ctx->h, ids[i]), "invocations");
	for (i = 0; i < n; i++) {
		snprintf(lab, sizeof(lab), "%s%s%s (N=%lld)", wl[i], extra[i][0] ? " " : "",
			 extra[i], cell_measured(ctx->h, ids[i]));
		cell_pair(ctx, d, top, ids[i], &p);
		npaired += !isnan(p.ratio);
		longest = max_len(max_len(max_len(max_len(longest, lab), p.note), p.value),
				  p.from);
		write_row(ctx, event, ids[i], lab, i, &p);
	}
	figure_var_int(ctx, "maxlabel", (long long)longest);
	figure_var_int(ctx, "npaired", (long long)npaired);
	free(extra);
	return 0;
}

/*
 * Pair the cells of the whole database as `cvmbench compare` does with
 * its defaults (pair by confidential, baseline none, 95 %, the default
 * resamples and seed): its pairs into *@top. 0 or -errno.
 */
static int load_pairs(struct figure_ctx *ctx, struct cmp_data *d, cJSON **top)
{
	struct cmp_opts o = { .pair_by = "confidential", .baseline = "none", .level = 0.95,
			      .resamples = STATS_BOOT_RESAMPLES, .seed = STATS_BOOT_SEED };
	int ret;

	ret = cmp_load_handle(d, ctx->h, "this database");
	if (!ret) {
		cmp_dedupe(d);
		ret = cmp_assign(d, &o);
	}
	if (!ret && !(*top = cmp_pairs(d, &o)))
		ret = -ENOMEM;
	figure_var_int(ctx, "resamples", o.resamples);
	return ret;
}

/**
 * fig_vmexit_rate_data() - write the vmexit-rate data (see the top of this
 * file). Returns 0, -ENODATA when no cell of the run has exit counts, or
 * -errno.
 */
int fig_vmexit_rate_data(struct figure_ctx *ctx)
{
	static const char *const events[] = { VMEXIT_KVM_EXIT, VMEXIT_USERSPACE };
	const char *paths[1];
	struct cmp_data d = { .paths = paths };
	char (*wl)[64] = NULL;
	int64_t *ids = NULL;
	cJSON *top = NULL;
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
		ret = load_pairs(ctx, &d, &top) ?: write_rows(ctx, events[e - 1], ids, wl, n,
							     &d, top);
	figure_var_int(ctx, "ncells", (long long)n);
	figure_var_int(ctx, "run", ctx->run_id);
	figure_var_str(ctx, "event", n ? events[e - 1] : "");
	cJSON_Delete(top);
	cmp_free(&d);
	free(ids);
	free(wl);
	return ret;
}

const struct figure figure_vmexit_rate = {
	"vmexit-rate",
	"Fig. 5: VM exits per second by class (idle, io, mmio, msr, ...) per cell, against "
	"the slowdown of a confidential cell to its regular twin (as compare pairs them)",
	"vmexit-rate.gp", fig_vmexit_rate_data, 0,
};
