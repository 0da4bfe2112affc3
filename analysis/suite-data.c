// SPDX-License-Identifier: MIT
/*
 * suite-data.c - the system suite of a database (every run), from the
 * same loading, pairing and statistics as `cvmbench compare` (defaults:
 * pair by confidential, baseline none, 2000 resamples, seed 20261201), so
 * that the figures and the report print compare's numbers:
 *
 *   { "groups": [ { workload, pair_key, backend, label,
 *       headline: {parser, metric, unit} | null (the tool's first metric
 *                 where higher is better, in catalog order),
 *       bars: [ {side, n, median, median_ci, median_ci_coverage, ...,
 *                cell_ids} ],
 *       overheads: [ {side, parser, metric, unit, direction, base, side_n,
 *                     overhead, overhead_ci, why, flags} ],
 *       missing: [ {side, kind (skipped, refused, unpaired), why} ],
 *       unknown: [ {parser, metric, why} ] (names the catalog lacks) } ] }
 *
 * A side is missing when its cell was skipped (the skip's reason: a host
 * without that CVM), its pair refused, or it has no twin; it is listed
 * with why, never drawn as a zero.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cjson/cJSON.h>
#include <sqlite3.h>

#include "analysis.h"
#include "compare.h"
#include "service-metrics.h"
#include "stats-boot.h"
#include "suite-data.h"
#include "summary.h"

static const char *jstr(const cJSON *o, const char *name)
{
	return summary_str(o, name, "");
}

/* The group of (@workload, @key) in @groups, made when @make and missing. */
static cJSON *group_get(cJSON *groups, const char *workload, const char *key, int make)
{
	cJSON *g;

	cJSON_ArrayForEach(g, groups)
		if (!strcmp(jstr(g, "workload"), workload) && !strcmp(jstr(g, "pair_key"), key))
			return g;
	if (!make)
		return NULL;
	g = cJSON_CreateObject();
	cJSON_AddStringToObject(g, "workload", workload);
	cJSON_AddStringToObject(g, "pair_key", key);
	cJSON_AddArrayToObject(g, "bars");
	cJSON_AddArrayToObject(g, "overheads");
	cJSON_AddArrayToObject(g, "missing");
	cJSON_AddArrayToObject(g, "unknown");
	cJSON_AddItemToArray(groups, g);
	return g;
}

static void key_hex(uint64_t pair, char *buf, size_t len)
{
	snprintf(buf, len, "%016llx", (unsigned long long)pair);
}

/* The headline metric of the cells of (@workload, @pair): its catalog index, or -1. */
static int headline_of(const struct cmp_data *d, const char *workload, uint64_t pair)
{
	const struct cmp_cell *c;
	int best = -1;
	size_t i, k;

	for (i = 0; i < d->ncells; i++) {
		c = &d->cells[i];
		if (c->pair != pair || strcmp(c->workload, workload))
			continue;
		for (k = 0; k < c->nsvc; k++)
			if (cmp_catalog_at((size_t)c->svc[k].metric)->direction == SVC_HIGHER &&
			    (best < 0 || c->svc[k].metric < best))
				best = c->svc[k].metric;
	}
	return best;
}

/* One bar per side of the group @g (baseline first): the headline metric's median. */
static void add_bars(cJSON *g, const struct cmp_data *d, uint64_t pair, const char *base)
{
	const char *workload = jstr(g, "workload"), *sides[16];
	size_t i, j, ns = 0, *v = malloc((d->ncells + 1) * sizeof(*v));
	struct cmp_side s;
	int m = headline_of(d, workload, pair);
	cJSON *b, *h, *ids;

	if (m < 0 || !v) {
		cJSON_AddNullToObject(g, "headline");
		free(v);
		return;
	}
	h = cJSON_AddObjectToObject(g, "headline");
	cJSON_AddStringToObject(h, "parser", cmp_catalog_at((size_t)m)->parser);
	cJSON_AddStringToObject(h, "metric", cmp_catalog_at((size_t)m)->name);
	cJSON_AddStringToObject(h, "unit", cmp_catalog_at((size_t)m)->unit);
	sides[ns++] = base;
	for (i = 0; i < d->ncells && ns < 16; i++) {
		const struct cmp_cell *c = &d->cells[i];

		for (j = 0; c->side && j < ns && strcmp(sides[j], c->side); j++)
			;
		if (c->side && j == ns && c->pair == pair && !strcmp(c->workload, workload))
			sides[ns++] = c->side;
	}
	for (j = 0; j < ns; j++) {
		s = (struct cmp_side){ v, 0, sides[j] };
		for (i = 0; i < d->ncells; i++)
			if (d->cells[i].pair == pair && d->cells[i].side &&
			    !strcmp(d->cells[i].side, sides[j]) && !strcmp(d->cells[i].workload, workload))
				v[s.n++] = i;
		if (!s.n || !(b = cmp_svc_side_json(d, &s, m)))
			continue;
		cJSON_AddStringToObject(b, "side", sides[j]);
		ids = cJSON_AddArrayToObject(b, "cell_ids");
		for (i = 0; i < s.n; i++)
			cJSON_AddItemToArray(ids, cJSON_CreateNumber((double)d->cells[v[i]].id));
		cJSON_AddItemToArray(cJSON_GetObjectItem(g, "bars"), b);
	}
	free(v);
}

