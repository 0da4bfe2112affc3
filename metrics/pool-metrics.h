/* SPDX-License-Identifier: MIT */
/*
 * pool-metrics.h - the names a runc / crun cell's pools store
 * (bench/backends/oci-pool.c): the pools (oci_pool_event.pool), their
 * events (oci_pool_event.event) and their metrics per cell, PREFIX.WHAT
 * (pool.takes for the cgroup pool, netns-pool.takes for the namespaces);
 * the analysis reads them by these names.
 */
#ifndef CVMBENCH_POOL_METRICS_H
#define CVMBENCH_POOL_METRICS_H

#define POOL_KIND_CGROUP     "cgroup"
#define POOL_KIND_NETNS      "netns"

#define POOL_EVENT_FILL      "fill"
#define POOL_EVENT_TAKE      "take"
#define POOL_EVENT_FALLBACK  "fallback"
#define POOL_EVENT_REFILL    "refill"
#define POOL_EVENT_RECYCLE   "recycle"
#define POOL_EVENT_SPENT     "spent"

#define POOL_PREFIX_CGROUP   "pool"
#define POOL_PREFIX_NETNS    "netns-pool"

#define POOL_METRIC_TAKES        "takes"
#define POOL_METRIC_FALLBACKS    "fallbacks"
#define POOL_METRIC_REFILLS      "refills"
#define POOL_METRIC_RECYCLED     "recycled"
#define POOL_METRIC_REFILL_NS    "refill_ns"
#define POOL_METRIC_REFILL_CPU   "refill_cpu_ns"
#define POOL_METRIC_REFILL_VETH  "refill_veth_ns"
#define POOL_METRIC_MIN_FREE     "min_free"
#define POOL_METRIC_EVENTS_LOST  "events_lost"
#define SECCOMP_METRIC_PREPARE   "seccomp.prepare_ns"

#endif
