/* SPDX-License-Identifier: MIT */
/*
 * db-minmem.h - the minmem tables (results-schema/011-minmem.sql): a
 * search's row, each step's outcome read from its run and stored, and the
 * answers read back (for `minmem`'s table and the planner).
 */
#ifndef CVMBENCH_DB_MINMEM_H
#define CVMBENCH_DB_MINMEM_H

#include <stddef.h>
#include <stdint.h>

struct db;

/** struct minmem_search - what one search asks (a row of table minmem). */
struct minmem_search {
	const char *workload, *vm_type, *accel, *size;
	int from_mib, to_mib, step_mib;
	double threshold_pct;
};

/**
 * struct minmem_outcome - one step's run as the database holds it: its
 * (latest) cell, the cell's status, measured calls and of them ok, and
 * their median latency (-1: none ok).
 */
struct minmem_outcome {
	int64_t cell_id;
	char status[16];
	long calls, calls_ok;
	double median_ms;
	char reason[512];      /* a skipped cell's reason, a failed one's last error */
};

/** db_minmem_begin() - a new search row; its id, or -errno. */
int64_t db_minmem_begin(struct db *db, const struct minmem_search *s);
/** db_minmem_outcome() - the outcome of run @run_id's cell. 0, -ENOENT (no cell) or -EIO. */
int db_minmem_outcome(struct db *db, int64_t run_id, struct minmem_outcome *o);
/** db_minmem_step() - store a step of search @id. 0 or -EIO. */
int db_minmem_step(struct db *db, int64_t id, int memory_mib, int64_t run_id,
		   const struct minmem_outcome *o, int passed, const char *why);
/**
 * db_minmem_end() - the search's answer: @baseline_ms (< 0: none), @min_mib
 * (<= 0: none, @why says). 0 or -EIO.
 */
int db_minmem_end(struct db *db, int64_t id, double baseline_ms, int min_mib, const char *why);

#endif
