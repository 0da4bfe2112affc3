// SPDX-License-Identifier: MIT
/*
 * tests/unit/svc-parse.c - the system suite's output parsers
 * (bench/services/svc-parse*.c) on the tools' real output captured here
 * (tests/fixtures/services/, its README says how): each file gives the
 * values read off it by eye, written below as literals (57.11MB is written
 * as 57.11 x 2^20 worked out by hand, not by the parser's unit code); every
 * catalog metric comes out of some file; and the malformed variants fail
 * with a message naming the metric or field (and, in text, the line).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "service-metrics.h"
#include "svc-parse-local.h"
#include "svc-parse.h"
#include "tap.h"

#define FIX "tests/fixtures/services/"

struct want {
	const char *name, *unit;
	double value;
};

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "r");
	char *buf = f ? malloc(1 << 20) : NULL;

	*len = buf ? fread(buf, 1, 1 << 20, f) : 0;
	if (f)
		fclose(f);
	return buf;
}

static int parse_file(const char *parser, const char *file, struct svc_result *r, char *err,
		      size_t errlen)
{
	size_t len;
	char *text = slurp(file, &len);
	int ret;

	if (!text) {
		snprintf(err, errlen, "cannot read %s", file);
		return -2;
	}
	ret = svc_parse(parser, text, len, r, err, errlen);
	free(text);
	return ret;
}

static const struct svc_value *find(const struct svc_result *r, const char *name)
{
	int i;

	for (i = 0; i < r->n; i++)
		if (!strcmp(r->v[i].name, name))
			return &r->v[i];
	return NULL;
}

/* @file parses to exactly the @n values of @w (relative 1e-9). */
static void expect(const char *parser, const char *file, const struct want *w, int n)
{
	struct svc_result r;
	char err[256] = "";
	const struct svc_value *v;
	int i, ret = parse_file(parser, file, &r, err, sizeof(err)), bad = 0;

	for (i = 0; !ret && i < n; i++) {
		v = find(&r, w[i].name);
		if (!v || strcmp(v->unit, w[i].unit) ||
		    fabs(v->value - w[i].value) > 1e-9 * fabs(w[i].value)) {
			printf("#   %s: got %.17g %s, want %.17g %s\n", w[i].name, v ? v->value : -1,
			       v ? v->unit : "(none)", w[i].value, w[i].unit);
			bad = 1;
		}
	}
	tap_ok(!ret && !bad && r.n == n, "%s: %d metrics as read off the file [%s]", file, n, err);
}

static void wrk(void)
{
	static const struct want latency[] = {
		{ "latency_mean_ns", "ns", 1380000 }, { "latency_p50_ns", "ns", 435000 },
		{ "latency_p90_ns", "ns", 3430000 }, { "latency_p99_ns", "ns", 15530000 },
		{ "requests", "count", 41965 }, { "requests_per_s", "1/s", 13811.21 },
		{ "bytes_per_s", "B/s", 59884175.36 } /* 57.11MB */, { "errors", "count", 0 },
	};
	static const struct want non2xx[] = {
		{ "latency_mean_ns", "ns", 672510 }, { "latency_p50_ns", "ns", 373000 },
		{ "latency_p90_ns", "ns", 774000 }, { "latency_p99_ns", "ns", 7020000 },
		{ "requests", "count", 36626 }, { "requests_per_s", "1/s", 18093.08 },
		{ "bytes_per_s", "B/s", 5567938.56 } /* 5.31MB */, { "errors", "count", 36626 },
	};
	static const struct want timeouts[] = {
		{ "latency_mean_ns", "ns", 48070000 }, { "latency_p50_ns", "ns", 45420000 },
		{ "latency_p90_ns", "ns", 58160000 }, { "latency_p99_ns", "ns", 90230000 },
		{ "requests", "count", 179 }, { "requests_per_s", "1/s", 43.84 },
		{ "bytes_per_s", "B/s", 5160.96 } /* 5.04KB */, { "errors", "count", 3 },
	};

	expect("wrk", FIX "wrk-latency.txt", latency, 8);
	expect("wrk", FIX "wrk-non2xx.txt", non2xx, 8);
	expect("wrk", FIX "wrk-timeouts.txt", timeouts, 8);
}

