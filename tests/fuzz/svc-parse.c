// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/svc-parse.c - libFuzzer target for the system suite's output
 * parsers (bench/services/svc-parse*.c), built with ASan and UBSan by
 * `make fuzz`: every input goes through all seven parsers. Besides "no
 * crash, no leak, no undefined behaviour" it checks the parsers' promises:
 * a refusal says which parser in one line and keeps no value; a success
 * holds only catalog names with the catalog's units, once each, and every
 * value finite and not negative.
 */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service-metrics.h"
#include "svc-parse.h"

#define ROW(p, n, u, d, h) { p, n, u },
static const struct { const char *parser, *name, *unit; } cat[] = { SERVICE_METRICS(ROW) };
static const char *const parsers[] = {
	"wrk", "cvmload", "redis-benchmark", "pgbench", "sysbench-cpu", "sysbench-memory", "fio",
};

static void check(int cond, const char *what, const char *detail)
{
	if (cond)
		return;
	fprintf(stderr, "fuzz-svc-parse: %s: %s\n", what, detail);
	abort();
}

static int in_catalog(const char *parser, const struct svc_value *v)
{
	size_t i;

	for (i = 0; i < sizeof(cat) / sizeof(cat[0]); i++)
		if (!strcmp(cat[i].parser, parser) && !strcmp(cat[i].name, v->name))
			return !strcmp(cat[i].unit, v->unit);
	return 0;
}

static void check_result(const char *parser, const struct svc_result *r)
{
	int i, j;

	check(r->n > 0 && r->n <= SVC_MAX_VALUES, "a success with no or too many values", parser);
	for (i = 0; i < r->n; i++) {
		check(in_catalog(parser, &r->v[i]), "a value not in the catalog", r->v[i].name);
		check(isfinite(r->v[i].value) && r->v[i].value >= 0, "a value that is no measurement",
		      r->v[i].name);
		for (j = 0; j < i; j++)
			check(strcmp(r->v[i].name, r->v[j].name), "a metric twice", r->v[i].name);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct svc_result r;
	char err[512];
	size_t i;

	for (i = 0; i < sizeof(parsers) / sizeof(parsers[0]); i++) {
		if (svc_parse(parsers[i], (const char *)data, size, &r, err, sizeof(err))) {
			check(r.n == 0, "a refusal that keeps values", err);
			check(!strncmp(err, parsers[i], strlen(parsers[i])) &&
			      err[strlen(parsers[i])] == ':', "a refusal not naming the parser", err);
			check(!strchr(err, '\n'), "a refusal of more than one line", err);
		} else {
			check_result(parsers[i], &r);
		}
	}
	return 0;
}
