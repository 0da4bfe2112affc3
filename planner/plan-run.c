// SPDX-License-Identifier: MIT
/*
 * plan-run.c - one `cvmbench plan` (plan-run.h): the trace (format from
 * its header unless given), a platform from the command line, every policy
 * over the same arrivals, one line each. Bad input (a malformed or empty
 * trace, a budget below one instance) is refused before anything runs.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "plan-run.h"

static int sniff21(const char *path, int *is21)
{
	char head[16] = "";
	FILE *f = fopen(path, "r");

	if (!f) {
		pr_err("plan: %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	if (!fgets(head, sizeof(head), f))
		head[0] = '\0';
	fclose(f);
	*is21 = !strncmp(head, "app,func,", 9);
	return 0;
}

int plan_trace_load(const struct plan_args *a, struct plan_trace *t)
{
	int r = 0;

	memset(t, 0, sizeof(*t));
	if (a->format)
		t->is21 = !strcmp(a->format, "azure21");
	else if (sniff21(a->trace, &t->is21))
		return EXIT_USAGE;
	if (t->is21) {
		r = trace21_scan(&t->t21, a->trace);
		t->nfn = t->t21.fns.n;
		t->horizon = t->t21.last;
	} else {
		r = trace19_read(&t->t19, a->trace);
		if (!r && a->durations)
			r = trace19_read_durations(&t->t19, a->durations);
		if (!r && a->memory)
			r = trace19_read_memory(&t->t19, a->memory);
		t->nfn = t->t19.fns.n;
		t->horizon = 60.0 * t->t19.minutes;
	}
	return !r ? 0 : r == -EINVAL || r == -ENOENT ? EXIT_USAGE : EXIT_FAILED;
}

void plan_trace_free(struct plan_trace *t)
{
	trace19_free(&t->t19);
	trace21_free(&t->t21);
}

/* The command-line platform: each function's memory, one cold and one warm latency. */
struct plan_platform {
	struct sim_platform p;
	double *mem, cold, warm;
	struct sim_dist *cold_d, *warm_d;
};

static int platform_make(const struct plan_args *a, const struct plan_trace *t,
			 struct plan_platform *pl)
{
	size_t f;

	pl->cold = a->cold_ms / 1000;
	pl->warm = a->warm_ms / 1000;
	pl->mem = malloc(t->nfn * sizeof(*pl->mem));
	pl->cold_d = malloc(t->nfn * sizeof(*pl->cold_d));
	pl->warm_d = malloc(t->nfn * sizeof(*pl->warm_d));
	if (!pl->mem || !pl->cold_d || !pl->warm_d)
		return -ENOMEM;
	for (f = 0; f < t->nfn; f++) {
		double mib = t->t19.mem_mib && !isnan(t->t19.mem_mib[f]) && t->t19.mem_mib[f] > 0
			? t->t19.mem_mib[f] : a->inst_mib;

		pl->mem[f] = mib * 1048576.0;
		pl->cold_d[f] = (struct sim_dist){ &pl->cold, 1 };
		pl->warm_d[f] = (struct sim_dist){ &pl->warm, 1 };
	}
	pl->p = (struct sim_platform){ t->nfn, pl->mem, pl->cold_d, pl->warm_d };
	return 0;
}

static void platform_free(struct plan_platform *pl)
{
	free(pl->mem);
	free(pl->cold_d);
	free(pl->warm_d);
}

/* A budget policy must hold the largest instance. */
static int check_budgets(const struct plan_args *a, const struct plan_platform *pl)
{
	double most = 0;
	size_t f;
	int i;

	for (f = 0; f < pl->p.nfn; f++)
		most = pl->mem[f] > most ? pl->mem[f] : most;
	for (i = 0; i < a->npolicy; i++)
		if (a->policy[i].budget > 0 && a->policy[i].budget < most) {
			pr_err("plan: policy %s: budget %.0f MiB is below one instance (%.0f MiB)",
			       a->policy[i].label, a->policy[i].budget / 1048576, most / 1048576);
			return EXIT_USAGE;
		}
	return 0;
}

