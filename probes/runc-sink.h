/* SPDX-License-Identifier: MIT */
/*
 * runc-sink.h - the rows of the `runc` probe's own tables (runc_start,
 * runc_phase, runc_lock; results-schema/002-runc-phase.sql), written with
 * sink_row() in the window's transaction. Each field has its column's name.
 */
#ifndef CVMBENCH_RUNC_SINK_H
#define CVMBENCH_RUNC_SINK_H

#include "sink.h"

/* One container start (cell_id and invocation_id come from the window). */
struct runc_start_row {
	long long start_idx;
	const char *runtime;
	long long root_pid;
	long long total_ns, cold_start_ns, blocked_ns;  /* cold_start_ns < 0: unknown */
	long long events;
	const char *namespaces;
};

/* A named phase of a start; start_id is what sink_row() gave the start. */
struct runc_phase_row {
	long long start_id;
	const char *phase;
	long long seq, start_ns, duration_ns;
};

/* Time a start's tasks were blocked on one kernel lock. */
struct runc_lock_row {
	long long start_id;
	const char *lock, *flags;
	long long count, blocked_ns;
};

extern const struct sink_table runc_start_table;
extern const struct sink_table runc_phase_table;
extern const struct sink_table runc_lock_table;

#endif
