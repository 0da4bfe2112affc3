// SPDX-License-Identifier: MIT
/*
 * tests/unit/plan-sim.c - the warm-pool simulator (planner/sim.c) against
 * closed forms, on arrivals this test draws itself (its own exponential
 * gaps, not the trace generator's):
 *  - one function, Poisson rate lambda, fixed TTL T, zero service time:
 *    a gap is independent of the others, so cold starts are Binomial(N,
 *    e^(-lambda T)) (the first arrival aside): with N = 200 000 and lambda T
 *    = 1 the standard error is sqrt(0.2325 / N) = 0.0011; the tolerance
 *    0.006 is 5.5 of them. The time-average of warm instances is
 *    sum min(gap, T) / sum gap -> 1 - e^(-lambda T); by the delta method its
 *    standard error is at most (sd min + R sd gap) / (E gap sqrt N) =
 *    0.99 / sqrt N = 0.0022 at lambda T = 1; tolerance 0.01 (4.5 of them).
 *    lambda T = 3 likewise (e^-3 = 0.0498).
 *  - periodic arrivals with period P: one cold start when T >= P (T = P
 *    too), every arrival cold when T < P.
 *  - lru and gdsf with a budget of the whole footprint: only the
 *    compulsory misses (one per function), nothing dropped.
 *  - every policy, a tight budget and real latencies: memory never above
 *    the budget after any arrival, the peak neither; cold starts >=
 *    distinct functions invoked.
 * TAP output.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

#include "plan-policy.h"
#include "sim.h"
#include "stats-rng.h"
#include "tap.h"

#define MIB 1048576.0

static double zero = 0, cold_s = 0.5, warm_s = 0.01;

struct plat {
	struct sim_platform p;
	double mem[64];
	struct sim_dist c[64], w[64];
};

static void plat_init(struct plat *pl, size_t nfn, int latency)
{
	size_t f;

	for (f = 0; f < nfn; f++) {
		pl->mem[f] = (64 + 32 * (double)(f % 4)) * MIB;
		pl->c[f] = (struct sim_dist){ latency ? &cold_s : &zero, 1 };
		pl->w[f] = (struct sim_dist){ latency ? &warm_s : &zero, 1 };
	}
	pl->p = (struct sim_platform){ nfn, pl->mem, pl->c, pl->w };
}

static struct sim *sim_with(const struct plat *pl, const char *policy, double horizon)
{
	struct sim_opts o = { .seed = 7, .price = 0.0000133334, .horizon = horizon };

	if (plan_policy_parse(policy, &o.policy))
		return NULL;
	return sim_new(&pl->p, &o);
}

static void check_poisson(double lambda, double T, size_t n)
{
	struct plat pl;
	struct stats_rng g;
	struct sim_result r;
	struct sim *s;
	char pol[32];
	double t = 0, want = exp(-lambda * T);
	size_t i;

	plat_init(&pl, 1, 0);
	snprintf(pol, sizeof(pol), "ttl:%g", T);
	stats_rng_seed(&g, 42);
	s = sim_with(&pl, pol, 0);
	for (i = 0; i < n; i++) {
		t += -log(1 - stats_rng_uniform(&g)) / lambda;
		sim_arrive(s, 0, t, 0);
	}
	sim_finish(s, &r);
	tap_ok(fabs(r.cold_frac - want) < 0.006, "Poisson, lambda T = %g: cold fraction %.4f, "
	       "e^(-lambda T) = %.4f", lambda * T, r.cold_frac, want);
	tap_ok(fabs(r.mean_mem / pl.mem[0] - (1 - want)) < 0.01, "lambda T = %g: mean warm "
	       "instances %.4f, 1 - e^(-lambda T) = %.4f", lambda * T, r.mean_mem / pl.mem[0],
	       1 - want);
	sim_free(s);
}

static uint64_t periodic_colds(double P, double T, size_t n)
{
	struct plat pl;
	struct sim_result r;
	struct sim *s;
	char pol[32];
	size_t i;

	plat_init(&pl, 1, 0);
	snprintf(pol, sizeof(pol), "ttl:%g", T);
	s = sim_with(&pl, pol, 0);
	for (i = 0; i < n; i++)
		sim_arrive(s, 0, 30 + P * (double)i, 0);
	sim_finish(s, &r);
	sim_free(s);
	return r.cold;
}

/* @n arrivals over @nfn functions, skewed (function f drawn w.p. ~ 1/(f+1)). */
static void mixed(struct sim *s, size_t nfn, size_t n, uint64_t seed, double budget,
		  int *over)
{
	struct stats_rng g;
	double t = 0;
	size_t i;

	stats_rng_seed(&g, seed);
	for (i = 0; i < n; i++) {
		uint32_t f = (uint32_t)(pow((double)nfn + 1, stats_rng_uniform(&g)) - 1);

		t += -log(1 - stats_rng_uniform(&g)) * 2.0;
		sim_arrive(s, f < nfn ? f : (uint32_t)nfn - 1, t, 0);
		if (budget > 0 && sim_mem_now(s) > budget)
			(*over)++;
	}
}