static void add_missing(cJSON *g, const char *side, const char *kind, const char *why)
{
	cJSON *m = cJSON_CreateObject();

	cJSON_AddStringToObject(m, "side", side);
	cJSON_AddStringToObject(m, "kind", kind);
	cJSON_AddStringToObject(m, "why", why);
	cJSON_AddItemToArray(cJSON_GetObjectItem(g, "missing"), m);
}

/* The overheads of a compared service pair @p into its group. */
static void add_overheads(cJSON *g, const cJSON *p)
{
	const cJSON *m;
	cJSON *o, *u = cJSON_GetObjectItem(g, "unknown");

	cJSON_ArrayForEach(m, cJSON_GetObjectItem(cJSON_GetObjectItem(p, "stats"),
						  "unknown_metrics"))
		if (u && cJSON_GetArraySize(u) < 16)
			cJSON_AddItemToArray(u, cJSON_Duplicate(m, 1));

	cJSON_ArrayForEach(m, cJSON_GetObjectItem(cJSON_GetObjectItem(p, "stats"), "metrics")) {
		if (!strcmp(jstr(m, "direction"), "info"))
			continue;
		o = cJSON_Duplicate(m, 1);
		if (!o)
			continue;
		cJSON_AddStringToObject(o, "side_name", jstr(p, "side"));
		cJSON_AddBoolToObject(o, "mismatch_allowed",
				      cJSON_IsTrue(cJSON_GetObjectItem(p, "mismatch_allowed")));
		cJSON_AddItemToArray(cJSON_GetObjectItem(g, "overheads"), o);
	}
}

/* The groups of compare's service pairs, refused pairs and unpaired entries. */
static void from_pairs(cJSON *groups, const cJSON *top)
{
	const cJSON *p;
	cJSON *g;

	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "pairs"))
		if (cmp_pair_is_service(p))
			add_overheads(group_get(groups, jstr(p, "workload"), jstr(p, "pair_key"), 1), p);
	cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, "refused"))
		if (cmp_pair_is_service(p) &&
		    (g = group_get(groups, jstr(p, "workload"), jstr(p, "pair_key"), 1)))
			add_missing(g, jstr(p, "side"), "refused", "pair refused: the setups differ "
				    "(cvmbench compare lists the differences)");
}

/* The group of the unpaired entry @u: its cells' pair key, from @d. */
static void unpaired_one(cJSON *groups, const struct cmp_data *d, const cJSON *u)
{
	const cJSON *c = cJSON_GetArrayItem(cJSON_GetObjectItem(u, "cells"), 0);
	char key[24], why[512];
	cJSON *g;
	size_t i;

	for (i = 0; i < d->ncells; i++)
		if (d->runs[d->cells[i].run].id == cJSON_GetNumberValue(cJSON_GetObjectItem(c, "run")) &&
		    !strcmp(d->cells[i].cell_key, jstr(c, "cell_key")) &&
		    !strcmp(d->paths[d->runs[d->cells[i].run].db], jstr(c, "db")))
			break;
	if (i == d->ncells)
		return;
	key_hex(d->cells[i].pair, key, sizeof(key));
	snprintf(why, sizeof(why), "%s", jstr(u, "why"));
	g = group_get(groups, jstr(u, "workload"), key, 1);
	/* a baseline without a twin: said once, by the twin's skip when there is one */
	if (!d->cells[i].side || strcmp(d->cells[i].side, "none") ||
	    !cJSON_GetArraySize(cJSON_GetObjectItem(g, "missing")))
		add_missing(g,
		    cJSON_IsString(cJSON_GetObjectItem(u, "side")) &&
		    strcmp(jstr(u, "side"), "none") ? jstr(u, "side") : "a CVM", "unpaired", why);
}

/* Whether @workload is a service: a service cell of @d runs it. */
static int is_service(const struct cmp_data *d, const char *workload)
{
	size_t i;

	for (i = 0; i < d->ncells; i++)
		if (!strcmp(d->cells[i].workload, workload) && cmp_cell_is_service(&d->cells[i]))
			return 1;
	return 0;
}

