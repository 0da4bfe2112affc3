/* SPDX-License-Identifier: MIT */
/*
 * runc-timeline.h - container starts rebuilt from trace events: which
 * tasks belong to which start (the process tree under each child of the
 * harness), and the named phases of each start, which sum to its total.
 * Pure computation on an array of events, so that it can be unit-tested
 * without a kernel; probes/runc.c fills the array from tracefs.
 */
#ifndef CVMBENCH_RUNC_TIMELINE_H
#define CVMBENCH_RUNC_TIMELINE_H

#include <stddef.h>

#include "runc-timeline-data.h"

/** rt_phase_name() - "runtime-start", "cgroup", ... "other". */
const char *rt_phase_name(int phase);

/**
 * rt_build() - the starts among @n events (sorted here by time) of the
 * children of @harness_pid, each with its phases. Returns 0 or -ENOMEM.
 */
int rt_build(struct rt_event *ev, size_t n, int harness_pid, struct rt_result *out);
void rt_result_free(struct rt_result *r);

/** rt_start_total() - t_end - t0 (what the phases sum to). */
long long rt_start_total(const struct rt_start *s);

#endif
