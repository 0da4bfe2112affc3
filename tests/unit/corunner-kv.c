// SPDX-License-Identifier: MIT
/*
 * tests/unit/corunner-kv.c - the kv co-runner's load from redis-benchmark's
 * --csv output (bench/knobs/corunner-kv.c corunner_kv_csv_parse()): two
 * rounds as redis-benchmark 7.0.15 (Debian 12) wrote them on this project's
 * development machine, each with its header row; the mean requests/s is
 * worked out by hand: (43383.95 + 47619.05 + 57636.89 + 60975.61) / 4 =
 * 52403.875. A round cut off mid-row (the driver killed) and a header alone
 * count nothing.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>

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

int main(void)
{
	double rps = -1;
	int rows = -1, ret;

	tap_plan(3);
	ret = corunner_kv_csv_parse(two_rounds, &rps, &rows);
	tap_ok(!ret && rows == 4 && fabs(rps - 52403.875) < 1e-6,
	       "two rounds: 4 rows, mean 52403.875 requests/s (got %d, %f)", rows, rps);
	ret = corunner_kv_csv_parse(HEAD, &rps, &rows);
	tap_ok(ret == -ENODATA && rows == 0, "a header alone: -ENODATA, no rows");
	ret = corunner_kv_csv_parse("", &rps, &rows);
	tap_ok(ret == -ENODATA && rows == 0, "nothing: -ENODATA");
	return tap_failed != 0;
}
