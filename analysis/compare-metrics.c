// SPDX-License-Identifier: MIT
/*
 * compare-metrics.c - the numbers of a service pair, one entry per
 * catalog metric either side measured (compare-catalog.c): each side's
 * values over its measured windows pooled over its cells (repeats, runs,
 * databases), their N, median with its distribution-free 95 % interval
 * and the coverage it achieves (stats.c, as for latencies), coefficient
 * of variation; and for a metric with a direction the overhead of the
 * side with its percentile bootstrap interval (stats-overhead.c):
 * higher is better gives regular / side - 1, lower is better side /
 * regular - 1, so that a positive overhead always means the side (the
 * CVM) is worse. A number that was not measured is null, with why.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "service-metrics.h"
#include "stats.h"
#include "stats-overhead.h"

/* The values of catalog metric @m over the cells of @s, sorted; *@n their count. */
static double *pooled(const struct cmp_data *d, const struct cmp_side *s, int m, size_t *n)
{
	const struct cmp_cell *c;
	size_t i, k;
	double *x;

	for (*n = 0, i = 0; i < s->n; i++)
		for (c = &d->cells[s->cells[i]], k = 0; k < c->nsvc; k++)
			*n += c->svc[k].metric == m ? c->svc[k].n : 0;
	x = malloc((*n + 1) * sizeof(*x));
	for (*n = 0, i = 0; x && i < s->n; i++)
		for (c = &d->cells[s->cells[i]], k = 0; k < c->nsvc; k++)
			if (c->svc[k].metric == m) {
				memcpy(x + *n, c->svc[k].v, c->svc[k].n * sizeof(*x));
				*n += c->svc[k].n;
			}
	if (x)
		stats_sort(x, *n);
	return x;
}

static cJSON *side_of(const double *x, size_t n)
{
	cJSON *o = cJSON_CreateObject();
	double lo = NAN, hi = NAN, cov = NAN;
	int below = n ? stats_median_ci(x, n, 0.95, &lo, &hi, &cov) != 0 : 0;

	cJSON_AddNumberToObject(o, "n", (double)n);
	cmp_add_num(o, "median", n ? stats_median(x, n) : NAN);
	cmp_add_range(o, "median_ci", lo, hi);
	cmp_add_num(o, "median_ci_coverage", cov);
	cJSON_AddBoolToObject(o, "median_ci_below_level", below || !(cov >= 0.95));
	cmp_add_num(o, "cv", stats_cov(x, n));
	return o;
}

/**
 * cmp_svc_side_json() - catalog metric @metric over the windows of side
 * @s: {n, median, median_ci, median_ci_coverage, median_ci_below_level,
 * cv}, nulls where nothing was measured. NULL on no memory.
 */
cJSON *cmp_svc_side_json(const struct cmp_data *d, const struct cmp_side *s, int metric)
{
	size_t n;
	double *x = pooled(d, s, metric, &n);
	cJSON *o = x ? side_of(x, n) : NULL;

	free(x);
	return o;
}

/* Why the overhead of @def is null, or NULL when it is not. */
static const char *no_overhead(const struct cmp_metric_def *def, const double *a, size_t na,
			       const double *b, size_t nb)
{
	const double *den = def->direction == SVC_HIGHER ? b : a;
	size_t nden = def->direction == SVC_HIGHER ? nb : na;

	if (def->direction == SVC_INFO)
		return "context only: the catalog gives it no direction";
	if (!na || !nb)
		return na ? "not measured on this side" : "not measured on the baseline side";
	if (!(stats_median(den, nden) > 0))
		return "a median not above 0 (no ratio): see the medians";
	return NULL;
}

static void add_flags(cJSON *m, const double *a, size_t na, const double *b, size_t nb)
{
	cJSON *f = cJSON_AddArrayToObject(m, "flags");
	double lo, hi, ca = NAN, cb = NAN;

	if (stats_cov(a, na) > STATS_NOISY_COV || stats_cov(b, nb) > STATS_NOISY_COV)
		cJSON_AddItemToArray(f, cJSON_CreateString("noisy"));
	if (na)
		stats_median_ci(a, na, 0.95, &lo, &hi, &ca);
	if (nb)
		stats_median_ci(b, nb, 0.95, &lo, &hi, &cb);
	if (!(ca >= 0.95) || !(cb >= 0.95))
		cJSON_AddItemToArray(f, cJSON_CreateString("small"));
}