static void others(void)
{
	static const struct want redis[] = {
		{ "set_per_s", "1/s", 19704.43 }, { "set_p50_ns", "ns", 263000 },
		{ "set_p99_ns", "ns", 727000 }, { "get_per_s", "1/s", 14357.50 },
		{ "get_p50_ns", "ns", 183000 }, { "get_p99_ns", "ns", 15343000 },
	};
	static const struct want pg[] = {
		{ "tps", "1/s", 53.532339 }, { "latency_mean_ns", "ns", 37361000 },
		{ "transactions", "count", 259 }, { "failed", "count", 0 },
	};
	static const struct want pg_failed[] = {
		{ "tps", "1/s", 63.355218 }, { "latency_mean_ns", "ns", 16182000 },
		{ "transactions", "count", 305 }, { "failed", "count", 885 },
	};
	static const struct want cpu[] = {
		{ "events_per_s", "1/s", 1237.62 }, { "latency_p95_ns", "ns", 4740000 },
	};
	static const struct want mem[] = {
		{ "ops_per_s", "1/s", 1420919.28 },
		{ "bytes_per_s", "B/s", 1455025029.12 } /* 1387.62 MiB/sec */,
	};

	expect("redis-benchmark", FIX "redis-benchmark-csv.txt", redis, 6);
	expect("pgbench", FIX "pgbench.txt", pg, 4);
	expect("pgbench", FIX "pgbench-failed.txt", pg_failed, 4);
	expect("sysbench-cpu", FIX "sysbench-cpu.txt", cpu, 2);
	expect("sysbench-memory", FIX "sysbench-memory.txt", mem, 2);
}

static void fio_cvmload(void)
{
	static const struct want fio[] = {
		{ "write_iops", "1/s", 31762.520194 }, { "write_bytes_per_s", "B/s", 130099282 },
		{ "write_clat_mean_ns", "ns", 20311.492488 }, { "write_clat_p50_ns", "ns", 3696 },
		{ "write_clat_p99_ns", "ns", 33536 }, { "write_clat_p999_ns", "ns", 7569408 },
	};
	static const struct want load[] = {
		{ "target_per_s", "1/s", 2000 }, { "requests", "count", 6000 },
		{ "errors", "count", 0 }, { "requests_per_s", "1/s", 1998.139 },
		{ "latency_mean_ns", "ns", 5046318 }, { "latency_p50_ns", "ns", 129086 },
		{ "latency_p90_ns", "ns", 5024012 }, { "latency_p99_ns", "ns", 120872013 },
		{ "latency_p999_ns", "ns", 146324799 }, { "latency_max_ns", "ns", 149331151 },
	};

	/* numjobs=2 --group_reporting, libaio, direct (the cell's arguments): the one
	 * entry holds both jobs (values off the file) */
	static const struct want fio2[] = {
		{ "write_iops", "1/s", 31706.646677 }, { "write_bytes_per_s", "B/s", 129870424 },
		{ "write_clat_mean_ns", "ns", 984410.489369 }, { "write_clat_p50_ns", "ns", 366592 },
		{ "write_clat_p99_ns", "ns", 14876672 }, { "write_clat_p999_ns", "ns", 35389440 },
	};

	expect("fio", FIX "fio-randwrite.json", fio, 6);
	expect("fio", FIX "fio-randwrite-2jobs.json", fio2, 6);
	expect("cvmload", FIX "cvmload.txt", load, 10);
}

