/* SPDX-License-Identifier: MIT */
/*
 * db-merge-runs.h - where `cvmbench merge` puts each run of an input
 * (db-merge-runs.c): a new run, the same run already in the output
 * (resumed since: its new cells are added), or one shard of a sharded
 * study folded into the study's run.
 */
#ifndef CVMBENCH_DB_MERGE_RUNS_H
#define CVMBENCH_DB_MERGE_RUNS_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

enum merge_kind {
	MERGE_NEW,        /* a run the output does not hold: inserted */
	MERGE_SAME,       /* the output holds it: its cells not there yet are added */
	MERGE_FOLD,       /* a shard of a study the output holds: its cells join the study's run */
	MERGE_SAME_SHARD, /* a shard the study's run holds already: its new cells are added */
};

/* Where input run @old goes: its output id @new and how (enum merge_kind). */
struct merge_place {
	int64_t old, new;
	int kind;
	int shard, nshards;       /* from run.shard "I/N"; 0 when not sharded */
};

int merge_run_place(struct sqlite3 *h, int64_t old, int64_t run_offset,
		    struct merge_place *p, const char *path, char *err, size_t errlen);
int merge_run_finish(struct sqlite3 *h, const struct merge_place *p, const char *path,
		     int64_t first_cell, int64_t last_cell, char *err, size_t errlen);
int merge_studies_warn(struct sqlite3 *h, const char *out);

#endif
