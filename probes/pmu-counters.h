/* SPDX-License-Identifier: MIT */
/*
 * pmu-counters.h - the pmu probe's perf_event_open(2) counters: one group
 * per instance thread (counting that thread and, through inherit, threads
 * it starts later) or one group per CPU (every task on it), read whole at
 * window boundaries and scaled by time_enabled / time_running.
 */
#ifndef CVMBENCH_PMU_COUNTERS_H
#define CVMBENCH_PMU_COUNTERS_H

#include <sys/types.h>

#include "pmu-events.h"

struct pmu_read {
	unsigned long long value, enabled, running;
	int valid;                /* 0: the read failed (thread gone) */
};

struct pmu_counters {
	struct pmu_event ev[PMU_MAX_EVENTS];
	int nev;
	int state[PMU_MAX_EVENTS];        /* 1 counted, -1 not (why[]), 0 not tried */
	char why[PMU_MAX_EVENTS][200];
	int cpu_scope;                    /* 1: a group per CPU; 0: per thread */
	int ngroups;
	int *fd;                          /* [group * nev + event], -1: none */
};

/* One event's change over a window, summed over the groups. */
struct pmu_total {
	double value;                     /* scaled: raw x enabled / running */
	unsigned long long raw, enabled, running;
	int unscheduled;                  /* groups enabled but never running */
};

/**
 * pmu_counters_open() - open the events of @c (ev[], nev filled in) for
 * the threads @tids (@n of them), or with @c->cpu_scope for CPUs 0..@n-1.
 * Events that cannot be opened get state -1 and a reason. Returns the
 * number of events counted, or -errno.
 */
int pmu_counters_open(struct pmu_counters *c, const pid_t *tids, int n);
/** pmu_counters_snap_size() - the pmu_read entries a snapshot needs. */
size_t pmu_counters_snap_size(const struct pmu_counters *c);
/** pmu_counters_read() - read every counter into @snap. */
void pmu_counters_read(const struct pmu_counters *c, struct pmu_read *snap);
/** pmu_counters_delta() - event @i's change from @a to @b into @t. */
void pmu_counters_delta(const struct pmu_counters *c, const struct pmu_read *a,
			const struct pmu_read *b, int i, struct pmu_total *t);
/** pmu_counters_close() - close every counter (events and reasons stay). */
void pmu_counters_close(struct pmu_counters *c);

#endif
