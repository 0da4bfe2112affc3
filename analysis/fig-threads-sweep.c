// SPDX-License-Identifier: MIT
/*
 * fig-threads-sweep.c - data of the threads-sweep figure: for each
 * workload, size, VM type (idle-cells.h) and idle policy of the run's idle
 * cells (warm cells with the idle or cpu probe, or VM exits under an idle
 * policy they set, and measured latency) that
 * ran at two or more explicit thread counts, one line: a block (gnuplot
 * `index`) whose first row is its title (workload/size/policy, or the
 * policy alone; led by the VM type when the run has more than one) and the
 * title in the halt panel (the same, with the source of the idle entries
 * when cells got them from different sources), then rows
 * threads, median, p25, p75 (ms), halt entries per call (NaN without the
 * idle probe's count), N (measured invocations). Cells with threads = 0
 * (as many as the vCPUs) are
 * left out: their count is the guest's, not the config's. Block colours
 * (by policy, idle_policy_rgb()) go in the variable `colours`, point
 * types (by VM type: native 7, container 5, regular 9, model 11, sev-snp
 * 13, tdx 15, another 3) in `points`; `havehalt`
 * says whether any block has halt entries, `haltsource` where they came
 * from (when one source), `haltnote` why none has.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "figures.h"
#include "gp-string.h"
#include "idle-cells.h"

static int same_line(const struct idle_cell *a, const struct idle_cell *b)
{
	return !strcmp(a->workload, b->workload) && !strcmp(a->size, b->size) &&
	       !strcmp(a->vmtype, b->vmtype) && !strcmp(a->idle, b->idle);
}

static int by_line(const void *pa, const void *pb)
{
	const struct idle_cell *a = pa, *b = pb;
	int r = strcmp(a->workload, b->workload);

	if (!r)
		r = strcmp(a->size, b->size);
	if (!r)
		r = a->vmrank - b->vmrank;
	if (!r)
		r = strcmp(a->vmtype, b->vmtype);
	if (!r)
		r = strcmp(a->idle, b->idle);
	return r ? r : a->threads - b->threads;
}

/*
 * Write the block of lines [i, j): its title row (the title, then the
 * title of the halt panel, with the entries' source when @mixed), rows.
 */
static void write_block(struct figure_ctx *ctx, const struct idle_cell *v, size_t i,
			size_t j, int many_wl, int many_types, int mixed)
{
	char title[240], halt[320];

	snprintf(title, sizeof(title), "%s%s%s%s%s%s%s", many_types ? v[i].vmtype : "",
		 many_types ? " " : "", many_wl ? v[i].workload : "", many_wl ? "/" : "",
		 many_wl ? v[i].size : "", many_wl ? "/" : "", v[i].idle);
	snprintf(halt, sizeof(halt), "%s%s%.*s%s", title, mixed && v[i].source[0] ? " [" : "",
		 mixed ? (int)strcspn(v[i].source, " ") : 0, v[i].source,
		 mixed && v[i].source[0] ? "]" : "");
	gp_data_string(ctx->data, title);
	fputc(' ', ctx->data);
	gp_data_string(ctx->data, halt);
	fprintf(ctx->data, " p25 p75 halt_per_call n\n");
	for (; i < j; i++) {
		figure_source(ctx, v[i].id, (long long)v[i].n, "invocations");
		fprintf(ctx->data, "%d %.6g %.6g %.6g %.6g %zu\n", v[i].threads, v[i].median_ms,
			v[i].p25_ms, v[i].p75_ms, v[i].halt_per_inv, v[i].n);
	}
	fprintf(ctx->data, "\n\n");
}

/* The point type of VM type rank @rank (idle_cell.vmrank). */
static int vmtype_point(int rank)
{
	static const int pt[] = { 7, 5, 9, 11, 13, 15, 3 };

	return pt[rank >= 0 && rank < 7 ? rank : 6];
}

static size_t write_blocks(struct figure_ctx *ctx, struct idle_cell *v, size_t n)
{
	char colours[400] = "", points[200] = "";
	size_t i, j, blocks = 0, maxt = 1, l, maxpts = 0;
	int many_wl = 0, mixed = !idle_common_source(v, n), many_types = idle_vmtypes(v, n) > 1;

	for (i = 1; i < n; i++)
		many_wl |= strcmp(v[i].workload, v[0].workload) ||
			   strcmp(v[i].size, v[0].size);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && same_line(&v[i], &v[j]); j++)
			;
		if (j - i < 2)
			continue;
		write_block(ctx, v, i, j, many_wl, many_types, mixed);
		maxpts = j - i > maxpts ? j - i : maxpts;
		l = strlen(colours);
		snprintf(colours + l, sizeof(colours) - l, "%s#%06x", blocks ? " " : "",
			 idle_policy_rgb(v[i].idle));
		l = strlen(points);
		snprintf(points + l, sizeof(points) - l, "%s%d", blocks ? " " : "",
			 vmtype_point(v[i].vmrank));
		blocks++;
		maxt = (size_t)v[j - 1].threads > maxt ? (size_t)v[j - 1].threads : maxt;
	}
	figure_var_int(ctx, "nblocks", (long long)blocks);
	figure_var_int(ctx, "maxthreads", (long long)maxt);
	figure_var_int(ctx, "maxpts", (long long)maxpts);
	figure_var_str(ctx, "colours", colours);
	figure_var_str(ctx, "points", points);
	figure_var_int(ctx, "nvmtypes", idle_vmtypes(v, n));
	figure_var_int(ctx, "run", ctx->run_id);
	idle_halt_vars(ctx, v, n);
	return blocks;
}

/**
 * fig_threads_sweep_data() - write the threads-sweep data (see the top of
 * this file). Returns 0, -ENODATA when no workload and policy of an idle
 * cell ran at two or more thread counts, or -errno.
 */
int fig_threads_sweep_data(struct figure_ctx *ctx)
{
	struct idle_cell *cells = NULL;
	size_t n = 0, i, k = 0;
	int ret = idle_cells_load(ctx->h, ctx->run_id, &cells, &n);

	for (i = 0; !ret && i < n; i++)
		if (cells[i].threads > 0 && idle_cell_of_policy(&cells[i]))
			cells[k++] = cells[i];
	if (!ret && k)   /* qsort(NULL, 0, ...) is undefined (UBSan) */
		qsort(cells, k, sizeof(*cells), by_line);
	if (!ret && !write_blocks(ctx, cells, k)) {
		snprintf(ctx->why, sizeof(ctx->why), "run %lld has no workload and idle "
			 "policy measured at two or more thread counts with the idle or "
			 "cpu probe (probes = latency, idle, cpu)", (long long)ctx->run_id);
		ret = -ENODATA;
	}
	free(cells);
	return ret;
}

const struct figure figure_threads_sweep = {
	"threads-sweep", "Fig. 6: latency against worker threads, per VM type and guest idle policy",
	"threads-sweep.gp", fig_threads_sweep_data, 0,
};
