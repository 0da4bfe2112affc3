// SPDX-License-Identifier: MIT
/*
 * compare-stats.c - the numbers of one pair: each side's invocations
 * pooled over its cells (repeats, runs, databases), their median with its
 * distribution-free 95 % interval and achieved coverage (stats.c), p50,
 * p99 (from STATS_P99_MIN_N invocations on, else null), coefficient of
 * variation; the ratio of the medians with its bootstrap interval
 * (stats-boot.c; seed and resamples given back); the differences of p50,
 * p99 and memory; exit rates by class where the vmexit probe measured.
 * A number that was not measured is null, never 0.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "stats.h"
#include "stats-boot.h"

/**
 * cmp_cmp_add_num() - add @v to @o as @name, or null for NAN / infinity.
 */
void cmp_add_num(cJSON *o, const char *name, double v)
{
	if (isfinite(v))
		cJSON_AddNumberToObject(o, name, v);
	else
		cJSON_AddNullToObject(o, name);
}

/**
 * cmp_add_range() - add [@lo, @hi] to @o as @name, or null when either is
 * not finite.
 */
void cmp_add_range(cJSON *o, const char *name, double lo, double hi)
{
	cJSON *a = cJSON_CreateArray();

	if (isfinite(lo) && isfinite(hi)) {
		cJSON_AddItemToArray(a, cJSON_CreateNumber(lo));
		cJSON_AddItemToArray(a, cJSON_CreateNumber(hi));
		cJSON_AddItemToObject(o, name, a);
	} else {
		cJSON_Delete(a);
		cJSON_AddNullToObject(o, name);
	}
}

/* The latencies (ms) of @s's cells, pooled; *@n gets the count. */
static double *pooled_ms(const struct cmp_data *d, const struct cmp_side *s, size_t *n)
{
	size_t i, j, k = 0;
	double *x;

	for (*n = 0, i = 0; i < s->n; i++)
		*n += d->cells[s->cells[i]].nlat;
	x = malloc((*n + 1) * sizeof(*x));
	for (i = 0; x && i < s->n; i++)
		for (j = 0; j < d->cells[s->cells[i]].nlat; j++)
			x[k++] = d->cells[s->cells[i]].lat_ns[j] / 1e6;
	return x;
}

/* Mean of the cells' memory, over the cells that have it; NAN when none. */
static double side_mem(const struct cmp_data *d, const struct cmp_side *s)
{
	double sum = 0;
	size_t i, n = 0;

	for (i = 0; i < s->n; i++)
		if (!isnan(d->cells[s->cells[i]].mem_kb)) {
			sum += d->cells[s->cells[i]].mem_kb;
			n++;
		}
	return n ? sum / (double)n : NAN;
}

static cJSON *side_json(const struct stats_summary *s, double cv, double mem, int ci)
{
	cJSON *o = cJSON_CreateObject();

	cJSON_AddNumberToObject(o, "n", (double)s->n);
	cmp_add_num(o, "median_ms", s->median);
	cmp_add_range(o, "median_ci_ms", s->ci_lo, s->ci_hi);
	cmp_add_num(o, "median_ci_coverage", s->ci_level);
	cJSON_AddBoolToObject(o, "median_ci_below_level", ci != 0);
	cmp_add_num(o, "p50_ms", s->median);
	cmp_add_num(o, "p99_ms", s->n >= STATS_P99_MIN_N ? s->p99 : NAN);
	cmp_add_num(o, "cv", cv);
	cmp_add_num(o, "mem_kb", mem);
	return o;
}

/* Exit rates by class: {"CLASS": {"base": v|null, "side": v|null}}. */
static cJSON *exits_json(const struct cmp_data *d, const struct cmp_side *base,
			 const struct cmp_side *other)
{
	const struct cmp_side *sides[2] = { base, other };
	const char *names[2] = { "base", "side" };
	cJSON *o = cJSON_CreateObject(), *cls;
	const struct cmp_cell *c;
	size_t s, i, k;

	for (s = 0; s < 2; s++)
		for (i = 0; i < sides[s]->n; i++) {
			c = &d->cells[sides[s]->cells[i]];
			for (k = 0; k < c->nexits; k++) {
				cls = cJSON_GetObjectItem(o, c->exits[k].key);
				if (!cls) {
					cls = cJSON_AddObjectToObject(o, c->exits[k].key);
					cJSON_AddNullToObject(cls, "base");
					cJSON_AddNullToObject(cls, "side");
				}
				cJSON_ReplaceItemInObject(cls, names[s],
					cJSON_CreateNumber(strtod(c->exits[k].value, NULL)));
			}
		}
	return o;
}

static void add_flags(cJSON *st, const struct stats_summary *a, const struct stats_summary *b,
		      double cova, double covb)
{
	cJSON *f = cJSON_AddArrayToObject(st, "flags");

	if (cova > STATS_NOISY_COV || covb > STATS_NOISY_COV)
		cJSON_AddItemToArray(f, cJSON_CreateString("noisy"));
	if (a->ci_level < 0.95 || b->ci_level < 0.95 || isnan(a->ci_level) ||
	    isnan(b->ci_level))
		cJSON_AddItemToArray(f, cJSON_CreateString("small"));
}

/**
 * cmp_pair_stats() - the statistics of the pair (@base, @other) as a
 * cJSON object (see the file comment). NULL on no memory.
 */
cJSON *cmp_pair_stats(const struct cmp_data *d, const struct cmp_side *base,
		      const struct cmp_side *other, const struct cmp_opts *o)
{
	struct stats_ratio r = { .level = o->level, .resamples = o->resamples, .seed = o->seed };
	struct stats_summary sa, sb;
	double *a, *b, cova, covb, ma = side_mem(d, base), mb = side_mem(d, other);
	size_t na, nb;
	int cia, cib;
	cJSON *st;

	a = pooled_ms(d, base, &na);
	b = pooled_ms(d, other, &nb);
	st = a && b ? cJSON_CreateObject() : NULL;
	if (!st)
		goto out;
	cova = stats_cov(a, na);
	covb = stats_cov(b, nb);
	stats_boot_median_ratio(a, na, b, nb, &r);
	stats_summarize(a, na, &sa);
	stats_summarize(b, nb, &sb);
	cia = stats_median_ci(a, na, 0.95, &sa.ci_lo, &sa.ci_hi, &sa.ci_level);
	cib = stats_median_ci(b, nb, 0.95, &sb.ci_lo, &sb.ci_hi, &sb.ci_level);
	cmp_add_num(st, "ratio", r.ratio);
	cmp_add_range(st, "ratio_ci", r.lo, r.hi);
	cmp_add_num(st, "ratio_ci_level", r.level);
	cJSON_AddItemToObject(st, "base", side_json(&sa, cova, ma, cia));
	cJSON_AddItemToObject(st, "side", side_json(&sb, covb, mb, cib));
	cmp_add_num(st, "p50_diff_ms", sb.median - sa.median);
	cmp_add_num(st, "p99_diff_ms", na >= STATS_P99_MIN_N && nb >= STATS_P99_MIN_N ?
		sb.p99 - sa.p99 : NAN);
	cmp_add_num(st, "mem_diff_kb", mb - ma);
	cJSON_AddItemToObject(st, "exits_per_s", exits_json(d, base, other));
	add_flags(st, &sa, &sb, cova, covb);
out:
	free(a);
	free(b);
	return st;
}