static const struct {
	const char *parser, *file, *says[2];
} refused[] = {
	{ "wrk", "wrk-refused.txt", { "Thread Stats", NULL } },
	{ "wrk", "wrk-no-latency-flag.txt", { "Latency Distribution", "--latency" } },
	{ "wrk", "wrk-truncated.txt", { "latency_p99_ns", "99%" } },
	{ "wrk", "wrk-garbage-rate.txt", { "requests_per_s (line 12)", "'nan'" } },
	{ "wrk", "wrk-bad-unit.txt", { "latency_p50_ns (line 7)", "435.00xs" } },
	{ "redis-benchmark", "redis-benchmark-quiet.txt", { "CSV header", NULL } },
	{ "redis-benchmark", "redis-benchmark-no-get.txt", { "get_per_s", "GET row" } },
	{ "redis-benchmark", "redis-benchmark-negative.txt", { "set_per_s (line 2)", "negative" } },
	{ "redis-benchmark", "redis-benchmark-no-p99-column.txt", { "set_p99_ns", "p99_latency_ms" } },
	{ "pgbench", "pgbench-truncated.txt", { "tps", "'tps ='" } },
	{ "pgbench", "pgbench-no-latency.txt", { "latency_mean_ns", "latency average" } },
	{ "pgbench", "pgbench-garbage-tps.txt", { "tps (line 13)", "'inf'" } },
	{ "sysbench-cpu", "sysbench-cpu-truncated.txt", { "latency_p95_ns", "Latency (ms)" } },
	{ "sysbench-cpu", "sysbench-cpu-garbage.txt", { "events_per_s (line 15)", NULL } },
	{ "sysbench-memory", "sysbench-memory-no-transferred.txt", { "bytes_per_s", "MiB transferred" } },
	{ "sysbench-memory", "sysbench-memory-garbage.txt", { "ops_per_s (line 18)", "NaN" } },
	{ "fio", "fio-truncated.json", { "not JSON", NULL } },
	{ "fio", "fio-no-p999.json", { "clat_ns.percentile.99.900000", "missing" } },
	{ "fio", "fio-garbage-iops.json", { "jobs[0].write.iops", "not a number" } },
	{ "fio", "fio-negative-bw.json", { "write_bytes_per_s", "not a measurement" } },
	{ "fio", "fio-randread.json", { "write_iops", "nothing was measured" } },
	{ "fio", "fio-ungrouped.json", { "jobs: 2 entries", "--group_reporting" } },
	{ "cvmload", "cvmload-refused.txt", { "latency_mean_ns (line 17)", "no request succeeded" } },
	{ "cvmload", "cvmload-truncated.txt", { "latency_p99_ns", NULL } },
	{ "cvmload", "cvmload-other-version.txt", { "line 1", "cvmload 1" } },
	{ "cvmload", "cvmload-garbage.txt", { "latency_p50_ns (line 18)", NULL } },
};

static void malformed(void)
{
	struct svc_result r;
	char err[256], path[256];
	size_t i;
	int ret;

	for (i = 0; i < sizeof(refused) / sizeof(refused[0]); i++) {
		snprintf(path, sizeof(path), FIX "%s", refused[i].file);
		r.n = -1;
		ret = parse_file(refused[i].parser, path, &r, err, sizeof(err));
		tap_ok(ret == -1 && r.n == 0 && !strncmp(err, refused[i].parser,
							  strlen(refused[i].parser)) &&
		       strstr(err, refused[i].says[0]) &&
		       (!refused[i].says[1] || strstr(err, refused[i].says[1])),
		       "%s refused, no values kept: %s", refused[i].file, err);
	}
}

