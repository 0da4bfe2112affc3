// SPDX-License-Identifier: MIT
/*
 * svc-parse-sysbench.c - sysbench 1.0.20's text report of "cpu run" and
 * "memory run" (two parsers, one file: one tool's report).
 *
 * cpu:    "events per second:  1237.62"                 -> events_per_s
 *         "95th percentile:   4.74" under "Latency (ms):" -> latency_p95_ns
 * memory: "Total operations: 2097152 (1420919.28 per second)" -> ops_per_s
 *         "2048.00 MiB transferred (1387.62 MiB/sec)"  -> bytes_per_s (MiB = 2^20 B)
 */
#include <string.h>

#include "svc-parse-local.h"

int svc_parse_sysbench_cpu(struct svc_parse_ctx *c)
{
	struct svc_line l, unit;
	const char *e;
	double v;

	if (!svc_line_find(c, "events per second:", &l))
		return svc_fail(c, "events_per_s: no 'events per second:' line (not cpu run?)");
	if (svc_number(c, l.s, &e, "events_per_s", l.no, &v))
		return -1;
	if (!svc_rest_blank(e))
		return svc_fail(c, "events_per_s (line %d): junk after the number", l.no);
	if (svc_put(c, "events_per_s", v, l.no))
		return -1;
	if (!svc_line_find(c, "Latency (", &unit) || strncmp(unit.s, "ms):", 4))
		return svc_fail(c, "latency_p95_ns: no 'Latency (ms):' section (truncated?)");
	if (!svc_line_find(c, "95th percentile:", &l) || l.no < unit.no)
		return svc_fail(c, "latency_p95_ns: no '95th percentile:' line under 'Latency "
				"(ms):' (run with --percentile=95, the default)");
	if (svc_number(c, l.s, &e, "latency_p95_ns", l.no, &v))
		return -1;
	if (!svc_rest_blank(e))
		return svc_fail(c, "latency_p95_ns (line %d): junk after the number", l.no);
	return svc_put(c, "latency_p95_ns", v * 1e6, l.no);
}

int svc_parse_sysbench_memory(struct svc_parse_ctx *c)
{
	struct svc_line l;
	const char *e;
	double v;

	if (!svc_line_find(c, "Total operations:", &l))
		return svc_fail(c, "ops_per_s: no 'Total operations:' line (not memory run?)");
	if (svc_number(c, l.s, &e, "ops_per_s", l.no, &v))
		return -1;
	if (strncmp(e, " (", 2))
		return svc_fail(c, "ops_per_s (line %d): not 'N (X per second)'", l.no);
	if (svc_number(c, e + 2, &e, "ops_per_s", l.no, &v))
		return -1;
	if (strncmp(e, " per second)", 12))
		return svc_fail(c, "ops_per_s (line %d): not 'N (X per second)'", l.no);
	if (svc_put(c, "ops_per_s", v, l.no))
		return -1;
	if (!svc_line_with(c, " MiB transferred (", &l, &e))
		return svc_fail(c, "bytes_per_s: no 'MiB transferred' line (truncated?)");
	e += strlen(" MiB transferred (");
	if (svc_number(c, e, &e, "bytes_per_s", l.no, &v))
		return -1;
	if (strncmp(e, " MiB/sec)", 9))
		return svc_fail(c, "bytes_per_s (line %d): not 'X MiB/sec'", l.no);
	return svc_put(c, "bytes_per_s", v * 1048576.0, l.no);
}
