// SPDX-License-Identifier: MIT
/*
 * sim-run.c - making a simulator and reading its results (sim.h): the
 * per-function cold-start cost, the time-weighted memory, the idle share.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim-local.h"

static double dist_mean(const struct sim_dist *d)
{
	double sum = 0;
	size_t i;

	for (i = 0; i < d->n; i++)
		sum += d->v[i];
	return d->n ? sum / (double)d->n : 0;
}

struct sim *sim_new(const struct sim_platform *plat, const struct sim_opts *o)
{
	struct sim *s = calloc(1, sizeof(*s));
	size_t f;

	if (!s)
		return NULL;
	s->plat = *plat;
	s->o = *o;
	s->freelist = s->lru_head = s->lru_tail = NIL;
	stats_rng_seed(&s->rng, o->seed);
	s->fn = aligned_alloc(64, (plat->nfn ? plat->nfn : 1) * sizeof(*s->fn));
	if (s->fn)
		memset(s->fn, 0, (plat->nfn ? plat->nfn : 1) * sizeof(*s->fn));
	s->pol = calloc(plat->nfn ? plat->nfn : 1, sizeof(*s->pol));
	s->cost = calloc(plat->nfn ? plat->nfn : 1, sizeof(*s->cost));
	s->seen = calloc(plat->nfn ? plat->nfn : 1, 1);
	if (!s->fn || !s->pol || !s->cost || !s->seen || sim_window_init(s)) {
		sim_free(s);
		return NULL;
	}
	for (f = 0; f < plat->nfn; f++) {
		double c = dist_mean(&plat->cold[f]) - dist_mean(&plat->warm[f]);

		s->cost[f] = c > 0 ? c : 0;
		s->fn[f].first = NIL;
		s->fn[f].head_busy = s->fn[f].head_timer = INFINITY;
	}
	return s;
}

double sim_mem_now(const struct sim *s)
{
	return s->mem;
}

/* Take off the busy time past the horizon of instances still serving. */
static void clip_busy(struct sim *s, double horizon)
{
	uint32_t i;

	for (i = 0; i < s->nin; i++)
		if (s->in[i].state == INST_LOADED && s->in[i].busy_until > horizon)
			s->busy_s -= s->plat.mem[s->in[i].fn] * (s->in[i].busy_until - horizon);
}

int sim_finish(struct sim *s, struct sim_result *r)
{
	double horizon = s->o.horizon > s->now ? s->o.horizon : s->now;

	/* timers due by the horizon, then the integral up to it */
	sim_advance(s, horizon);
	mem_add(s, 0);
	clip_busy(s, horizon);
	memset(r, 0, sizeof(*r));
	r->invocations = s->inv;
	r->cold = s->cold;
	r->dropped = s->dropped;
	r->instances = s->created;
	r->fns_invoked = s->nseen;
	r->cold_frac = s->inv ? (double)s->cold / (double)s->inv : NAN;
	r->p50 = lat_hist_quantile(&s->lat, 0.50);
	r->p99 = lat_hist_quantile(&s->lat, 0.99);
	r->mean_mem = horizon > 0 ? s->mem_s / horizon : 0;
	r->peak_mem = s->peak;
	r->idle_gib_s = (s->mem_s - s->busy_s) / 1073741824.0;
	if (r->idle_gib_s < 0)
		r->idle_gib_s = 0;
	r->cost = r->idle_gib_s * s->o.price;
	return s->oom ? -ENOMEM : 0;
}

void sim_free(struct sim *s)
{
	if (!s)
		return;
	free(s->in);
	free(s->fn);
	free(s->pol);
	free(s->hist);
	heap_free(&s->tm);
	heap_free(&s->ph);
	free(s->cost);
	free(s->seen);
	free(s);
}
