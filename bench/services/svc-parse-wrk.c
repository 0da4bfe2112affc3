// SPDX-License-Identifier: MIT
/*
 * svc-parse-wrk.c - wrk 4.1.0's text report, run with --latency (closed
 * loop: each connection sends its next request when the last one is
 * answered, so latency runs from the send). Where each metric comes from:
 *
 *   latency_mean_ns      "Thread Stats" table, Latency row, Avg column
 *   latency_p50/90/99_ns "Latency Distribution" table, the 50%/90%/99% rows
 *   requests             "N requests in T, S read"
 *   requests_per_s       "Requests/sec:"
 *   bytes_per_s          "Transfer/sec:" (wrk's K/M/G are powers of 1024)
 *   errors               "Socket errors: connect A, read B, write C, timeout D"
 *                        plus "Non-2xx or 3xx responses: N"; wrk prints
 *                        either line only when it is not zero, so their
 *                        absence above the Requests/sec line means 0.
 *
 * Durations are "12.3us", "4.5ms", "1.2s", "2m" (wrk's units.c).
 */
#include <stdio.h>
#include <string.h>

#include "svc-parse-local.h"

static int wrk_mean(struct svc_parse_ctx *c)
{
	struct svc_line l;
	const char *p, *e;
	double ns;

	if (!svc_line_find(c, "Thread Stats", &l))
		return svc_fail(c, "no 'Thread Stats' table (truncated output?)");
	if (!svc_line_next(c, &l))
		return svc_fail(c, "latency_mean_ns: nothing under 'Thread Stats' (line %d)", l.no);
	for (p = l.s; *p == ' ' || *p == '\t'; p++)
		;
	if (strncmp(p, "Latency ", 8))
		return svc_fail(c, "latency_mean_ns (line %d): not the Latency row of 'Thread "
				"Stats'", l.no);
	if (svc_duration_ns(c, p + 8, &e, "latency_mean_ns", l.no, &ns))
		return -1;
	return svc_put(c, "latency_mean_ns", ns, l.no);
}

static int wrk_percentiles(struct svc_parse_ctx *c)
{
	static const struct { const char *row, *name; } want[] = {
		{ "50%", "latency_p50_ns" }, { "90%", "latency_p90_ns" }, { "99%", "latency_p99_ns" },
	};
	struct svc_line l;
	const char *e;
	size_t i;
	double ns;

	if (!svc_line_find(c, "Latency Distribution", &l))
		return svc_fail(c, "no 'Latency Distribution' table (wrk run without --latency, "
				"or truncated output)");
	for (i = 0; i < sizeof(want) / sizeof(want[0]); i++) {
		if (!svc_line_find(c, want[i].row, &l))
			return svc_fail(c, "%s: no '%s' row in the Latency Distribution",
					want[i].name, want[i].row);
		if (svc_duration_ns(c, l.s, &e, want[i].name, l.no, &ns) ||
		    svc_put(c, want[i].name, ns, l.no))
			return -1;
	}
	return 0;
}

/* "N requests in 3.04s, 173.53MB read" */
static int wrk_requests(struct svc_parse_ctx *c)
{
	struct svc_line l;
	const char *e;
	double n;

	if (!svc_line_with(c, " requests in ", &l, NULL))
		return svc_fail(c, "requests: no 'N requests in' line (truncated output?)");
	if (svc_number(c, l.s, &e, "requests", l.no, &n))
		return -1;
	if (strncmp(e, " requests in ", 13))
		return svc_fail(c, "requests (line %d): not 'N requests in'", l.no);
	if (n == 0)
		return svc_fail(c, "requests (line %d): no request completed: no latency was "
				"measured", l.no);
	return svc_put(c, "requests", n, l.no);
}

/* "Key:  number" with the value as svc_number reads it; @line out */
static int wrk_plain(struct svc_parse_ctx *c, const char *key, const char *field,
		     double *v, int *line)
{
	struct svc_line l;
	const char *e;

	if (!svc_line_find(c, key, &l))
		return svc_fail(c, "%s: no '%s' line (truncated output?)", field, key);
	*line = l.no;
	if (svc_number(c, l.s, &e, field, l.no, v))
		return -1;
	if (!svc_rest_blank(e))
		return svc_fail(c, "%s (line %d): junk after the number", field, l.no);
	return 0;
}

static int wrk_errors(struct svc_parse_ctx *c)
{
	static const char *const kinds[] = { "connect ", ", read ", ", write ", ", timeout " };
	struct svc_line l;
	const char *p;
	double v, sum = 0;
	int line = 0;
	size_t i;

	if (svc_line_find(c, "Non-2xx or 3xx responses:", &l)) {
		if (wrk_plain(c, "Non-2xx or 3xx responses:", "errors", &v, &line))
			return -1;
		sum += v;
	}
	if (svc_line_find(c, "Socket errors: ", &l)) {
		for (p = l.s, i = 0; i < 4; i++) {
			if (strncmp(p, kinds[i], strlen(kinds[i])))
				return svc_fail(c, "errors (line %d): not 'Socket errors: connect A, "
						"read B, write C, timeout D'", l.no);
			if (svc_number(c, p + strlen(kinds[i]), &p, "errors", l.no, &v))
				return -1;
			sum += v;
		}
		line = l.no;
	}
	return svc_put(c, "errors", sum, line);
}

int svc_parse_wrk(struct svc_parse_ctx *c)
{
	struct svc_line l;
	const char *e;
	double v;
	int line;

	if (wrk_mean(c) || wrk_percentiles(c) || wrk_requests(c))
		return -1;
	if (wrk_plain(c, "Requests/sec:", "requests_per_s", &v, &line) ||
	    svc_put(c, "requests_per_s", v, line))
		return -1;
	if (!svc_line_find(c, "Transfer/sec:", &l))
		return svc_fail(c, "bytes_per_s: no 'Transfer/sec:' line (truncated output?)");
	if (svc_size_bytes(c, l.s, &e, "bytes_per_s", l.no, &v) ||
	    svc_put(c, "bytes_per_s", v, l.no))
		return -1;
	return wrk_errors(c);
}
