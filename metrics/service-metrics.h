/* SPDX-License-Identifier: MIT */
/*
 * service-metrics.h - the metrics a service window stores (the system suite,
 * docs/experiments/system-suite.md): one row per metric per measured window,
 * metric.probe = the parser's name below, metric.name = the name, with its
 * unit. The parsers (bench/services/svc-parse-*.c) write only these names;
 * `compare` and the figures read them with their direction:
 *
 *   SVC_HIGHER  higher is better (throughput): overhead = regular / cvm - 1
 *   SVC_LOWER   lower is better (latency):     overhead = cvm / regular - 1
 *   SVC_INFO    context only (a target rate, a count): never compared
 *
 *   X(parser, name, unit, direction, help)
 *
 * Durations are nanoseconds and sizes bytes, as everywhere in the database.
 */
#ifndef CVMBENCH_SERVICE_METRICS_H
#define CVMBENCH_SERVICE_METRICS_H

#define SVC_HIGHER 1
#define SVC_LOWER (-1)
#define SVC_INFO 0

#define SERVICE_METRICS(X) \
	X("wrk", "requests_per_s", "1/s", SVC_HIGHER, "HTTP requests completed per second (closed loop)") \
	X("wrk", "bytes_per_s", "B/s", SVC_HIGHER, "bytes read per second") \
	X("wrk", "latency_mean_ns", "ns", SVC_LOWER, "mean request latency (closed loop: from send)") \
	X("wrk", "latency_p50_ns", "ns", SVC_LOWER, "median request latency") \
	X("wrk", "latency_p90_ns", "ns", SVC_LOWER, "90th percentile request latency") \
	X("wrk", "latency_p99_ns", "ns", SVC_LOWER, "99th percentile request latency") \
	X("wrk", "errors", "count", SVC_LOWER, "socket errors and non-2xx/3xx responses") \
	X("wrk", "requests", "count", SVC_INFO, "requests completed in the run") \
	X("cvmload", "target_per_s", "1/s", SVC_INFO, "the fixed send rate asked for (open loop)") \
	X("cvmload", "requests_per_s", "1/s", SVC_HIGHER, "responses received per second") \
	X("cvmload", "latency_mean_ns", "ns", SVC_LOWER, "mean latency from the intended send time") \
	X("cvmload", "latency_p50_ns", "ns", SVC_LOWER, "median latency from the intended send time") \
	X("cvmload", "latency_p90_ns", "ns", SVC_LOWER, "90th percentile, from the intended send time") \
	X("cvmload", "latency_p99_ns", "ns", SVC_LOWER, "99th percentile, from the intended send time") \
	X("cvmload", "latency_p999_ns", "ns", SVC_LOWER, "99.9th percentile, from the intended send time") \
	X("cvmload", "latency_max_ns", "ns", SVC_LOWER, "largest latency from the intended send time") \
	X("cvmload", "errors", "count", SVC_LOWER, "failed or non-2xx requests") \
	X("cvmload", "requests", "count", SVC_INFO, "requests scheduled in the measured window") \
	X("redis-benchmark", "set_per_s", "1/s", SVC_HIGHER, "SET requests per second") \
	X("redis-benchmark", "get_per_s", "1/s", SVC_HIGHER, "GET requests per second") \
	X("redis-benchmark", "set_p50_ns", "ns", SVC_LOWER, "SET median latency") \
	X("redis-benchmark", "get_p50_ns", "ns", SVC_LOWER, "GET median latency") \
	X("redis-benchmark", "set_p99_ns", "ns", SVC_LOWER, "SET 99th percentile latency") \
	X("redis-benchmark", "get_p99_ns", "ns", SVC_LOWER, "GET 99th percentile latency") \
	X("pgbench", "tps", "1/s", SVC_HIGHER, "transactions per second (without initial connection time)") \
	X("pgbench", "latency_mean_ns", "ns", SVC_LOWER, "mean transaction latency") \
	X("pgbench", "transactions", "count", SVC_INFO, "transactions processed") \
	X("pgbench", "failed", "count", SVC_LOWER, "failed transactions") \
	X("sysbench-cpu", "events_per_s", "1/s", SVC_HIGHER, "prime-search events per second") \
	X("sysbench-cpu", "latency_p95_ns", "ns", SVC_LOWER, "95th percentile event latency") \
	X("sysbench-memory", "bytes_per_s", "B/s", SVC_HIGHER, "memory transferred per second") \
	X("sysbench-memory", "ops_per_s", "1/s", SVC_HIGHER, "memory operations per second") \
	X("fio", "write_iops", "1/s", SVC_HIGHER, "random-write I/O operations per second") \
	X("fio", "write_bytes_per_s", "B/s", SVC_HIGHER, "random-write bandwidth") \
	X("fio", "write_clat_mean_ns", "ns", SVC_LOWER, "mean completion latency") \
	X("fio", "write_clat_p50_ns", "ns", SVC_LOWER, "median completion latency") \
	X("fio", "write_clat_p99_ns", "ns", SVC_LOWER, "99th percentile completion latency") \
	X("fio", "write_clat_p999_ns", "ns", SVC_LOWER, "99.9th percentile completion latency")

#endif
