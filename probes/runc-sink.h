/* SPDX-License-Identifier: MIT */
/*
 * runc-sink.h - the rows of the `runc` probe (runc_start, runc_phase,
 * runc_lock; results-schema/003-runc-phase.sql), written through the
 * probe's sink, one transaction per window.
 */
#ifndef CVMBENCH_RUNC_SINK_H
#define CVMBENCH_RUNC_SINK_H

#include <stdint.h>

#include "sink.h"

struct runc_start_row {
	int start_idx;
	const char *runtime;
	int root_pid;
	long long total_ns, cold_start_ns, blocked_ns;  /* cold_start_ns < 0: unknown */
	long events;
	const char *namespaces;
};

int runc_sink_begin(struct sink *s);
int runc_sink_end(struct sink *s, int ok);
/** runc_sink_start() - one start; returns its row id (> 0) or -errno. */
int64_t runc_sink_start(struct sink *s, const struct runc_start_row *row);
int runc_sink_phase(struct sink *s, int64_t start_id, const char *phase, int seq,
		    long long start_ns, long long duration_ns);
int runc_sink_lock(struct sink *s, int64_t start_id, const char *lock,
		   const char *flags, long count, long long blocked_ns);

#endif
