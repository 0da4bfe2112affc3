// SPDX-License-Identifier: MIT
/* hostmem-check.c - the memory probes' fidelity checks (hostmem-check.h). */
#include <math.h>

#include "hostmem-check.h"

double hostmem_diff_pct(long long pss_kb, long long drop_kb)
{
	if (drop_kb <= 0)
		return NAN;
	return (double)(pss_kb - drop_kb) * 100.0 / (double)drop_kb;
}

int hostmem_disagree(long long pss_kb, long long drop_kb, double limit_pct)
{
	double d = hostmem_diff_pct(pss_kb, drop_kb);

	return isnan(d) || fabs(d) > limit_pct;
}

int ksm_model_merged(long long merging_pages, long long ram_mib)
{
	double pages = (double)ram_mib * 256.0;      /* 4 KiB pages per MiB */

	return (double)merging_pages > pages * KSM_MODEL_MERGED_PCT / 100.0;
}

int pids_distinct(const pid_t *pids, int n, pid_t *out, int max, int *left_out)
{
	int i, j, kept = 0;

	*left_out = 0;
	for (i = 0; i < n; i++) {
		for (j = 0; j < i && pids[j] != pids[i]; j++)
			;
		if (j < i || pids[i] <= 0)
			continue;
		if (kept < max)
			out[kept++] = pids[i];
		else
			(*left_out)++;
	}
	return kept;
}
