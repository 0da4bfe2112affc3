// SPDX-License-Identifier: MIT
/* plan-store.c - a plan into the database and onto stdout (plan-store.h). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "exitcode.h"
#include "log.h"
#include "plan-store.h"
#include "stats.h"

static int exec_ok(sqlite3 *h, const char *sql)
{
	return sqlite3_exec(h, sql, NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

static char *file_text(const char *path)
{
	FILE *f = fopen(path, "r");
	char *s = NULL;
	long n;

	if (f && !fseek(f, 0, SEEK_END) && (n = ftell(f)) >= 0 && !fseek(f, 0, SEEK_SET) &&
	    (s = calloc((size_t)n + 1, 1)) && fread(s, 1, (size_t)n, f) != (size_t)n) {
		free(s);
		s = NULL;
	}
	if (f)
		fclose(f);
	return s;
}

static void bind_real(sqlite3_stmt *st, int i, double v)
{
	if (isfinite(v))
		sqlite3_bind_double(st, i, v);
	else
		sqlite3_bind_null(st, i);
}

static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);

	sqlite3_reset(st);
	sqlite3_clear_bindings(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static int store_plan(sqlite3 *h, const struct plan_config *c, int64_t *id)
{
	sqlite3_stmt *st;
	char *text = file_text(c->path);
	int r;

	if (sqlite3_prepare_v2(h, "INSERT INTO plan (created_at, config_path, config_text, "
			       "trace, seeds, bootstrap, price, budget_mib) VALUES "
			       "(strftime('%Y-%m-%dT%H:%M:%SZ', 'now'), ?1, ?2, ?3, ?4, ?5, ?6, ?7)",
			       -1, &st, NULL) != SQLITE_OK) {
		free(text);
		return -1;
	}
	sqlite3_bind_text(st, 1, c->path, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, text ? text : "", -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, c->trace, -1, SQLITE_STATIC);
	sqlite3_bind_int(st, 4, c->seeds);
	sqlite3_bind_int(st, 5, c->bootstrap);
	sqlite3_bind_double(st, 6, c->price);
	bind_real(st, 7, c->budget > 0 ? c->budget / 1048576 : NAN);
	r = step_done(st);
	sqlite3_finalize(st);
	free(text);
	*id = sqlite3_last_insert_rowid(h);
	return r;
}

/* The median of @n values of @v (copied), in ms. */
static double median_ms(const double *v, size_t n)
{
	double *t = malloc((n ? n : 1) * sizeof(*t)), m;

	if (!t)
		return NAN;
	memcpy(t, v, n * sizeof(*t));
	stats_sort(t, n);
	m = n ? 1e3 * stats_median(t, n) : NAN;
	free(t);
	return m;
}

static int store_inputs(sqlite3 *h, int64_t id, const struct plan_config *c,
			const struct plan_inputs *in)
{
	sqlite3_stmt *st;
	int p, w, r = 0;

	if (sqlite3_prepare_v2(h, "INSERT INTO plan_input VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
			       "?8, ?9, ?10, ?11, ?12, ?13, ?14)", -1, &st, NULL) != SQLITE_OK)
		return -1;
	for (p = 0; p < in->nplat && !r; p++)
		for (w = 0; w < in->nwl && !r; w++) {
			const struct plan_meas *m = &in->m[p * in->nwl + w];

			sqlite3_bind_int64(st, 1, id);
			sqlite3_bind_text(st, 2, c->plat[p].name, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 3, in->wl[w], -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 4, (sqlite3_int64)m->trace_fns);
			sqlite3_bind_double(st, 5, plan_meas_mem(m) / 1024);
			sqlite3_bind_text(st, 6, plan_meas_source(m), -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 7, (sqlite3_int64)m->nmem);
			sqlite3_bind_int64(st, 8, (sqlite3_int64)m->ncold);
			sqlite3_bind_double(st, 9, median_ms(m->cold, m->ncold));
			sqlite3_bind_text(st, 10, m->cold_src, -1, SQLITE_STATIC);
			sqlite3_bind_int64(st, 11, (sqlite3_int64)m->nwarm);
			sqlite3_bind_double(st, 12, median_ms(m->warm, m->nwarm));
			sqlite3_bind_text(st, 13, m->cells, -1, SQLITE_STATIC);
			sqlite3_bind_text(st, 14, m->runs, -1, SQLITE_STATIC);
			r = step_done(st);
		}
	sqlite3_finalize(st);
	return r;
}

static int store_points(sqlite3 *h, int64_t id, const struct plan_config *c,
			const struct plan_answer *a)
{
	sqlite3_stmt *st;
	size_t i;
	int r = 0;

	if (sqlite3_prepare_v2(h, "INSERT INTO plan_point VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, "
			       "?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)", -1, &st, NULL))
		return -1;
	for (i = 0; i < a->npts && !r; i++) {
		const struct plan_point *pt = &a->pts[i];
		int kb = pt->pol.kind == POLICY_LRU || pt->pol.kind == POLICY_GDSF;

		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, c->plat[pt->plat].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, plan_policy_name(pt->pol.kind), -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, pt->pol.label, -1, SQLITE_STATIC);
		bind_real(st, 5, kb ? pt->pol.budget / 1048576 : pt->pol.param);
		if (isinf(pt->pol.param) && !kb)
			sqlite3_bind_double(st, 5, 1e300);
		sqlite3_bind_text(st, 6, pt->budget ? "budget" : "ladder", -1, SQLITE_STATIC);
		sqlite3_bind_int64(st, 7, (sqlite3_int64)pt->seed);
		sqlite3_bind_int64(st, 8, (sqlite3_int64)pt->r.invocations);
		sqlite3_bind_double(st, 9, pt->r.cold_frac);
		sqlite3_bind_int64(st, 10, (sqlite3_int64)pt->r.dropped);
		bind_real(st, 11, pt->r.p50 * 1e3);
		bind_real(st, 12, pt->r.p99 * 1e3);
		sqlite3_bind_double(st, 13, pt->r.mean_mem / 1048576);
		sqlite3_bind_double(st, 14, pt->r.peak_mem / 1048576);
		sqlite3_bind_double(st, 15, pt->r.idle_gib_s);
		sqlite3_bind_double(st, 16, pt->r.cost);
		r = step_done(st);
	}
	sqlite3_finalize(st);
	return r;
}

