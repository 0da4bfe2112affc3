// SPDX-License-Identifier: MIT
/*
 * figures.c - the registry of figures: name, what it shows, its gnuplot
 * script in analysis/, and the function that writes its data. Later
 * figures (idle-policy, threads-sweep, runc-phases, ...) are one entry
 * each here, plus their bench/fig-NAME.c and analysis/NAME.gp.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "figures.h"

static const struct figure figures[] = {
	{ "warm-latency",
	  "warm-start latency per cell: median, 25-75 % box, 5-95 % whiskers",
	  "warm-latency.gp", fig_warm_latency_data },
	{ "idle-policy",
	  "Table III: latency and halt entries per call for each guest idle policy",
	  "idle-policy.gp", fig_idle_policy_data },
	{ "threads-sweep", "Fig. 6: latency against worker threads, per guest idle policy",
	  "threads-sweep.gp", fig_threads_sweep_data },
	{ "runc-phases",
	  "container cold start (runc, crun) by phase, stacked, per runtime and variant",
	  "runc-phases.gp", fig_runc_phases_data },
	{ "runc-cpus", "Fig. 8a: container cold start against the CPUs of the runtime",
	  "runc-sweep.gp", fig_runc_cpus_data },
	{ "runc-quota", "Fig. 8b: container cold start against the runtime's CPU quota",
	  "runc-sweep.gp", fig_runc_quota_data },
	{ "runc-corunner", "Fig. 8c: container cold start next to CPU-bound threads",
	  "runc-sweep.gp", fig_runc_corunner_data },
	{ "runc-parallel", "Fig. 8d: container cold start per start, K starts at once",
	  "runc-sweep.gp", fig_runc_parallel_data },
	{ "runc-contention", "Fig. 9: time blocked on kernel locks per container start",
	  "runc-contention.gp", fig_runc_contention_data },
};

#define N_FIGURES (sizeof(figures) / sizeof(figures[0]))

/**
 * figure_find() - the figure called @name, or NULL.
 */
const struct figure *figure_find(const char *name)
{
	size_t i;

	for (i = 0; i < N_FIGURES; i++)
		if (!strcmp(figures[i].name, name))
			return &figures[i];
	return NULL;
}

/**
 * figure_at() - the @i-th figure of the registry, NULL past the last:
 * for (i = 0; (f = figure_at(i)); i++).
 */
const struct figure *figure_at(size_t i)
{
	return i < N_FIGURES ? &figures[i] : NULL;
}

/**
 * figure_vars_add() - append one gnuplot assignment ("logy=1") to
 * @ctx->vars, separated by "; ". Silently truncated at the buffer's end.
 */
void figure_vars_add(struct figure_ctx *ctx, const char *fmt, ...)
{
	size_t len = strlen(ctx->vars);
	va_list ap;

	if (len && len + 2 < sizeof(ctx->vars)) {
		strcpy(ctx->vars + len, "; ");
		len += 2;
	}
	va_start(ap, fmt);
	vsnprintf(ctx->vars + len, sizeof(ctx->vars) - len, fmt, ap);
	va_end(ap);
}
