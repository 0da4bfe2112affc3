/* SPDX-License-Identifier: MIT */
/*
 * figures.h - the figures `plot` and `report` can draw. A figure is a
 * gnuplot script in analysis/ plus a function that writes the script's
 * data file from the database; adding one is one file (fig-NAME.c, which
 * defines `const struct figure figure_<ident>`) and one line in
 * figure-list.h. Strings reach gnuplot only through
 * figure_var_str() (a quoted constant) or gp_data_string() (a data-file
 * field): labels and titles from the database go in the data file.
 */
#ifndef CVMBENCH_FIGURES_H
#define CVMBENCH_FIGURES_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct sqlite3;

#define FIGURE_SRC_MAX 256

/* What a figure's data function gets, and what it hands back. */
struct figure_ctx {
	struct sqlite3 *h;        /* read-only, with analysis/views.sql */
	int64_t run_id;
	FILE *data;               /* the data file the script reads */
	char vars[4096];          /* more gnuplot assignments: "logy=1; unit='ms'" */
	int vars_err;             /* first error of figure_var_*(), 0 if none */
	char vars_bad[32];        /* the variable it was about */
	char why[256];            /* why there is nothing to draw (-ENODATA) */
	const char *only;         /* plot --only CELLKEY: the one cell to draw, or NULL */
	/* where the drawn data came from (figure_source()), for the caption */
	int64_t src_cells[FIGURE_SRC_MAX];
	size_t src_ncells;
	long long src_n;          /* N: what the points are made of, summed */
	const char *src_unit;     /* "invocations", "container starts", ... */
	char src_note[256];       /* a sentence on the data for the caption, or "" */
};

struct figure {
	const char *name;         /* `cvmbench plot NAME` */
	const char *description;
	const char *script;       /* file name under analysis/ */
	/* Write the data; 0, -ENODATA (ctx->why says why) or -errno. */
	int (*write_data)(struct figure_ctx *ctx);
	unsigned int flags;       /* FIGURE_* */
};

/* Its numbers may be below zero (a percentage over a reference): plot-data.c. */
#define FIGURE_SIGNED 1u

const struct figure *figure_find(const char *name);
const struct figure *figure_at(size_t i);
void figure_var_int(struct figure_ctx *ctx, const char *name, long long value);
void figure_var_str(struct figure_ctx *ctx, const char *name, const char *value);
void figure_source(struct figure_ctx *ctx, int64_t cell_id, long long n,
		   const char *unit);
void figure_var_text(struct figure_ctx *ctx, const char *name, const char *text,
		     size_t width);

/* The data functions, one file each. */
int fig_warm_latency_data(struct figure_ctx *ctx);
int fig_idle_policy_data(struct figure_ctx *ctx);
int fig_threads_sweep_data(struct figure_ctx *ctx);
int fig_runc_phases_data(struct figure_ctx *ctx);
int fig_runc_cpus_data(struct figure_ctx *ctx);
int fig_runc_quota_data(struct figure_ctx *ctx);
int fig_runc_corunner_data(struct figure_ctx *ctx);
int fig_runc_parallel_data(struct figure_ctx *ctx);
int fig_runc_contention_data(struct figure_ctx *ctx);
int fig_pools_sweep_data(struct figure_ctx *ctx);
int fig_pool_depletion_data(struct figure_ctx *ctx);
int fig_overhead_data(struct figure_ctx *ctx);
int fig_vmexit_rate_data(struct figure_ctx *ctx);
int fig_vm_boot_data(struct figure_ctx *ctx);
int fig_memory_data(struct figure_ctx *ctx);
int fig_vmexit_reasons_data(struct figure_ctx *ctx);
int fig_memory_overhead_data(struct figure_ctx *ctx);
int fig_memory_mixed_data(struct figure_ctx *ctx);
int fig_consolidation_data(struct figure_ctx *ctx);
int fig_ksm_convergence_data(struct figure_ctx *ctx);
int fig_ipc_data(struct figure_ctx *ctx);
int fig_ple_data(struct figure_ctx *ctx);
int fig_plan_pareto_data(struct figure_ctx *ctx);
int fig_plan_budget_data(struct figure_ctx *ctx);
int fig_system_suite_data(struct figure_ctx *ctx);
int fig_system_overhead_data(struct figure_ctx *ctx);
int fig_seed_start_data(struct figure_ctx *ctx);
int fig_seed_memory_data(struct figure_ctx *ctx);

#endif