static int store_targets(sqlite3 *h, int64_t id, const struct plan_config *c,
			 const struct plan_answer *a)
{
	sqlite3_stmt *st;
	size_t i;
	int r = 0;

	if (sqlite3_prepare_v2(h, "INSERT INTO plan_target VALUES (?1, ?2, ?3, 'ttl', ?4, ?5, "
			       "?6, ?7, ?8, ?9, ?10)", -1, &st, NULL))
		return -1;
	for (i = 0; i < a->nrows && !r; i++) {
		const struct plan_target_row *t = &a->rows[i];

		sqlite3_bind_int64(st, 1, id);
		sqlite3_bind_text(st, 2, c->plat[t->plat].name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, c->plat[t->twin].name, -1, SQLITE_STATIC);
		sqlite3_bind_double(st, 4, 100 * t->target);
		bind_real(st, 5, t->mem);
		bind_real(st, 6, t->twin_mem);
		bind_real(st, 7, t->extra);
		bind_real(st, 8, t->lo);
		bind_real(st, 9, t->hi);
		sqlite3_bind_int(st, 10, t->replicates);
		r = step_done(st);
	}
	sqlite3_finalize(st);
	return r;
}

int plan_store(sqlite3 *h, const struct plan_config *c, const struct plan_inputs *in,
	       const struct plan_answer *a, int64_t *id)
{
	int r = exec_ok(h, "BEGIN IMMEDIATE");

	if (!r)
		r = store_plan(h, c, id) || store_inputs(h, *id, c, in) ||
			store_points(h, *id, c, a) || store_targets(h, *id, c, a);
	if (r)
		pr_err("plan: writing the plan: %s", sqlite3_errmsg(h));
	if (exec_ok(h, r ? "ROLLBACK" : "COMMIT") && !r) {
		pr_err("plan: committing the plan: %s", sqlite3_errmsg(h));
		r = -1;
	}
	return r ? EXIT_FAILED : 0;
}

static void print_inputs(FILE *out, const struct plan_config *c, const struct plan_inputs *in)
{
	int p, w;

	fprintf(out, "%-14s %-22s %6s %10s %-9s %8s %11s %8s %11s  %s\n", "PLATFORM", "FUNCTION",
		"TRACE", "INST_MIB", "SOURCE", "COLD_N", "COLD_P50MS", "WARM_N", "WARM_P50MS",
		"CELLS");
	for (p = 0; p < in->nplat; p++)
		for (w = 0; w < in->nwl; w++) {
			const struct plan_meas *m = &in->m[p * in->nwl + w];

			fprintf(out, "%-14s %-22s %6zu %10.1f %-9s %8zu %11.2f %8zu %11.3f  %s\n",
				c->plat[p].name, in->wl[w], m->trace_fns, plan_meas_mem(m) / 1024,
				plan_meas_source(m), m->ncold, median_ms(m->cold, m->ncold),
				m->nwarm, median_ms(m->warm, m->nwarm), m->cells);
		}
}

static void print_targets(FILE *out, const struct plan_config *c, const struct plan_answer *a)
{
	size_t i;

	if (!a->nrows)
		return;
	fprintf(out, "\nextra warm memory of a CVM pool over its twin (TTL ladder; 95 %% interval "
		"over %d seeds x %d resamples)\n", c->seeds, c->bootstrap + 1);
	fprintf(out, "%-14s %-14s %7s %11s %11s %11s %23s\n", "PLATFORM", "TWIN", "TARGET%",
		"MEM_MIB", "TWIN_MIB", "EXTRA_MIB", "INTERVAL_MIB");
	for (i = 0; i < a->nrows; i++) {
		const struct plan_target_row *t = &a->rows[i];

		fprintf(out, "%-14s %-14s %7.3g %11.1f %11.1f %11.1f %11.1f..%-11.1f\n",
			c->plat[t->plat].name, c->plat[t->twin].name, 100 * t->target, t->mem,
			t->twin_mem, t->extra, t->lo, t->hi);
	}
}

static void print_budget(FILE *out, const struct plan_config *c, const struct plan_answer *a)
{
	size_t i;

	if (c->budget <= 0)
		return;
	fprintf(out, "\nbudget %.0f MiB\n%-14s %-20s %6s %10s %10s %12s\n", c->budget / 1048576,
		"PLATFORM", "POLICY", "SEED", "COLD%", "P99_MS", "MEAN_MIB");
	for (i = 0; i < a->npts; i++)
		if (a->pts[i].budget)
			fprintf(out, "%-14s %-20s %6llu %10.4f %10.2f %12.1f\n",
				c->plat[a->pts[i].plat].name, a->pts[i].pol.label,
				(unsigned long long)a->pts[i].seed, 100 * a->pts[i].r.cold_frac,
				a->pts[i].r.p99 * 1e3, a->pts[i].r.mean_mem / 1048576);
}

void plan_print(FILE *out, const struct plan_config *c, const struct plan_inputs *in,
		const struct plan_answer *a)
{
	print_inputs(out, c, in);
	print_targets(out, c, a);
	print_budget(out, c, a);
}
