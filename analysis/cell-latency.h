/* SPDX-License-Identifier: MIT */
/*
 * cell-latency.h - per-cell latency summaries (quantiles, CI of the median) of
 * the measured, successful invocations of a run, from v_invocation_measured.
 */
#ifndef CVMBENCH_CELL_LATENCY_H
#define CVMBENCH_CELL_LATENCY_H

#include <stddef.h>
#include <stdint.h>

#include "stats.h"

struct sqlite3;

struct cell_latency {
	int64_t cell_id;
	struct stats_summary lat_ms;      /* latency_ns seen by the harness, in ms */
	struct stats_summary fn_ms;       /* fn_ns inside cvmfn, in ms (n may be 0) */
};

int latency_load(struct sqlite3 *h, int64_t run_id, const char *start,
		 struct cell_latency **out, size_t *n);
const struct cell_latency *latency_find(const struct cell_latency *v, size_t n,
					int64_t cell_id);

#endif
