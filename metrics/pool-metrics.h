/* SPDX-License-Identifier: MIT */
/*
 * pool-metrics.h - the names a runc / crun cell's cgroup pool stores
 * (bench/backends/oci-pool.c): its events (oci_pool_event.event) and its
 * metrics per cell; the analysis reads them by these names.
 */
#ifndef CVMBENCH_POOL_METRICS_H
#define CVMBENCH_POOL_METRICS_H

#define POOL_EVENT_FILL      "fill"
#define POOL_EVENT_TAKE      "take"
#define POOL_EVENT_FALLBACK  "fallback"
#define POOL_EVENT_REFILL    "refill"
#define POOL_EVENT_RECYCLE   "recycle"
#define POOL_EVENT_SPENT     "spent"

#define POOL_METRIC_TAKES        "pool.takes"
#define POOL_METRIC_FALLBACKS    "pool.fallbacks"
#define POOL_METRIC_REFILLS      "pool.refills"
#define POOL_METRIC_RECYCLED     "pool.recycled"
#define POOL_METRIC_REFILL_NS    "pool.refill_ns"
#define POOL_METRIC_REFILL_CPU   "pool.refill_cpu_ns"
#define POOL_METRIC_MIN_FREE     "pool.min_free"
#define POOL_METRIC_EVENTS_LOST  "pool.events_lost"
#define SECCOMP_METRIC_PREPARE   "seccomp.prepare_ns"

#endif
