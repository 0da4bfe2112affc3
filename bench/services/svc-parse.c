// SPDX-License-Identifier: MIT
/*
 * svc-parse.c - svc_parse(): pick a tool's parser by its catalog name,
 * give it a NUL-terminated copy of the output, and hold it to the catalog
 * (metrics/service-metrics.h): it can store only the catalog's names with
 * the catalog's units, and it fails unless every metric the catalog marks
 * SVC_HIGHER or SVC_LOWER for it was found. On failure the result is
 * emptied: a window either has all its metrics or none and an error.
 */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service-metrics.h"
#include "svc-parse-local.h"

struct svc_metric {
	const char *parser, *name, *unit;
	int direction;
};

#define SVC_METRIC_ROW(p, n, u, d, h) { p, n, u, d },
static const struct svc_metric catalog[] = { SERVICE_METRICS(SVC_METRIC_ROW) };
#define CATALOG_N (sizeof(catalog) / sizeof(catalog[0]))

static const struct {
	const char *name;
	int (*parse)(struct svc_parse_ctx *c);
} parsers[] = {
	{ "wrk", svc_parse_wrk },
	{ "cvmload", svc_parse_cvmload },
	{ "redis-benchmark", svc_parse_redis_benchmark },
	{ "pgbench", svc_parse_pgbench },
	{ "sysbench-cpu", svc_parse_sysbench_cpu },
	{ "sysbench-memory", svc_parse_sysbench_memory },
	{ "fio", svc_parse_fio },
};

int svc_fail(struct svc_parse_ctx *c, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(c->err, c->errlen, "%s: ", c->parser);

	if (n >= 0 && (size_t)n < c->errlen) {
		va_start(ap, fmt);
		vsnprintf(c->err + n, c->errlen - n, fmt, ap);
		va_end(ap);
	}
	return -1;
}

static const struct svc_metric *catalog_find(const char *parser, const char *name)
{
	size_t i;

	for (i = 0; i < CATALOG_N; i++)
		if (!strcmp(catalog[i].parser, parser) && !strcmp(catalog[i].name, name))
			return &catalog[i];
	return NULL;
}

static int svc_has(const struct svc_result *out, const char *name)
{
	int i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->v[i].name, name))
			return 1;
	return 0;
}

int svc_put(struct svc_parse_ctx *c, const char *name, double v, int line)
{
	const struct svc_metric *m = catalog_find(c->parser, name);
	char at[32] = "";

	if (line > 0)
		snprintf(at, sizeof(at), " (line %d)", line);
	if (!m)
		return svc_fail(c, "%s is not in the catalog for this parser", name);
	if (!isfinite(v) || v < 0)
		return svc_fail(c, "%s%s: %g is not a measurement", name, at, v);
	if (v == 0 && strcmp(m->unit, "count"))
		return svc_fail(c, "%s%s: 0 %s: nothing was measured", name, at, m->unit);
	if (svc_has(c->out, name))
		return svc_fail(c, "%s%s: given twice", name, at);
	if (c->out->n >= SVC_MAX_VALUES)
		return svc_fail(c, "%s: more than %d metrics", name, SVC_MAX_VALUES);
	c->out->v[c->out->n++] = (struct svc_value){ m->name, m->unit, v };
	return 0;
}

/* Every compared metric of the parser is there. */
static int svc_complete(struct svc_parse_ctx *c)
{
	size_t i;

	for (i = 0; i < CATALOG_N; i++)
		if (!strcmp(catalog[i].parser, c->parser) && catalog[i].direction != SVC_INFO &&
		    !svc_has(c->out, catalog[i].name))
			return svc_fail(c, "%s: missing from the output", catalog[i].name);
	return 0;
}

int svc_parse(const char *parser, const char *text, size_t len, struct svc_result *out,
	      char *err, size_t errlen)
{
	struct svc_parse_ctx c = { parser, NULL, out, err, errlen };
	char *copy;
	size_t i;
	int ret;

	out->n = 0;
	if (errlen)
		err[0] = '\0';
	for (i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++)
		if (!strcmp(parsers[i].name, parser))
			break;
	if (i == sizeof(parsers) / sizeof(parsers[0]))
		return svc_fail(&c, "no parser of that name");
	if (!text || memchr(text, '\0', len))
		return svc_fail(&c, "the output holds a NUL byte: not the tool's text");
	copy = strndup(text, len);
	if (!copy)
		return svc_fail(&c, "out of memory");
	c.text = copy;
	ret = parsers[i].parse(&c);
	if (!ret)
		ret = svc_complete(&c);
	free(copy);
	if (ret)
		out->n = 0;
	return ret;
}
