// SPDX-License-Identifier: MIT
/*
 * compare-group.c - pair the cells: those with one pair key form a family;
 * in it, the cells on the baseline side (confidential = none, or the
 * --baseline value) are pooled as one side and each other side value is
 * pooled and paired with them. Environments are checked (compare-env.c)
 * before anything is computed; families without a baseline or without
 * another side, and cells without a side, are listed as unpaired with why.
 * A pair (or unpaired entry) of service cells says "service": true, and a
 * compared one has its metrics in stats (compare-metrics.c).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"

static int cmp_str(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* Order: workload, size, mode, pair key, baseline side first, side, then load order. */
static int by_family(const void *pa, const void *pb, void *ctx)
{
	const struct cmp_data *d = ((const void **)ctx)[0];
	const char *base = ((const void **)ctx)[1];
	const struct cmp_cell *a = &d->cells[*(const size_t *)pa];
	const struct cmp_cell *b = &d->cells[*(const size_t *)pb];
	int r;

	if ((r = strcmp(a->workload, b->workload)) || (r = strcmp(a->size, b->size)) ||
	    (r = strcmp(a->mode, b->mode)))
		return r;
	if (a->pair != b->pair)
		return a->pair < b->pair ? -1 : 1;
	if ((r = (b->side && !strcmp(b->side, base)) - (a->side && !strcmp(a->side, base))))
		return r;
	if ((r = cmp_str(a->side, b->side)))
		return r;
	return (*(const size_t *)pa > *(const size_t *)pb) -
	       (*(const size_t *)pa < *(const size_t *)pb);
}

static cJSON *cells_json(const struct cmp_data *d, const struct cmp_side *s)
{
	cJSON *arr = cJSON_CreateArray(), *o;
	size_t i;

	for (i = 0; arr && i < s->n; i++) {
		const struct cmp_cell *c = &d->cells[s->cells[i]];

		o = cJSON_CreateObject();
		cJSON_AddStringToObject(o, "db", d->paths[d->runs[c->run].db]);
		cJSON_AddNumberToObject(o, "run", (double)d->runs[c->run].id);
		cJSON_AddStringToObject(o, "cell_key", c->cell_key);
		cJSON_AddNumberToObject(o, "repeat", c->repeat);
		cJSON_AddItemToArray(arr, o);
	}
	return arr;
}

static void add_unpaired(cJSON *list, const struct cmp_data *d, const struct cmp_side *s,
			 const char *why)
{
	const struct cmp_cell *c = &d->cells[s->cells[0]];
	cJSON *o = cJSON_CreateObject();

	cJSON_AddStringToObject(o, "workload", c->workload);
	cJSON_AddStringToObject(o, "size", c->size);
	cJSON_AddStringToObject(o, "mode", c->mode);
	cJSON_AddStringToObject(o, "backend", c->backend);
	if (s->label)
		cJSON_AddStringToObject(o, "side", s->label);
	else
		cJSON_AddNullToObject(o, "side");
	cJSON_AddItemToObject(o, "cells", cells_json(d, s));
	cJSON_AddStringToObject(o, "why", why);
	if (cmp_side_is_service(d, s))
		cJSON_AddBoolToObject(o, "service", 1);
	cJSON_AddItemToArray(list, o);
}

/*
 * The series of side @side with KSM setting @ksm, named as the memory
 * figures name it (cell-series.h CELL_SERIES_NAME): "ksm on" for a
 * regular VM, "model", "model lazy", "sev-snp, ksm on", "tdx, ksm unchanged".
 */
static void series_name(const char *side, const char *ksm, char *buf, size_t len)
{
	if (!strcmp(side, "none"))
		snprintf(buf, len, "ksm %s", ksm);
	else
		snprintf(buf, len, "%s%s%s", side, strcmp(ksm, "off") ? ", ksm " : "",
			 strcmp(ksm, "off") ? ksm : "");
}

/* The pair's identity: workload, size, mode, key, what it compares. */
static cJSON *pair_head(const struct cmp_data *d, const struct cmp_side *base,
			const struct cmp_side *other, const struct cmp_opts *o)
{
	const struct cmp_cell *c = &d->cells[base->cells[0]];
	cJSON *p = cJSON_CreateObject();
	char key[24], kind[160], ksm[16], series[64];

	snprintf(key, sizeof(key), "%016llx", (unsigned long long)c->pair);
	if (!strcmp(o->pair_by, "confidential"))
		snprintf(kind, sizeof(kind), "%s", !strncmp(other->label, "model", 5) ?
			 "model overhead" : "CVM overhead");
	else
		snprintf(kind, sizeof(kind), "%s %s vs %s", o->pair_by, other->label,
			 base->label);
	cJSON_AddStringToObject(p, "workload", c->workload);
	cJSON_AddStringToObject(p, "size", c->size);
	cJSON_AddStringToObject(p, "mode", c->mode);
	cJSON_AddStringToObject(p, "pair_key", key);
	cJSON_AddStringToObject(p, "kind", kind);
	cJSON_AddStringToObject(p, "baseline", base->label);
	cJSON_AddStringToObject(p, "side", other->label);
	if (strcmp(o->pair_by, "confidential"))
		return p;
	/* ksm is in the pair key: both sides hold the same setting */
	cmp_spec_value(c->spec, "ksm", ksm, sizeof(ksm));
	series_name(other->label, ksm, series, sizeof(series));
	cJSON_AddStringToObject(p, "ksm", ksm);
	cJSON_AddStringToObject(p, "series", series);
	return p;
}

