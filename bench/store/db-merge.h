/* SPDX-License-Identifier: MIT */
/*
 * db-merge.h - merge cvmbench databases into one (db-merge.c), for
 * `cvmbench merge`.
 */
#ifndef CVMBENCH_DB_MERGE_H
#define CVMBENCH_DB_MERGE_H

#include <stddef.h>

struct db;

/* What one input added to the output. */
struct db_merge_count {
	long runs_added, runs_present, rows_added;
	long runs_folded;         /* shards joined to their study's run (db-merge-runs.c) */
};

/**
 * db_merge_file() - copy every run of the cvmbench database @path into
 * @out, with all that hangs from it (environment, cells and their params,
 * instances, invocations, metrics, skips, errors, any table whose foreign
 * keys lead to a run), ids renumbered after @out's (in id order, so the
 * newest row of a run's cell stays its current one), and a new run's
 * origin as environment facts merge.source_file, merge.source_run and
 * merge.source_host. A run @out holds already (same started_at, hostname,
 * version, command line, config and environment facts) gets only its cell
 * rows @out does not hold (resumed since) and the input's status and
 * counts; a shard of a study @out holds a run of joins that run
 * (db-merge-runs.c). An older schema is migrated in a copy in memory; the
 * input is opened read-only and never changed. One transaction per input.
 * An input whose tables, views or columns are not exactly the output's
 * (this build's schema) is refused (-EINVAL); the SQL is built from the
 * output's schema only. Returns 0 or -errno with @err naming the file.
 */
int db_merge_file(struct db *out, const char *path, struct db_merge_count *count,
		  char *err, size_t errlen);

#endif
