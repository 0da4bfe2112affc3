// SPDX-License-Identifier: MIT
/*
 * svc-parse-redis-benchmark.c - redis-benchmark 7.0's --csv output for
 * "-t set,get": a header row naming the columns, then one row per test:
 *
 *   "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms",...
 *   "SET","19704.43","0.323","0.048","0.263","0.543","0.727","57.471"
 *
 * set_per_s / get_per_s come from the rps column, set_p50_ns ... from
 * p50_latency_ms and p99_latency_ms (milliseconds, to ns). Columns are
 * found by the header's names, not by position.
 */
#include <stdio.h>
#include <string.h>

#include "svc-parse-local.h"

#define CSV_MAX 16

/* Split one line of "a","b",... into its fields (pointers to copies in
 * @buf). The number of fields, or -1 if a field is not quoted. */
static int csv_split(const struct svc_line *l, char *buf, size_t cap, char **f)
{
	size_t i = 0, o = 0;
	int n = 0;

	while (i < l->len && l->s[i] != '\r') {
		if (n == CSV_MAX || l->s[i] != '"' || o >= cap)
			return -1;
		f[n++] = buf + o;
		for (i++; i < l->len && l->s[i] != '"' && o + 1 < cap; i++)
			buf[o++] = l->s[i];
		if (i >= l->len || l->s[i] != '"')
			return -1;
		buf[o++] = '\0';
		i++;
		if (i < l->len && l->s[i] == ',')
			i++;
		else if (i < l->len && l->s[i] != '\r')
			return -1;
	}
	return n;
}

static int column(char **head, int n, const char *name)
{
	int i;

	for (i = 0; i < n; i++)
		if (!strcmp(head[i], name))
			return i;
	return -1;
}

/* One cell of @row (a number, ms when @ms) as metric @name. */
static int redis_cell(struct svc_parse_ctx *c, char **row, int nrow, int col,
		      const char *name, double scale, int line)
{
	const char *e;
	double v;

	if (col >= nrow)
		return svc_fail(c, "%s (line %d): the row is short", name, line);
	if (svc_number(c, row[col], &e, name, line, &v))
		return -1;
	if (*e)
		return svc_fail(c, "%s (line %d): '%s' is not a number", name, line, row[col]);
	return svc_put(c, name, v * scale, line);
}

/* The row of test @test ("SET"): its three metrics named with @prefix. */
static int redis_test(struct svc_parse_ctx *c, char **head, int nhead, const char *test,
		      const char *prefix)
{
	static const struct { const char *col, *suffix; double scale; } cells[] = {
		{ "rps", "_per_s", 1 },
		{ "p50_latency_ms", "_p50_ns", 1e6 },
		{ "p99_latency_ms", "_p99_ns", 1e6 },
	};
	char key[32], buf[512], *row[CSV_MAX], name[40];
	struct svc_line l;
	size_t i;
	int n, col;

	snprintf(key, sizeof(key), "\"%s\",", test);
	if (!svc_line_find(c, key, &l))
		return svc_fail(c, "%s_per_s: no %s row (run with -t set,get; truncated?)",
				prefix, test);
	l.s -= strlen(key);
	l.len += strlen(key);
	n = csv_split(&l, buf, sizeof(buf), row);
	if (n < 0)
		return svc_fail(c, "%s row (line %d): not a CSV row of quoted fields", test, l.no);
	for (i = 0; i < sizeof(cells) / sizeof(cells[0]); i++) {
		snprintf(name, sizeof(name), "%s%s", prefix, cells[i].suffix);
		col = column(head, nhead, cells[i].col);
		if (col < 0)
			return svc_fail(c, "%s: no '%s' column in the header", name, cells[i].col);
		if (redis_cell(c, row, n, col, name, cells[i].scale, l.no))
			return -1;
	}
	return 0;
}

int svc_parse_redis_benchmark(struct svc_parse_ctx *c)
{
	char buf[512], *head[CSV_MAX];
	struct svc_line l;
	int n;

	if (!svc_line_find(c, "\"test\",", &l))
		return svc_fail(c, "no CSV header \"test\",\"rps\",... (not --csv output?)");
	l.s -= strlen("\"test\",");
	l.len += strlen("\"test\",");
	n = csv_split(&l, buf, sizeof(buf), head);
	if (n < 0)
		return svc_fail(c, "header (line %d): not a CSV row of quoted fields", l.no);
	if (redis_test(c, head, n, "SET", "set") || redis_test(c, head, n, "GET", "get"))
		return -1;
	return 0;
}
