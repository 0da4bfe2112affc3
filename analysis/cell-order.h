/* SPDX-License-Identifier: MIT */
/* cell-order.h - a run's cells in the config's matrix order (show, report). */
#ifndef CVMBENCH_CELL_ORDER_H
#define CVMBENCH_CELL_ORDER_H

#include <stdint.h>

struct sqlite3;
struct cJSON;

int cell_order_sort(struct sqlite3 *h, int64_t run_id, struct cJSON *cells);

#endif
