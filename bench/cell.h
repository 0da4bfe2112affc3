/* SPDX-License-Identifier: MIT */
/*
 * cell.h - one point of an experiment matrix, fully expanded. Every field
 * but key, experiment, repeat_index, spec and index is a config key, declared
 * once in cell-keys.h; spec holds them all as text.
 * Cells come from config_expand() and go with config_cells_free().
 */
#ifndef CVMBENCH_CELL_H
#define CVMBENCH_CELL_H

#include <stdint.h>

#include "cell-keys.h"

/* A field `ctype field dim;` per line of CELL_KEYS (cell-keys.h). */
#define CELL_FIELD(name, field, ctype, dim, ...) ctype field dim;

struct cell {
	char key[112];            /* "<experiment>-<8 hex>": stable, for --only */
	char experiment[64];
	CELL_KEYS(CELL_FIELD)
	int repeat_index;         /* 0 .. repeats-1 */
	char *spec;               /* `key = value` lines, verbatim; malloc'd */
	int index;                /* position in the expanded matrix */
};

#undef CELL_FIELD

#endif