/* Every catalog metric comes out of the good fixture of its parser. */
static void catalog_covered(void)
{
#define ROW(p, n, u, d, h) { p, n, u },
	static const struct { const char *parser, *name, *unit; } cat[] = { SERVICE_METRICS(ROW) };
	static const struct { const char *parser, *file; } good[] = {
		{ "wrk", "wrk-latency.txt" }, { "cvmload", "cvmload.txt" },
		{ "redis-benchmark", "redis-benchmark-csv.txt" }, { "pgbench", "pgbench.txt" },
		{ "sysbench-cpu", "sysbench-cpu.txt" }, { "sysbench-memory", "sysbench-memory.txt" },
		{ "fio", "fio-randwrite.json" },
	};
	struct svc_result r;
	char err[256], path[256];
	const struct svc_value *v;
	size_t i, j, missing = 0;

	for (i = 0; i < sizeof(cat) / sizeof(cat[0]); i++) {
		for (j = 0; j < sizeof(good) / sizeof(good[0]); j++)
			if (!strcmp(good[j].parser, cat[i].parser))
				break;
		snprintf(path, sizeof(path), FIX "%s", j < 7 ? good[j].file : "none");
		v = j < 7 && !parse_file(cat[i].parser, path, &r, err, sizeof(err)) ?
			find(&r, cat[i].name) : NULL;
		if (!v || strcmp(v->unit, cat[i].unit)) {
			printf("#   %s %s: not emitted with unit %s\n", cat[i].parser, cat[i].name,
			       cat[i].unit);
			missing++;
		}
	}
	tap_ok(!missing, "each of the %zu catalog metrics comes out of its parser's fixture "
	       "with the catalog's unit", sizeof(cat) / sizeof(cat[0]));
}

static void interface(void)
{
	struct svc_result r = { .n = 0 };
	struct svc_parse_ctx c = { "wrk", "", &r, NULL, 0 };
	char err[256], *text;
	size_t len;

	tap_ok(svc_parse("wrk2", "x", 1, &r, err, sizeof(err)) == -1 &&
	       strstr(err, "wrk2") && strstr(err, "no parser"), "an unknown parser is named: %s",
	       err);
	tap_ok(svc_parse("pgbench", "tps\0 = 1", 8, &r, err, sizeof(err)) == -1 &&
	       strstr(err, "NUL"), "a NUL byte in the output is refused: %s", err);
	tap_ok(svc_parse("sysbench-cpu", "", 0, &r, err, sizeof(err)) == -1 &&
	       strstr(err, "events_per_s"), "empty output names the first metric: %s", err);
	text = slurp(FIX "wrk-latency.txt", &len);
	tap_ok(text && svc_parse("wrk", text, strstr(text, "Transfer/sec") - text, &r, err,
				 sizeof(err)) == -1 && strstr(err, "bytes_per_s"),
	       "only @len bytes are read (the file cut before Transfer/sec): %s", err);
	free(text);
	c.err = err;
	c.errlen = sizeof(err);
	tap_ok(svc_parse("sysbench-memory", "Total operations: 5 (5.5 per second)\n"
			 " MiB transferred (1 MiB/sec)\n", 66, &r, err, sizeof(err)) == 0 &&
	       r.n == 2 && r.v[1].value == 1048576, "a line opening with the needle's blank "
	       "is read where the needle is (the fuzzer's find) [%s]", err);
	tap_ok(svc_parse("sysbench-memory", "Total operations: 5 (5.5 per second)\n"
			 "1.00 MiB transferred (1.50 MiB/sec)\n", 73, &r, err, sizeof(err)) == 0 &&
	       r.n == 2 && r.v[1].value == 1572864, "1.50 MiB/sec is 1572864 B/s [%s]", err);
	tap_ok(svc_put(&c, "tps", 1, 0) == -1 && strstr(err, "not in the catalog"),
	       "a parser cannot store another parser's metric: %s", err);
	tap_ok(svc_put(&c, "errors", 0, 0) == 0 && svc_put(&c, "latency_p50_ns", 0, 3) == -1 &&
	       strstr(err, "(line 3)"), "a zero count is a value, a zero latency is not: %s", err);
	tap_ok(svc_put(&c, "errors", 1, 0) == -1 && strstr(err, "twice"),
	       "a metric given twice is refused: %s", err);
}

int main(void)
{
	tap_plan(11 + (int)(sizeof(refused) / sizeof(refused[0])) + 1 + 9);
	wrk();
	others();
	fio_cvmload();
	malformed();
	catalog_covered();
	interface();
	return tap_done();
}
