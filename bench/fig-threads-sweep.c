// SPDX-License-Identifier: MIT
/*
 * fig-threads-sweep.c - data of the threads-sweep figure: for each
 * workload, size and idle policy of the run that ran at two or more
 * explicit thread counts, one block (gnuplot `index`) of rows
 * threads, median, p25, p75 (ms), halt entries per call. Cells with
 * threads = 0 (as many as the vCPUs) are left out: their count is the
 * guest's, not the config's. Block titles go in the variable `titles`,
 * their colours (by policy, as in the idle-policy figure) in `colours`.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "idle-cells.h"

static int same_line(const struct idle_cell *a, const struct idle_cell *b)
{
	return !strcmp(a->workload, b->workload) && !strcmp(a->size, b->size) &&
	       !strcmp(a->idle, b->idle);
}

static int by_line(const void *pa, const void *pb)
{
	const struct idle_cell *a = pa, *b = pb;
	int r = strcmp(a->workload, b->workload);

	if (!r)
		r = strcmp(a->size, b->size);
	if (!r)
		r = strcmp(a->idle, b->idle);
	return r ? r : a->threads - b->threads;
}

/* The policy's colour, the same as in the idle-policy figure. */
static const char *colour(const char *idle)
{
	if (!strcmp(idle, "hlt"))
		return "#d62728";
	if (!strncmp(idle, "haltpoll", 8))
		return "#ff7f0e";
	if (!strcmp(idle, "poll"))
		return "#1f77b4";
	return "#888888";
}

/* Write the block of lines [i, j); append its title to @titles. */
static void write_block(struct figure_ctx *ctx, const struct idle_cell *v, size_t i,
			size_t j, int many_wl, char *titles, size_t len)
{
	size_t l = strlen(titles);

	fprintf(ctx->data, "# %s %s %s: threads median p25 p75 halt_per_call\n",
		v[i].workload, v[i].size, v[i].idle);
	for (; i < j; i++)
		fprintf(ctx->data, "%d %.6g %.6g %.6g %.6g\n", v[i].threads, v[i].median_ms,
			v[i].p25_ms, v[i].p75_ms, isnan(v[i].halt_per_inv) ? NAN :
			v[i].halt_per_inv);
	fprintf(ctx->data, "\n\n");
	if (many_wl)
		snprintf(titles + l, len - l, "%s%s/%s/%s", l ? " " : "",
			 v[j - 1].workload, v[j - 1].size, v[j - 1].idle);
	else
		snprintf(titles + l, len - l, "%s%s", l ? " " : "", v[j - 1].idle);
}

static size_t write_blocks(struct figure_ctx *ctx, struct idle_cell *v, size_t n)
{
	char titles[400] = "", colours[400] = "";
	size_t i, j, blocks = 0, maxt = 1;
	int many_wl = 0;

	for (i = 1; i < n; i++)
		many_wl |= strcmp(v[i].workload, v[0].workload) ||
			   strcmp(v[i].size, v[0].size);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_line(&v[i], &v[j]); j++)
			;
		if (j - i < 2)
			continue;
		write_block(ctx, v, i, j, many_wl, titles, sizeof(titles));
		snprintf(colours + strlen(colours), sizeof(colours) - strlen(colours),
			 "%s%s", blocks ? " " : "", colour(v[i].idle));
		blocks++;
		maxt = (size_t)v[j - 1].threads > maxt ? (size_t)v[j - 1].threads : maxt;
	}
	figure_vars_add(ctx, "nblocks=%zu", blocks);
	figure_vars_add(ctx, "maxthreads=%zu", maxt);
	figure_vars_add(ctx, "titles='%s'", titles);
	figure_vars_add(ctx, "colours='%s'", colours);
	figure_vars_add(ctx, "run=%lld", (long long)ctx->run_id);
	return blocks;
}

/**
 * fig_threads_sweep_data() - write the threads-sweep data (see the top of
 * this file). Returns 0, -ENODATA when no workload and policy ran at two
 * or more thread counts, or -errno.
 */
int fig_threads_sweep_data(struct figure_ctx *ctx)
{
	struct idle_cell *cells = NULL;
	size_t n = 0, i, k = 0;
	int ret = idle_cells_load(ctx->h, ctx->run_id, &cells, &n);

	for (i = 0; !ret && i < n; i++)
		if (cells[i].threads > 0)
			cells[k++] = cells[i];
	if (!ret)
		qsort(cells, k, sizeof(*cells), by_line);
	if (!ret && !write_blocks(ctx, cells, k)) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no workload and idle "
			 "policy measured at two or more thread counts",
			 (long long)ctx->run_id);
		ret = -ENODATA;
	}
	free(cells);
	return ret;
}
