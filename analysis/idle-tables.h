/* SPDX-License-Identifier: MIT */
/*
 * idle-tables.h - the study-layout tables of a run (idle-policy, exitcost)
 * for `cvmbench show --table NAME` and the report.
 */
#ifndef CVMBENCH_IDLE_TABLES_H
#define CVMBENCH_IDLE_TABLES_H

#include <stdint.h>
#include <stdio.h>

struct sqlite3;
struct cJSON;

/* The most columns a table shows (show's text, the report): memory has 17. */
#define IDLE_TABLE_MAXCOLS 24

/**
 * idle_tables_json() - the tables for @run_id, as an array of
 * { "name", "title", "note", "head": [...], "rows": [[...], ...] }:
 * "idle-policy" (VM type, policy, latency, halt and idle entries, CPU
 * burnt, the host's VM exits and HLT's share of them) and
 * "exitcost" (median and p99 per micro-benchmark). Tables with no row are
 * left out. NULL on error.
 */
struct cJSON *idle_tables_json(struct sqlite3 *h, int64_t run_id);

/**
 * idle_table_show() - print the table @name of @run_id to @out, as
 * aligned text or (@json) JSON. Returns 0, -ENOENT for an unknown name
 * (reported), or -ENODATA when the run has no row for it (reported).
 */
int idle_table_show(struct sqlite3 *h, int64_t run_id, const char *name, int json,
		    FILE *out);

#endif
