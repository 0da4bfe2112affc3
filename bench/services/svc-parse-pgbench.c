// SPDX-License-Identifier: MIT
/*
 * svc-parse-pgbench.c - pgbench 15's text report on stdout:
 *
 *   number of transactions actually processed: 259       (or 259/300 with -t)
 *   number of failed transactions: 0 (0.000%)
 *   latency average = 37.361 ms                          (may end "(including failures)")
 *   tps = 53.532339 (without initial connection time)
 *
 * tps is the rate without the initial connection time (the only one
 * pgbench 15 prints); latency_mean_ns is "latency average" in ms, to ns.
 */
#include <string.h>

#include "svc-parse-local.h"

/* The number after @key on its line, with what follows in @end. */
static int pg_value(struct svc_parse_ctx *c, const char *key, const char *field,
		    double *v, const char **end, int *line)
{
	struct svc_line l;

	if (!svc_line_find(c, key, &l))
		return svc_fail(c, "%s: no '%s' line (truncated output?)", field, key);
	*line = l.no;
	return svc_number(c, l.s, end, field, l.no, v);
}

static int pg_count(struct svc_parse_ctx *c, const char *key, const char *field)
{
	const char *e;
	double v;
	int line;

	if (pg_value(c, key, field, &v, &e, &line))
		return -1;
	if (*e != '/' && *e != ' ' && !svc_rest_blank(e))
		return svc_fail(c, "%s (line %d): junk after the count", field, line);
	return svc_put(c, field, v, line);
}

int svc_parse_pgbench(struct svc_parse_ctx *c)
{
	const char *e;
	double v;
	int line;

	if (pg_count(c, "number of transactions actually processed:", "transactions") ||
	    pg_count(c, "number of failed transactions:", "failed"))
		return -1;
	if (pg_value(c, "latency average =", "latency_mean_ns", &v, &e, &line))
		return -1;
	if (strncmp(e, " ms", 3) || (e[3] != ' ' && !svc_rest_blank(e + 3)))
		return svc_fail(c, "latency_mean_ns (line %d): not in ms", line);
	if (svc_put(c, "latency_mean_ns", v * 1e6, line))
		return -1;
	if (pg_value(c, "tps =", "tps", &v, &e, &line))
		return -1;
	if (strncmp(e, " (without initial connection time)", 34))
		return svc_fail(c, "tps (line %d): not the rate 'without initial connection "
				"time'", line);
	return svc_put(c, "tps", v, line);
}