/* The skipped cells of a service: each a missing side of its group, with the reason. */
static int from_skips(cJSON *groups, struct sqlite3 *h, const struct cmp_data *d)
{
	struct sqlite3_stmt *st;
	char key[24], why[640], side[64];
	const char *wl, *spec, *reason;
	uint64_t pair;

	if (analysis_prepare(h, "SELECT c.workload, c.spec, group_concat(s.reason, '; ') "
			     "FROM cell AS c JOIN skip AS s ON s.cell_id = c.id "
			     "WHERE c.status = 'skipped' AND s.probe IS NULL "
			     "GROUP BY c.id ORDER BY c.id", 0, &st))
		return -1;
	while (analysis_step(st) == SQLITE_ROW) {
		wl = (const char *)sqlite3_column_text(st, 0);
		spec = (const char *)sqlite3_column_text(st, 1);
		reason = (const char *)sqlite3_column_text(st, 2);
		if (!wl || !spec || !is_service(d, wl) || cmp_spec_pair(spec, "confidential", &pair))
			continue;
		key_hex(pair, key, sizeof(key));
		cmp_spec_value(spec, "confidential", side, sizeof(side));
		snprintf(why, sizeof(why), "skipped: %s", reason ? reason : "(no reason recorded)");
		add_missing(group_get(groups, wl, key, 1), side, "skipped", why);
	}
	sqlite3_finalize(st);
	return 0;
}

/* The backend of the cells of group @g ("" when none of them is loaded: skipped). */
static const char *group_backend(const cJSON *g, const struct cmp_data *d)
{
	size_t i;

	for (i = 0; i < d->ncells; i++) {
		char key[24];

		key_hex(d->cells[i].pair, key, sizeof(key));
		if (!strcmp(d->cells[i].workload, jstr(g, "workload")) &&
		    !strcmp(key, jstr(g, "pair_key")))
			return d->cells[i].backend ? d->cells[i].backend : "";
	}
	return "";
}

/*
 * Label each group by its tool, with its backend and pair key when the
 * tool has several (native and runc cells of a tool never share a pair
 * key: the label says which is which).
 */
static void label_groups(cJSON *groups, const struct cmp_data *d)
{
	const char *be;
	cJSON *g, *o;
	char b[200];
	int n;

	cJSON_ArrayForEach(g, groups) {
		n = 0;
		cJSON_ArrayForEach(o, groups)
			n += !strcmp(jstr(o, "workload"), jstr(g, "workload"));
		be = group_backend(g, d);
		if (n > 1 && *be)
			snprintf(b, sizeof(b), "%s (%s, pair %.6s)", jstr(g, "workload"), be,
				 jstr(g, "pair_key"));
		else
			snprintf(b, sizeof(b), n > 1 ? "%s (pair %.6s)" : "%s", jstr(g, "workload"),
				 jstr(g, "pair_key"));
		cJSON_AddStringToObject(g, "backend", be);
		cJSON_AddStringToObject(g, "label", b);
	}
}

/**
 * suite_json() - the system suite of the database @h (see the top of this
 * file): NULL on an error (reported), an object whose "groups" is empty
 * when the database holds no service cell.
 */
cJSON *suite_json(struct sqlite3 *h)
{
	struct cmp_opts o = { .pair_by = "confidential", .baseline = "none", .level = 0.95,
			      .resamples = STATS_BOOT_RESAMPLES, .seed = STATS_BOOT_SEED };
	const char *paths[1];
	struct cmp_data d = { .paths = paths };
	cJSON *top = NULL, *out = cJSON_CreateObject(), *groups, *g, *u;
	uint64_t pair;

	if (!out || cmp_load_handle(&d, h, "this database") || cmp_assign(&d, &o) ||
	    !(top = cmp_pairs(&d, &o)))
		goto fail;
	groups = cJSON_AddArrayToObject(out, "groups");
	from_pairs(groups, top);
	if (from_skips(groups, h, &d))
		goto fail;
	cJSON_ArrayForEach(u, cJSON_GetObjectItem(top, "unpaired"))
		if (cmp_pair_is_service(u))
			unpaired_one(groups, &d, u);
	cJSON_ArrayForEach(g, groups)
		if (sscanf(jstr(g, "pair_key"), "%16llx", (unsigned long long *)&pair) == 1)
			add_bars(g, &d, pair, o.baseline);
	label_groups(groups, &d);
	cJSON_Delete(top);
	cmp_free(&d);
	return out;
fail:
	cJSON_Delete(top);
	cJSON_Delete(out);
	cmp_free(&d);
	return NULL;
}
