/* SPDX-License-Identifier: MIT */
/*
 * hostmem-metrics.h - the names under which the hostmem probe stores what
 * the analysis reads (analysis/fig-memory.c). Plain string literals: they
 * concatenate into SQL. The other metrics are named in docs/probes/hostmem.md
 * and docs/probes/ksm.md.
 */
#ifndef CVMBENCH_HOSTMEM_METRICS_H
#define CVMBENCH_HOSTMEM_METRICS_H

#define HOSTMEM_PROBE              "hostmem"
#define HOSTMEM_PSS                "pss_kb"          /* per process, and summed */

#endif
