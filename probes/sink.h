/* SPDX-License-Identifier: MIT */
/*
 * sink.h - where probes write their numbers: a metric of the current cell
 * or invocation, or a skip with its reason. Backed by db.c's statements,
 * or, when @ops is set, by someone else's: the agent encodes each row as a
 * protocol line (bench/agent/agent.c), so the probe cannot tell.
 */
#ifndef CVMBENCH_SINK_H
#define CVMBENCH_SINK_H

#include <stdint.h>

struct db;
struct sink;

/* Rows written elsewhere than the database (all three set). */
struct sink_ops {
	int (*metric)(struct sink *s, const char *name, double value, const char *unit);
	int (*skip)(struct sink *s, const char *reason);
	int (*note)(struct sink *s, const char *key, const char *value);
};

struct sink {
	struct db *db;
	int64_t run_id;
	int64_t cell_id;
	int64_t invocation_id;    /* 0 for a cell window */
	const char *probe;
	const struct sink_ops *ops;   /* NULL: the database */
	void *ctx;                    /* for @ops */
};

/** sink_metric() - one number with its unit ("ns", "count", "kB", ...). */
int sink_metric(struct sink *s, const char *name, double value, const char *unit);
/** sink_skip() - this probe could not measure this cell, and why. */
int sink_skip(struct sink *s, const char *reason);

/**
 * sink_note() - how this cell was measured, in words (stored as cell_param
 * "<probe>.<key>", e.g. idle.entries_source = "cpuidle sysfs usage").
 */
int sink_note(struct sink *s, const char *key, const char *value);

#endif
