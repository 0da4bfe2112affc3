/* SPDX-License-Identifier: MIT */
/*
 * sim.h - the discrete-event simulator of a warm pool: invocations arrive
 * in time order (sim_arrive()), each is served by an idle warm instance of
 * its function or starts a new one (a cold start: concurrent invocations of
 * one function start more instances); the policy (plan-policy.h) decides
 * how long an idle instance stays, and under a budget which one goes. The
 * budget is never exceeded: an invocation that cannot fit even after every
 * idle instance is gone is dropped (counted). Cold and warm latencies are
 * drawn from per-function samples with a seed.
 */
#ifndef CVMBENCH_SIM_H
#define CVMBENCH_SIM_H

#include <stddef.h>
#include <stdint.h>

#include "plan-policy.h"

/* A latency distribution: its samples (s), drawn with equal chance. */
struct sim_dist {
	const double *v;
	size_t n;
};

/* One platform as the simulator sees it, per trace function. */
struct sim_platform {
	size_t nfn;
	const double *mem;            /* bytes of one warm instance of each function */
	const struct sim_dist *cold;  /* cold latency (start + first call) of each */
	const struct sim_dist *warm;  /* warm latency of each */
};

struct sim_opts {
	struct plan_policy policy;
	uint64_t seed;
	double price;                 /* $ per GiB-second of memory */
	double horizon;               /* end of the trace (s) */
};

struct sim_result {
	uint64_t invocations, cold, dropped, instances;
	size_t fns_invoked;
	double cold_frac, p50, p99;   /* p50/p99 over served invocations (s) */
	double mean_mem, peak_mem;    /* bytes held by instances (busy or idle) */
	double idle_gib_s;            /* GiB-seconds of idle warm memory */
	double cost;                  /* idle_gib_s * price */
};

struct sim;

/** sim_new() - a simulator of @plat under @o; NULL when out of memory. */
struct sim *sim_new(const struct sim_platform *plat, const struct sim_opts *o);
/**
 * sim_arrive() - one invocation of function @fn at @t (s, not before the
 * one before) that executes for @exec seconds beyond the platform's latency.
 */
void sim_arrive(struct sim *s, uint32_t fn, double t, double exec);
/**
 * sim_prefetch() - a hint that an arrival of @fn comes soon: its record is
 * fetched into the cache meanwhile (a feed that knows the arrivals ahead
 * calls it some arrivals early). Changes no result.
 */
void sim_prefetch(const struct sim *s, uint32_t fn);
/**
 * sim_finish() - run the timers to the horizon, fill *@r. 0, or -ENOMEM
 * when a timer or priority could not be kept on the way (the results void).
 */
int sim_finish(struct sim *s, struct sim_result *r);
/** sim_mem_now() - bytes held now (for the invariant tests). */
double sim_mem_now(const struct sim *s);
void sim_free(struct sim *s);

#endif