/* One metric's entry: its name, both sides, the overhead with its interval. */
static cJSON *metric_json(int m, const double *a, size_t na, const double *b, size_t nb,
			  const struct cmp_opts *o)
{
	const struct cmp_metric_def *def = cmp_catalog_at((size_t)m);
	struct stats_overhead ov = { .level = o->level, .resamples = o->resamples,
				     .seed = o->seed };
	const char *why = no_overhead(def, a, na, b, nb);
	cJSON *e = cJSON_CreateObject();

	cJSON_AddStringToObject(e, "parser", def->parser);
	cJSON_AddStringToObject(e, "metric", def->name);
	cJSON_AddStringToObject(e, "unit", def->unit);
	cJSON_AddStringToObject(e, "direction", cmp_catalog_direction(def->direction));
	cJSON_AddItemToObject(e, "base", side_of(a, na));
	cJSON_AddItemToObject(e, "side", side_of(b, nb));
	if (!why && stats_boot_overhead(a, na, b, nb, def->direction, &ov))
		why = "the bootstrap found no ratio";
	cmp_add_num(e, "overhead", why ? NAN : ov.overhead);
	cmp_add_range(e, "overhead_ci", why ? NAN : ov.lo, why ? NAN : ov.hi);
	cmp_add_num(e, "overhead_ci_level", why ? NAN : ov.level);
	if (why)
		cJSON_AddStringToObject(e, "why", why);
	add_flags(e, a, na, b, nb);
	return e;
}

/* Whether catalog metric @m has a value in a cell of @s. */
static int side_has(const struct cmp_data *d, const struct cmp_side *s, int m)
{
	const struct cmp_cell *c;
	size_t i, k;

	for (i = 0; i < s->n; i++)
		for (c = &d->cells[s->cells[i]], k = 0; k < c->nsvc; k++)
			if (c->svc[k].metric == m && c->svc[k].n)
				return 1;
	return 0;
}

/**
 * cmp_svc_metrics() - the metrics of the service pair (@base, @other):
 * an array, in catalog order, of {parser, metric, unit, direction, base,
 * side, overhead, overhead_ci, overhead_ci_level, why (when the overhead
 * is null), flags}. NULL on no memory.
 */
cJSON *cmp_svc_metrics(const struct cmp_data *d, const struct cmp_side *base,
		       const struct cmp_side *other, const struct cmp_opts *o)
{
	cJSON *arr = cJSON_CreateArray();
	double *a, *b;
	size_t na, nb;
	int m;

	for (m = 0; arr && cmp_catalog_at((size_t)m); m++) {
		if (!side_has(d, base, m) && !side_has(d, other, m))
			continue;
		a = pooled(d, base, m, &na);
		b = pooled(d, other, m, &nb);
		if (a && b)
			cJSON_AddItemToArray(arr, metric_json(m, a, na, b, nb, o));
		free(a);
		free(b);
	}
	return arr;
}

/**
 * cmp_svc_unknown() - the metrics of a catalog parser on either side that
 * the catalog does not name: [{parser, metric, why}], each once. They are
 * shown, never compared (no unit or direction is known for them).
 */
cJSON *cmp_svc_unknown(const struct cmp_data *d, const struct cmp_side *base,
		       const struct cmp_side *other)
{
	const struct cmp_side *sides[2] = { base, other };
	cJSON *arr = cJSON_CreateArray(), *e;
	const struct cmp_cell *c;
	size_t s, i, k;

	for (s = 0; arr && s < 2; s++)
		for (i = 0; i < sides[s]->n; i++)
			for (c = &d->cells[sides[s]->cells[i]], k = 0; k < c->nunknown; k++) {
				cJSON_ArrayForEach(e, arr)
					if (!strcmp(cJSON_GetObjectItem(e, "parser")->valuestring,
						    c->svc_unknown[k].key) &&
					    !strcmp(cJSON_GetObjectItem(e, "metric")->valuestring,
						    c->svc_unknown[k].value))
						break;
				if (e)
					continue;
				e = cJSON_CreateObject();
				cJSON_AddStringToObject(e, "parser", c->svc_unknown[k].key);
				cJSON_AddStringToObject(e, "metric", c->svc_unknown[k].value);
				cJSON_AddStringToObject(e, "why", "not in the catalog "
							"(metrics/service-metrics.h): not compared");
				cJSON_AddItemToArray(arr, e);
			}
	return arr;
}

/**
 * cmp_range_at() - end @i (0: low, 1: high) of the interval @name of @o
 * (cmp_add_range()), NAN when it is null or absent.
 */
double cmp_range_at(const cJSON *o, const char *name, int i)
{
	const cJSON *v = cJSON_GetObjectItem(o, name);

	return cJSON_GetArraySize(v) == 2 ? cJSON_GetArrayItem(v, i)->valuedouble : NAN;
}

/**
 * cmp_pair_is_service() - whether the pair (or unpaired entry) @pair of
 * cmp_pairs() is one of service cells.
 */
int cmp_pair_is_service(const cJSON *pair)
{
	return cJSON_IsTrue(cJSON_GetObjectItem(pair, "service"));
}
