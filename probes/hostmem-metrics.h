/* SPDX-License-Identifier: MIT */
/*
 * hostmem-metrics.h - the names under which the hostmem and ksm probes
 * store their per-cell numbers, for the probes and the analysis that reads
 * them (analysis/memory.c). Plain string literals: they concatenate into SQL.
 */
#ifndef CVMBENCH_HOSTMEM_METRICS_H
#define CVMBENCH_HOSTMEM_METRICS_H

#define HOSTMEM_PROBE              "hostmem"
#define HOSTMEM_PSS                "pss_kb"          /* summed over processes */
#define HOSTMEM_RSS                "rss_kb"
#define HOSTMEM_ANON               "anon_kb"
#define HOSTMEM_PSS_ANON           "pss_anon_kb"
#define HOSTMEM_PROCESSES          "processes"
#define HOSTMEM_AVAIL_BEFORE       "mem_available_before_kb"
#define HOSTMEM_AVAIL              "mem_available_kb"
#define HOSTMEM_AVAIL_DROP         "mem_available_drop_kb"
#define HOSTMEM_PSS_VS_DROP        "pss_vs_drop_pct"
#define HOSTMEM_PSS_ANON_VS_DROP   "pss_anon_vs_drop_pct"
#define HOSTMEM_FLAG_DISAGREE      "flag_pss_drop_disagree"
#define HOSTMEM_SAMPLES            "samples"

#define KSM_PROBE                  "ksm"
#define KSM_PAGES_SHARING          "pages_sharing"
#define KSM_GENERAL_PROFIT         "general_profit"
#define KSM_CONVERGED              "converged"
#define KSM_TIMED_OUT              "flag_convergence_timeout"
#define KSM_MERGING_PAGES          "ksm_merging_pages"  /* summed over processes */
#define KSM_FLAG_MODEL_MERGED      "flag_model_merged"

#endif
