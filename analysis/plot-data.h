/* SPDX-License-Identifier: MIT */
/*
 * plot-data.h - the one rule for numbers every figure's data file obeys
 * before gnuplot reads it (plot-data.c): a point that cannot be drawn is
 * left out (its numbers become NaN, which gnuplot skips) and counted, so
 * that the figure and stderr can say how many and why.
 */
#ifndef CVMBENCH_PLOT_DATA_H
#define CVMBENCH_PLOT_DATA_H

#include <stddef.h>

/* Above this a number is no measurement (ns of 30 years are 1e18). */
#define PLOT_DATA_HUGE 1e18

/* The points (rows) left out, by why; a row counts once, for its first. */
struct plot_drop {
	long long nonfinite;      /* inf or -inf */
	long long negative;       /* below zero, unless the figure is FIGURE_SIGNED */
	long long huge;           /* beyond PLOT_DATA_HUGE */
};

int plot_data_clean(const char *path, int signed_ok, struct plot_drop *d);
long long plot_drop_total(const struct plot_drop *d);
void plot_drop_note(const struct plot_drop *d, char *buf, size_t len);

#endif
