/* SPDX-License-Identifier: MIT */
/*
 * sink.h - where probes write their numbers: a metric of the current cell
 * or invocation, a skip with its reason, a note, or a row of the probe's
 * own table. Probes never see SQLite: every sink has @ops saying where rows
 * go. The store's (sink_db_ops, bench/store/db-sink.c) prepares each table's
 * INSERT once and keeps the rows of one window (one probe's emit) in one
 * transaction, committed when the emit succeeds and rolled back when it
 * fails; the agent's (bench/agent/agent.c) encodes each row as a protocol
 * line, so the probe cannot tell.
 */
#ifndef CVMBENCH_SINK_H
#define CVMBENCH_SINK_H

#include <stddef.h>
#include <stdint.h>

struct db;
struct sink;
struct sink_table;

/* Where a sink's rows go (metric, skip and note set; row may be NULL). */
struct sink_ops {
	int (*metric)(struct sink *s, const char *name, double value, const char *unit);
	int (*skip)(struct sink *s, const char *reason);
	int (*note)(struct sink *s, const char *key, const char *value);
	int64_t (*row)(struct sink *s, const struct sink_table *t, const void *row);
};

struct sink {
	struct db *db;
	int64_t run_id;
	int64_t cell_id;
	int64_t invocation_id;    /* 0 for a cell window */
	const char *probe;
	const struct sink_ops *ops;   /* where rows go */
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

/*
 * A probe's own table (created by a migration in results-schema/), declared
 * once by the probe: its name and its columns, each read from a field of
 * the probe's row struct (the field has the column's name) or filled in by
 * the sink (the window's cell and invocation).
 */
enum sink_col_type {
	SINK_COL_CELL,            /* the window's cell id */
	SINK_COL_INVOCATION,      /* the window's invocation id; NULL in a cell window */
	SINK_COL_INT,             /* long long */
	SINK_COL_KNOWN,           /* long long; < 0 (unknown) is stored as NULL */
	SINK_COL_REAL,            /* double; NaN (unknown) is stored as NULL */
	SINK_COL_TEXT,            /* const char *; NULL is stored as NULL */
};

struct sink_column {
	const char *name;
	enum sink_col_type type;
	size_t offset;            /* of the field in the row struct */
};

struct sink_table {
	const char *name;
	const struct sink_column *columns;
	size_t ncolumns;
};

/* A column of row struct T from its field F, of the C type the column reads. */
#define SINK_FIELD_(T, F, type, ctype) { #F, type, \
	__builtin_choose_expr(__builtin_types_compatible_p(__typeof__(((T *)0)->F), \
							   ctype), offsetof(T, F), (void)0) }
#define SINK_INT(T, F)   SINK_FIELD_(T, F, SINK_COL_INT, long long)
#define SINK_KNOWN(T, F) SINK_FIELD_(T, F, SINK_COL_KNOWN, long long)
#define SINK_REAL(T, F)  SINK_FIELD_(T, F, SINK_COL_REAL, double)
#define SINK_TEXT(T, F)  SINK_FIELD_(T, F, SINK_COL_TEXT, const char *)
#define SINK_CELL(name)       { name, SINK_COL_CELL, 0 }
#define SINK_INVOCATION(name) { name, SINK_COL_INVOCATION, 0 }
#define SINK_TABLE(name, cols) { name, cols, sizeof(cols) / sizeof((cols)[0]) }

/**
 * sink_row() - write @row (a struct laid out as @t says) into @t, within
 * the window's transaction. Returns the new row's id (> 0, for rows of
 * another table that refer to it) or -errno.
 */
int64_t sink_row(struct sink *s, const struct sink_table *t, const void *row);

#endif
