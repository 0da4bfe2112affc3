/* SPDX-License-Identifier: MIT */
/*
 * plot.h - draw one figure of figures.h into a PNG or SVG file with
 * gnuplot, run with fork + execvp on an argument vector (no shell), made
 * in an output directory opened safely (out-file.h).
 */
#ifndef CVMBENCH_PLOT_H
#define CVMBENCH_PLOT_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;
struct figure;
struct figure_ctx;
struct out_dir;

int plot_render(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		const struct out_dir *dir, const char *name, char *why, size_t whylen);
/**
 * plot_render_only() - plot_render() of the one cell @only (a cell key; NULL:
 * the figure picks) for the figures that draw one cell (figure_ctx.only).
 */
int plot_render_only(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		     const char *only, const struct out_dir *dir, const char *name,
		     char *why, size_t whylen);

int plot_render_src(const struct figure *fig, struct sqlite3 *h, int64_t run_id,
		    const struct out_dir *dir, const char *name, char *why, size_t whylen,
		    struct figure_ctx *src);

#endif
