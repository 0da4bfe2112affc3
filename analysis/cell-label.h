/* SPDX-License-Identifier: MIT */
/*
 * cell-label.h - short labels that tell the cells of a figure apart: what
 * a figure names itself (workload/size/threads) plus every other config
 * key (table cell_param) whose value is not the same in all its cells.
 */
#ifndef CVMBENCH_CELL_LABEL_H
#define CVMBENCH_CELL_LABEL_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;

#define CELL_LABEL_MAX 160

int cell_label_extras(struct sqlite3 *h, int64_t run_id, const int64_t *ids,
		      size_t n, char (*extra)[CELL_LABEL_MAX]);
/** cell_measured() - the measured invocations of cell @id (the N a label gives), -1 on error. */
long long cell_measured(struct sqlite3 *h, int64_t id);

#endif