/* Pair @other with @base: checked, then summarized, into @top. */
static void pair_one(const struct cmp_data *d, const struct cmp_side *base,
		     const struct cmp_side *other, const struct cmp_opts *o, cJSON *top)
{
	cJSON *p = pair_head(d, base, other, o), *diff = cJSON_CreateArray(), *st;
	int service = cmp_side_is_service(d, base) || cmp_side_is_service(d, other);

	if (service)
		cJSON_AddBoolToObject(p, "service", 1);
	cmp_env_diff(d, base, other, o, diff);
	cJSON_AddItemToObject(p, "base_cells", cells_json(d, base));
	cJSON_AddItemToObject(p, "cells", cells_json(d, other));
	cJSON_AddItemToObject(p, "differences", diff);
	if (cJSON_GetArraySize(diff) && !o->allow_mismatch) {
		cJSON_AddItemToArray(cJSON_GetObjectItem(top, "refused"), p);
		return;
	}
	st = cmp_pair_stats(d, base, other, o);
	if (service && st) {
		cJSON_AddItemToObject(st, "metrics", cmp_svc_metrics(d, base, other, o));
		cJSON_AddItemToObject(st, "unknown_metrics", cmp_svc_unknown(d, base, other));
	}
	cJSON_AddBoolToObject(p, "mismatch_allowed", cJSON_GetArraySize(diff) > 0);
	cJSON_AddItemToObject(p, "stats", st);
	cJSON_AddItemToArray(cJSON_GetObjectItem(top, "pairs"), p);
}

/* The family v[0..n): its baseline side, then each other side paired with it. */
static void family(const struct cmp_data *d, const size_t *v, size_t n,
		   const struct cmp_opts *o, cJSON *top)
{
	cJSON *unpaired = cJSON_GetObjectItem(top, "unpaired");
	struct cmp_side base = { 0 }, other;
	size_t i = 0, j, paired = 0;

	for (base.cells = (size_t *)v; i < n && !cmp_str(d->cells[v[i]].side, o->baseline); i++)
		;
	base.n = i;
	base.label = o->baseline;
	for (; i < n; i = j) {
		other = (struct cmp_side){ (size_t *)v + i, 0, d->cells[v[i]].side };
		for (j = i; j < n && !cmp_str(d->cells[v[j]].side, other.label); j++)
			;
		other.n = j - i;
		if (!other.label) {
			add_unpaired(unpaired, d, &other, d->cells[v[i]].why_unpaired);
		} else if (!base.n) {
			add_unpaired(unpaired, d, &other, "no baseline twin with the same settings");
		} else {
			pair_one(d, &base, &other, o, top);
			paired++;
		}
	}
	if (base.n && !paired)
		add_unpaired(unpaired, d, &base, "no twin: no other cell with the same settings "
			     "but the pairing dimension");
}

/**
 * cmp_pairs() - pair the cells of @d (after cmp_assign()) as @o says:
 * an object with "pairs" (summarized), "refused" (environments differ,
 * with the differences) and "unpaired" (with why). NULL on no memory.
 */
cJSON *cmp_pairs(const struct cmp_data *d, const struct cmp_opts *o)
{
	const void *ctx[2] = { d, o->baseline };
	size_t *v = malloc((d->ncells + 1) * sizeof(*v)), i, j;
	cJSON *top = cJSON_CreateObject();

	if (!v || !top) {
		free(v);
		cJSON_Delete(top);
		return NULL;
	}
	cJSON_AddItemToObject(top, "pairs", cJSON_CreateArray());
	cJSON_AddItemToObject(top, "refused", cJSON_CreateArray());
	cJSON_AddItemToObject(top, "unpaired", cJSON_CreateArray());
	for (i = 0; i < d->ncells; i++)
		v[i] = i;
	qsort_r(v, d->ncells, sizeof(*v), by_family, ctx);
	for (i = 0; i < d->ncells; i = j) {
		for (j = i + 1; j < d->ncells && d->cells[v[j]].pair == d->cells[v[i]].pair &&
		     !strcmp(d->cells[v[j]].workload, d->cells[v[i]].workload); j++)
			;
		family(d, v + i, j - i, o, top);
	}
	free(v);
	return top;
}
