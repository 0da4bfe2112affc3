// SPDX-License-Identifier: MIT
/*
 * tests/unit/corunner-kv.c - the kv co-runner's load from redis-benchmark's
 * --csv output (bench/knobs/corunner-kv.c corunner_kv_csv_parse()): two
 * rounds as redis-benchmark 7.0.15 (Debian 12) wrote them on this project's
 * development machine, each with its header row (rounds of 10000 then, 2000
 * now: the arithmetic is the same). Every test is the same number of
 * requests, so requests over time is worked out by hand as
 * 4 / (1/43383.95 + 1/47619.05 + 1/57636.89 + 1/60975.61) = 51413.8837
 * (the mean of the rates, 52403.875, was reported before: wrong). A round
 * cut off mid-row (the driver killed) and a header alone count nothing.
 * The cell window (corunner_kv_mark()): only the rounds appended between
 * its start and end count, not those before (VM boot) nor after.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "corunner-kv.h"
#include "tap.h"

#define HEAD "\"test\",\"rps\",\"avg_latency_ms\",\"min_latency_ms\",\"p50_latency_ms\"," \
	"\"p95_latency_ms\",\"p99_latency_ms\",\"max_latency_ms\"\n"

static const char two_rounds[] = HEAD
	"\"SET\",\"43383.95\",\"0.066\",\"0.016\",\"0.047\",\"0.095\",\"0.367\",\"4.175\"\n"
	"\"GET\",\"47619.05\",\"0.057\",\"0.016\",\"0.055\",\"0.087\",\"0.143\",\"3.215\"\n" HEAD
	"\"SET\",\"57636.89\",\"0.048\",\"0.016\",\"0.047\",\"0.087\",\"0.135\",\"0.727\"\n"
	"\"GET\",\"60975.61\",\"0.045\",\"0.008\",\"0.039\",\"0.079\",\"0.143\",\"0.527\"\n"
	"\"SET\",\"";

static const char before[] = HEAD
	"\"SET\",\"1000.00\",\"0.066\",\"0.016\",\"0.047\",\"0.095\",\"0.367\",\"4.175\"\n"
	"\"GET\",\"1000.00\",\"0.057\",\"0.016\",\"0.055\",\"0.087\",\"0.143\",\"3.215\"\n";
static const char within[] = HEAD
	"\"SET\",\"20000.00\",\"0.066\",\"0.016\",\"0.047\",\"0.095\",\"0.367\",\"4.175\"\n"
	"\"GET\",\"30000.00\",\"0.057\",\"0.016\",\"0.055\",\"0.087\",\"0.143\",\"3.215\"\n";

/* Append @text to @dir/bench.csv. */
static void append(const char *dir, const char *text)
{
	char path[4200];
	FILE *f;

	snprintf(path, sizeof(path), "%s/bench.csv", dir);
	f = fopen(path, "a");
	if (f) {
		fputs(text, f);
		fclose(f);
	}
}

/* A round before the window's start, one within, one after its end: the one within. */
static void window(void)
{
	struct corunner_kv kv = { .win_start = -1, .win_end = -1 };
	char tmpl[] = "/tmp/cvmbench-kv-test-XXXXXX", path[4200];
	double rps = -1;
	int rows = -1, ret;

	if (!mkdtemp(tmpl)) {
		tap_ok(0, "a temporary directory");
		return;
	}
	snprintf(kv.dir, sizeof(kv.dir), "%s", tmpl);
	ret = corunner_kv_load(&kv, &rps, &rows);
	tap_ok(ret == -ENODATA, "no window marked: -ENODATA (got %d)", ret);
	append(kv.dir, before);
	corunner_kv_mark(&kv, 0);
	append(kv.dir, within);
	corunner_kv_mark(&kv, 1);
	append(kv.dir, before);
	ret = corunner_kv_load(&kv, &rps, &rows);
	/* 2 tests of 10000 requests in 0.5 + 0.3333 s: 24000 requests/s */
	tap_ok(!ret && rows == 2 && fabs(rps - 24000) < 1e-6,
	       "the round within the window only: 2 rows, 24000 requests/s (got %d, %f)",
	       rows, rps);
	snprintf(path, sizeof(path), "%s/bench.csv", kv.dir);
	unlink(path);
	rmdir(kv.dir);
}

int main(void)
{
	double rps = -1;
	int rows = -1, ret;

	tap_plan(5);
	ret = corunner_kv_csv_parse(two_rounds, &rps, &rows);
	tap_ok(!ret && rows == 4 && fabs(rps - 51413.88368) < 1e-3,
	       "two rounds: 4 rows, 51413.884 requests/s (got %d, %f)", rows, rps);
	ret = corunner_kv_csv_parse(HEAD, &rps, &rows);
	tap_ok(ret == -ENODATA && rows == 0, "a header alone: -ENODATA, no rows");
	ret = corunner_kv_csv_parse("", &rps, &rows);
	tap_ok(ret == -ENODATA && rows == 0, "nothing: -ENODATA");
	window();
	return tap_failed != 0;
}
