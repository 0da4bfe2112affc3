/* SPDX-License-Identifier: MIT */
/*
 * hostmem-check.h - the fidelity checks stored with the memory probes'
 * numbers (issue 13): does the summed PSS of a cell's processes agree with
 * the host's MemAvailable drop; did a `model` cell's VMs merge pages.
 * Pure functions, unit-tested on synthetic numbers (tests/unit/procmem.c).
 */
#ifndef CVMBENCH_HOSTMEM_CHECK_H
#define CVMBENCH_HOSTMEM_CHECK_H

#include <sys/types.h>

/* The two views disagree when they differ by more than this, % of the drop. */
#define HOSTMEM_DISAGREE_PCT 10.0
/* A model VM "merges" when more than this % of its RAM is merged pages. */
#define KSM_MODEL_MERGED_PCT 1.0

/** hostmem_diff_pct() - (@pss_kb - @drop_kb) in % of @drop_kb; NaN when @drop_kb <= 0. */
double hostmem_diff_pct(long long pss_kb, long long drop_kb);
/**
 * hostmem_disagree() - 1 when the summed PSS and the MemAvailable drop
 * differ by more than @limit_pct of the drop, or the drop is not positive
 * (the processes took memory the host does not show as gone: something
 * else freed memory meanwhile); else 0.
 */
int hostmem_disagree(long long pss_kb, long long drop_kb, double limit_pct);
/**
 * ksm_model_merged() - 1 when @merging_pages (4 KiB pages of a model
 * cell's VMs that KSM merged) exceed KSM_MODEL_MERGED_PCT of @ram_mib, the
 * VMs' RAM: a model VM's RAM must not be mergeable.
 */
int ksm_model_merged(long long merging_pages, long long ram_mib);
/**
 * pids_distinct() - the distinct positive pids of @pids[0..@n) (instances
 * may share a VM's QEMU), in order, into @out: at most @max of them. The
 * memory probes measure at most a fixed number of processes; how many
 * distinct ones did not fit goes to *@left_out, to be said, never dropped
 * silently. Returns how many are in @out.
 */
int pids_distinct(const pid_t *pids, int n, pid_t *out, int max, int *left_out);

#endif