static void check_budget_whole(const char *kind)
{
	struct plat pl;
	struct sim_result r;
	char pol[48];
	double all = 0;
	size_t f;
	int over = 0;
	struct sim *s;

	plat_init(&pl, 40, 0);
	for (f = 0; f < 40; f++)
		all += pl.mem[f];
	snprintf(pol, sizeof(pol), "%s:%.0fMiB", kind, all / MIB);
	s = sim_with(&pl, pol, 0);
	mixed(s, 40, 50000, 3, all, &over);
	sim_finish(s, &r);
	tap_ok(r.cold == r.fns_invoked && !r.dropped && !over, "%s, budget = whole footprint: "
	       "%llu cold starts = %zu functions invoked (compulsory only)", kind,
	       (unsigned long long)r.cold, r.fns_invoked);
	sim_free(s);
}

static void check_invariants(const char *policy, double budget)
{
	struct plat pl;
	struct sim_result r;
	int over = 0;
	struct sim *s;

	plat_init(&pl, 40, 1);
	s = sim_with(&pl, policy, 0);
	mixed(s, 40, 50000, 9, budget, &over);
	sim_finish(s, &r);
	tap_ok(s && !over && (budget == 0 || r.peak_mem <= budget) && r.cold >= r.fns_invoked &&
	       r.invocations == 50000, "%s: memory never above the budget (peak %.0f MiB), "
	       "%llu cold >= %zu functions, %llu dropped", policy, r.peak_mem / MIB,
	       (unsigned long long)r.cold, r.fns_invoked, (unsigned long long)r.dropped);
	sim_free(s);
}

int main(void)
{
	uint64_t c;

	tap_plan(17);
	check_poisson(1 / 60.0, 60, 200000);
	check_poisson(1 / 60.0, 180, 200000);
	c = periodic_colds(300, 300, 1000);
	tap_ok(c == 1, "period 300 s, TTL 300 s (T = P): %llu cold start (want 1)",
	       (unsigned long long)c);
	c = periodic_colds(300, 600, 1000);
	tap_ok(c == 1, "period 300 s, TTL 600 s: %llu cold start (want 1)", (unsigned long long)c);
	c = periodic_colds(300, 299, 1000);
	tap_ok(c == 1000, "period 300 s, TTL 299 s: %llu cold starts (want all 1000)",
	       (unsigned long long)c);
	check_budget_whole("lru");
	check_budget_whole("gdsf");
	check_invariants("lru:512MiB", 512 * MIB);
	check_invariants("gdsf:512MiB", 512 * MIB);
	check_invariants("lru:200MiB", 200 * MIB);
	check_invariants("gdsf:200MiB", 200 * MIB);
	check_invariants("ttl:10m", 0);
	check_invariants("hybrid", 0);
	check_invariants("predictive:0.01", 0);
	check_invariants("ttl:20", 0);
	return tap_done();
}
