/* SPDX-License-Identifier: MIT */
/* show-cells.h - the cells table of `cvmbench show`, with the settings that vary. */
#ifndef CVMBENCH_SHOW_CELLS_H
#define CVMBENCH_SHOW_CELLS_H

#include <stdint.h>
#include <stdio.h>

struct sqlite3;
struct cJSON;

int show_cells_print(struct sqlite3 *h, int64_t run_id, const struct cJSON *run, FILE *out);

#endif
