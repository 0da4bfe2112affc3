/* SPDX-License-Identifier: MIT */
/*
 * vmexit-table.h - `cvmbench show --table vmexit`: the vmexit table
 * (results-schema/007-vmexit.sql) of one run, as aligned text or JSON.
 */
#ifndef CVMBENCH_VMEXIT_TABLE_H
#define CVMBENCH_VMEXIT_TABLE_H

#include <stdint.h>
#include <stdio.h>

struct sqlite3;

/**
 * vmexit_table_present() - whether the database @h has the vmexit table
 * (schema 007 on; older databases can be read). 1 or 0.
 */
int vmexit_table_present(struct sqlite3 *h);

/**
 * vmexit_table_show() - print the vmexit rows of @run_id to @out: per row
 * the cell, window, VM, source, method, event, isa, reason (code, name,
 * class), count, time, and the fidelity flag or the skip reason. Returns 0,
 * or -ENODATA with the reason printed on stderr (no vmexit rows: the
 * probe's skips of the run, if any, or that it was not asked for; a
 * database from before the table), or -EIO.
 */
int vmexit_table_show(struct sqlite3 *h, int64_t run_id, int json, FILE *out);

#endif