static void print_head(FILE *out, int csv)
{
	if (csv)
		fprintf(out, "policy,invocations,cold,cold_frac,dropped,p50_ms,p99_ms,"
			"mean_warm_mib,peak_warm_mib,idle_gib_s,idle_cost_usd\n");
	else
		fprintf(out, "%-22s %12s %10s %8s %9s %9s %12s %12s %12s %10s\n", "POLICY",
			"INVOCATIONS", "COLD%", "DROPPED", "P50_MS", "P99_MS", "MEAN_MIB",
			"PEAK_MIB", "IDLE_GiB*s", "COST_$");
}

static void print_row(FILE *out, int csv, const char *label, const struct sim_result *r)
{
	const char *fmt = csv ? "%s,%llu,%llu,%.6g,%llu,%.4g,%.4g,%.6g,%.6g,%.6g,%.6g\n"
		: "%-22s %12llu %10.4f %8llu %9.2f %9.2f %12.1f %12.1f %12.1f %10.4f\n";

	if (csv)
		fprintf(out, fmt, label, (unsigned long long)r->invocations,
			(unsigned long long)r->cold, r->cold_frac, (unsigned long long)r->dropped,
			r->p50 * 1e3, r->p99 * 1e3, r->mean_mem / 1048576, r->peak_mem / 1048576,
			r->idle_gib_s, r->cost);
	else
		fprintf(out, "%-22s %12llu %10.4f %8llu %9.2f %9.2f %12.1f %12.1f %12.1f %10.4f\n",
			label, (unsigned long long)r->invocations, 100 * r->cold_frac,
			(unsigned long long)r->dropped, r->p50 * 1e3, r->p99 * 1e3,
			r->mean_mem / 1048576, r->peak_mem / 1048576, r->idle_gib_s, r->cost);
}

/* Run the policies but layered (a skip, named) over the trace; print. */
static int run_sims(const struct plan_args *a, struct plan_trace *t,
		    const struct plan_platform *pl, FILE *out)
{
	struct sim *sims[PLAN_MAX_POLICIES];
	int idx[PLAN_MAX_POLICIES], n = 0, i, skipped = 0, r = 0;
	struct sim_result res;

	for (i = 0; i < a->npolicy; i++) {
		struct sim_opts o = { a->policy[i], a->seed, a->price, t->horizon };

		if (a->policy[i].kind == POLICY_LAYERED) {
			printf("SKIP layered: needs the per-layer metrics " LAYER_METRICS
			       " (docs/capacity.md); no platform here has them\n");
			skipped = 1;
			continue;
		}
		sims[n] = sim_new(&pl->p, &o);
		if (!sims[n]) {
			r = -ENOMEM;
			goto out;
		}
		idx[n++] = i;
	}
	r = t->is21 ? sim_feed21(&t->t21, sims, (size_t)n)
		: sim_feed19(&t->t19, sims, (size_t)n, a->spread, a->seed);
	if (r)
		goto out;
	print_head(out, a->csv);
	for (i = 0; i < n && !r; i++) {
		r = sim_finish(sims[i], &res);
		if (!r)
			print_row(out, a->csv, a->policy[idx[i]].label, &res);
	}
out:
	while (n--)
		sim_free(sims[n]);
	if (r)
		return r == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	return skipped ? EXIT_SKIPPED : EXIT_OK;
}

int plan_run(const struct plan_args *a, FILE *out)
{
	struct plan_trace t;
	struct plan_platform pl = { 0 };
	int r = plan_trace_load(a, &t);

	if (!r && platform_make(a, &t, &pl))
		r = EXIT_FAILED;
	if (!r)
		r = check_budgets(a, &pl);
	if (!r)
		r = run_sims(a, &t, &pl, out);
	platform_free(&pl);
	plan_trace_free(&t);
	return r;
}
