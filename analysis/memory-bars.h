/* SPDX-License-Identifier: MIT */
/*
 * memory-bars.h - the data of the memory figures drawn as clustered bars
 * (memory-bars.gp): one group per cell layout, a bar per memory variant.
 */
#ifndef CVMBENCH_MEMORY_BARS_H
#define CVMBENCH_MEMORY_BARS_H

#include "figures.h"

/* Which cells a bar figure takes and how it names their group. */
struct memory_bars {
	const char *label_sql;    /* SQL over the columns of memory-cells.h's p */
	const char *where_sql;    /* which cells (of those with hostmem data) */
	const char *title;        /* the figure's title, a constant */
	const char *nodata;       /* why there is nothing to draw: "run N has ..." */
};

int memory_bars_data(struct figure_ctx *ctx, const struct memory_bars *b);

#endif
