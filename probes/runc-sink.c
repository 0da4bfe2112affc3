// SPDX-License-Identifier: MIT
/*
 * runc-sink.c - the runc probe's tables, declared for the sink: each column
 * and the field of the row struct (runc-sink.h) it is read from.
 */
#include "runc-sink.h"

static const struct sink_column start_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INVOCATION("invocation_id"),
	SINK_INT(struct runc_start_row, start_idx),
	SINK_TEXT(struct runc_start_row, runtime),
	SINK_INT(struct runc_start_row, root_pid),
	SINK_INT(struct runc_start_row, total_ns),
	SINK_KNOWN(struct runc_start_row, cold_start_ns),
	SINK_INT(struct runc_start_row, blocked_ns),
	SINK_INT(struct runc_start_row, events),
	SINK_TEXT(struct runc_start_row, namespaces),
};

static const struct sink_column phase_cols[] = {
	SINK_INT(struct runc_phase_row, start_id),
	SINK_TEXT(struct runc_phase_row, phase),
	SINK_INT(struct runc_phase_row, seq),
	SINK_INT(struct runc_phase_row, start_ns),
	SINK_INT(struct runc_phase_row, duration_ns),
};

static const struct sink_column lock_cols[] = {
	SINK_INT(struct runc_lock_row, start_id),
	SINK_TEXT(struct runc_lock_row, lock),
	SINK_TEXT(struct runc_lock_row, flags),
	SINK_INT(struct runc_lock_row, count),
	SINK_INT(struct runc_lock_row, blocked_ns),
};

const struct sink_table runc_start_table = SINK_TABLE("runc_start", start_cols);
const struct sink_table runc_phase_table = SINK_TABLE("runc_phase", phase_cols);
const struct sink_table runc_lock_table = SINK_TABLE("runc_lock", lock_cols);
