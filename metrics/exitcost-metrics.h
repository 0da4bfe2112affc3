/* SPDX-License-Identifier: MIT */
/*
 * exitcost-metrics.h - the names under which the exitcost probe
 * (exitcost.c) stores what it measured, for the probe and the analysis
 * that reads them (analysis/idle-tables.c). Each benchmark B gives the
 * metrics B EXITCOST_MEDIAN, B EXITCOST_P99 and B EXITCOST_COUNT.
 */
#ifndef CVMBENCH_EXITCOST_METRICS_H
#define CVMBENCH_EXITCOST_METRICS_H

#define EXITCOST_PROBE             "exitcost"
/* the benchmarks */
#define EXITCOST_CPUID             "cpuid"
#define EXITCOST_FUTEX             "futex_pingpong"
#define EXITCOST_SLEEP             "sleep_50us"
/* the suffixes of their metrics */
#define EXITCOST_MEDIAN            "_median"
#define EXITCOST_P99               "_p99"
#define EXITCOST_COUNT             "_count"
/* the clock read pair's own cost */
#define EXITCOST_CLOCK_OVERHEAD    "clock_overhead_median"

#endif
