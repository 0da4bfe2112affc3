/* SPDX-License-Identifier: MIT */
/*
 * sim-feed.h - a trace into simulators, in time order. The 2019 trace's
 * per-minute counts are spread within their minute: as a Poisson process
 * (the default: given its count, a Poisson process's arrivals in a minute
 * are independent uniform times) or evenly ((k + 1/2) / count of the
 * minute), seeded. Several simulators (policies) get the same arrivals.
 */
#ifndef CVMBENCH_SIM_FEED_H
#define CVMBENCH_SIM_FEED_H

#include <stddef.h>
#include <stdint.h>

#include "sim.h"
#include "trace-azure19.h"
#include "trace-azure21.h"

enum sim_spread { SPREAD_POISSON, SPREAD_UNIFORM };

/** sim_feed19() - every invocation of @t into each of @sims; 0 or -ENOMEM. */
int sim_feed19(const struct trace19 *t, struct sim *const *sims, size_t nsim,
	       enum sim_spread spread, uint64_t seed);
/** sim_feed21() - every invocation of @t (its own times) into each of @sims. */
int sim_feed21(struct trace21 *t, struct sim *const *sims, size_t nsim);

#endif
