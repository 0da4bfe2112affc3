/* SPDX-License-Identifier: MIT */
/*
 * svc-parse.h - turning a load generator's own output into metrics
 * (metrics/service-metrics.h names them). One parser per tool, picked by the
 * parser name of the catalog ("wrk", "cvmload", "redis-benchmark", "pgbench",
 * "sysbench-cpu", "sysbench-memory", "fio"). A parser that cannot find a
 * metric the catalog marks SVC_HIGHER or SVC_LOWER for it fails, naming what
 * is missing: never a zero that looks like a measurement.
 */
#ifndef CVMBENCH_SVC_PARSE_H
#define CVMBENCH_SVC_PARSE_H

#include <stddef.h>

#define SVC_MAX_VALUES 16

struct svc_value {
	const char *name;   /* the catalog's name (static storage) */
	const char *unit;   /* the catalog's unit */
	double value;
};

struct svc_result {
	struct svc_value v[SVC_MAX_VALUES];
	int n;
};

/* Parse @len bytes of @text (need not end in NUL) with the parser named
 * @parser into @out. 0, or -1 with @err saying what was wrong (an unknown
 * parser, a missing or malformed field: its name and, where it has one,
 * the line). */
int svc_parse(const char *parser, const char *text, size_t len, struct svc_result *out,
	      char *err, size_t errlen);

#endif
