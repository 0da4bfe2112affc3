/* SPDX-License-Identifier: MIT */
/*
 * hostmem-metrics.h - the names under which the hostmem probe stores what
 * the analysis reads (analysis/memory-cells.h, analysis/memory-table.c). Plain string literals: they
 * concatenate into SQL. The other metrics are named in docs/probes/hostmem.md
 * and docs/probes/ksm.md.
 */
#ifndef CVMBENCH_HOSTMEM_METRICS_H
#define CVMBENCH_HOSTMEM_METRICS_H

#define HOSTMEM_PROBE              "hostmem"
#define HOSTMEM_PSS                "pss_kb"          /* per process, and summed */
#define HOSTMEM_USS                "uss_kb"          /* per process, and summed */
#define HOSTMEM_SHARED             "shared_kb"       /* per process, and summed */
/* summed charge of each process's own memory cgroup (probes/hostmem-memcg.c) */
#define HOSTMEM_MEMCG              "memcg_usage_kb"

#endif
