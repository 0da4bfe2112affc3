// SPDX-License-Identifier: MIT
/*
 * svc-parse-cvmload.c - the report of cvmload, the project's open-loop HTTP
 * load generator (bench/services/loadgen/, docs/experiments/system-suite.md).
 * Its first line is "cvmload 1" (the format's version), then one
 * "key value" per line; latencies are integer ns from each request's
 * intended send time, "none" when no request succeeded. This parser takes:
 *
 *   target_per_s, requests, errors               as they are
 *   achieved_per_s                               -> requests_per_s
 *   latency_{mean,p50,p90,p99,p999,max}_ns       as they are
 *
 * and ignores the other keys (the generator's own diagnostics).
 */
#include <stdio.h>
#include <string.h>

#include "svc-parse-local.h"

#define CVMLOAD_VERSION_LINE "cvmload 1"

static const struct {
	const char *key, *name;
} cvmload_keys[] = {
	{ "latency_mean_ns", "latency_mean_ns" },
	{ "latency_p50_ns", "latency_p50_ns" },
	{ "latency_p90_ns", "latency_p90_ns" },
	{ "latency_p99_ns", "latency_p99_ns" },
	{ "latency_p999_ns", "latency_p999_ns" },
	{ "latency_max_ns", "latency_max_ns" },
	{ "target_per_s", "target_per_s" },
	{ "requests", "requests" },
	{ "errors", "errors" },
	{ "achieved_per_s", "requests_per_s" },
};

static int cvmload_key(struct svc_parse_ctx *c, const char *key, const char *name)
{
	char want[48];
	struct svc_line l;
	const char *e;
	double v;

	snprintf(want, sizeof(want), "%s ", key);
	if (!svc_line_find(c, want, &l))
		return svc_fail(c, "%s: no '%s' line (truncated output?)", name, key);
	if (!strncmp(l.s, "none", 4) && svc_rest_blank(l.s + 4))
		return svc_fail(c, "%s (line %d): none: no request succeeded", name, l.no);
	if (svc_number(c, l.s, &e, name, l.no, &v))
		return -1;
	if (!svc_rest_blank(e))
		return svc_fail(c, "%s (line %d): junk after the number", name, l.no);
	return svc_put(c, name, v, l.no);
}

int svc_parse_cvmload(struct svc_parse_ctx *c)
{
	size_t i, n = strlen(CVMLOAD_VERSION_LINE);

	if (strncmp(c->text, CVMLOAD_VERSION_LINE, n) || !svc_rest_blank(c->text + n))
		return svc_fail(c, "line 1: not '%s' (not cvmload's output, or another "
				"version of its format)", CVMLOAD_VERSION_LINE);
	for (i = 0; i < sizeof(cvmload_keys) / sizeof(cvmload_keys[0]); i++)
		if (cvmload_key(c, cvmload_keys[i].key, cvmload_keys[i].name))
			return -1;
	return 0;
}
