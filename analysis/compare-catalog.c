// SPDX-License-Identifier: MIT
/*
 * compare-catalog.c - the service metrics `compare` knows, expanded from
 * the catalog metrics/service-metrics.h (parser, name, unit, direction),
 * and what makes a cell a service cell: its svc.parser note (as in
 * analysis/views.sql). A service cell keeps
 * each catalog metric's values over its windows (cmp_svc), and the names
 * its parsers wrote that the catalog lacks (listed, never compared).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare.h"
#include "service-metrics.h"

#define CATALOG_ROW(parser, name, unit, dir, help) { parser, name, unit, dir, help },
static const struct cmp_metric_def catalog[] = { SERVICE_METRICS(CATALOG_ROW) };
#undef CATALOG_ROW

#define N_CATALOG (sizeof(catalog) / sizeof(catalog[0]))

/**
 * cmp_catalog_at() - the @i-th metric of the catalog, NULL past the last.
 */
const struct cmp_metric_def *cmp_catalog_at(size_t i)
{
	return i < N_CATALOG ? &catalog[i] : NULL;
}

/**
 * cmp_catalog_find() - the index of (@parser, @name) in the catalog, or -1.
 */
int cmp_catalog_find(const char *parser, const char *name)
{
	size_t i;

	for (i = 0; i < N_CATALOG; i++)
		if (!strcmp(catalog[i].parser, parser) && !strcmp(catalog[i].name, name))
			return (int)i;
	return -1;
}

/**
 * cmp_catalog_parser() - whether @parser is a parser of the catalog.
 */
int cmp_catalog_parser(const char *parser)
{
	size_t i;

	for (i = 0; i < N_CATALOG; i++)
		if (!strcmp(catalog[i].parser, parser))
			return 1;
	return 0;
}

/**
 * cmp_catalog_direction() - "higher", "lower" or "info" for @direction.
 */
const char *cmp_catalog_direction(int direction)
{
	return direction == SVC_HIGHER ? "higher" : direction == SVC_LOWER ? "lower" : "info";
}

/**
 * cmp_cell_is_service() - whether @c is a service cell: one the system
 * suite ran (bench/run/cell-svc.c notes its parser as svc.parser), the
 * definition analysis/views.sql's v_cell_latency.service uses too. Its
 * windows are paired on their metrics, never on their wall times, also
 * when none of them stored a metric.
 */
int cmp_cell_is_service(const struct cmp_cell *c)
{
	return cmp_kv_get(c->notes, c->nnotes, "svc.parser") != NULL;
}

/**
 * cmp_side_is_service() - whether a cell of @s is a service cell.
 */
int cmp_side_is_service(const struct cmp_data *d, const struct cmp_side *s)
{
	size_t i;

	for (i = 0; i < s->n; i++)
		if (cmp_cell_is_service(&d->cells[s->cells[i]]))
			return 1;
	return 0;
}

/* Note (@parser, @name) among @c's metrics the catalog lacks, once. */
static int unknown_add(struct cmp_cell *c, const char *parser, const char *name)
{
	struct cmp_kv *k;
	size_t i;

	for (i = 0; i < c->nunknown; i++)
		if (!strcmp(c->svc_unknown[i].key, parser) &&
		    !strcmp(c->svc_unknown[i].value, name))
			return 0;
	if (cmp_grow((void **)&c->svc_unknown, c->nunknown, sizeof(*k)))
		return -ENOMEM;
	k = &c->svc_unknown[c->nunknown++];
	k->key = strdup(parser);
	k->value = strdup(name);
	return k->key && k->value ? 0 : -ENOMEM;
}

/* The values of catalog metric @m in @c, made (in catalog order) when new. */
static struct cmp_svc *svc_of(struct cmp_cell *c, int m)
{
	size_t i;

	for (i = 0; i < c->nsvc && c->svc[i].metric < m; i++)
		;
	if (i < c->nsvc && c->svc[i].metric == m)
		return &c->svc[i];
	if (cmp_grow((void **)&c->svc, c->nsvc, sizeof(*c->svc)))
		return NULL;
	memmove(&c->svc[i + 1], &c->svc[i], (c->nsvc - i) * sizeof(*c->svc));
	c->nsvc++;
	c->svc[i] = (struct cmp_svc){ .metric = m };
	return &c->svc[i];
}

/**
 * cmp_cell_svc_add() - add the value @v of metric (@parser, @name) of one
 * measured window to @c: to its catalog metric, or, for a name the catalog
 * lacks, to its list of those. Returns 0 or -ENOMEM.
 */
int cmp_cell_svc_add(struct cmp_cell *c, const char *parser, const char *name, double v)
{
	int m = cmp_catalog_find(parser, name);
	struct cmp_svc *s;

	if (m < 0)
		return unknown_add(c, parser, name);
	s = svc_of(c, m);
	if (!s || cmp_grow((void **)&s->v, s->n, sizeof(double)))
		return -ENOMEM;
	s->v[s->n++] = v;
	return 0;
}
