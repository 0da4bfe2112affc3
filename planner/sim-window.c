// SPDX-License-Identifier: MIT
/*
 * sim-window.c - how long each policy keeps an idle instance (sim-local.h):
 * the window (pre-warm gap pw, keep-alive ka) a function's instances take
 * after each of its invocations.
 *   ttl         pw 0, ka = the TTL
 *   lru, gdsf   pw 0, ka infinite (only the budget evicts)
 *   hybrid      ATC 2020: a histogram of the function's idle times (end of
 *               one invocation to the start of the next) in 1-minute bins
 *               over RANGE; pw = 0.9 x the 5th percentile, ka = 1.1 x the
 *               99th - pw. Fewer than 10 idle times, more than half out of
 *               range, or bins with a coefficient of variation below 2 (not
 *               representative): pw 0, ka = RANGE (the TTL fallback;
 *               the paper's ARIMA for out-of-range times is not built)
 *   predictive  Reducio-style: the rate is a Poisson estimate lambda = S /
 *               tau, S the count of invocations decayed with tau = 1 h; an
 *               idle instance saves lambda x (cold - warm latency) x VALUE
 *               $ a second and costs mem x price: kept while the first is
 *               larger, so ka = tau ln(S (cold - warm) VALUE / (tau mem price))
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sim-local.h"

#define PRED_TAU 3600.0
#define HYB_MIN_SAMPLES 10

int sim_window_init(struct sim *s)
{
	const struct plan_policy *p = &s->o.policy;
	double ka = p->kind == POLICY_TTL ? p->param : p->kind == POLICY_HYBRID ? p->param :
		p->kind == POLICY_PREDICTIVE ? 0 : INFINITY;
	size_t f;

	for (f = 0; f < s->plat.nfn; f++) {
		s->fn[f].pw = 0;
		s->fn[f].ka = ka;
		s->fn[f].last_end = -1;
	}
	if (p->kind != POLICY_HYBRID)
		return 0;
	s->nbins = (unsigned)ceil(p->param / 60);
	if (s->nbins < 1)
		s->nbins = 1;
	s->hist = calloc(s->plat.nfn * s->nbins + 1, sizeof(*s->hist));
	return s->hist ? 0 : -ENOMEM;
}

/* The first bin where the running count reaches @q of @n. */
static unsigned hist_pct(const uint32_t *h, unsigned nbins, uint32_t n, double q)
{
	uint64_t want = (uint64_t)ceil(q * n), seen = 0;
	unsigned b;

	for (b = 0; b < nbins; b++) {
		seen += h[b];
		if (seen >= want && seen)
			return b;
	}
	return nbins - 1;
}

static double hist_cv(const uint32_t *h, unsigned nbins, uint32_t n)
{
	double mean = (double)n / nbins, var = 0;
	unsigned b;

	for (b = 0; b < nbins; b++)
		var += (h[b] - mean) * (h[b] - mean);
	return mean > 0 ? sqrt(var / nbins) / mean : 0;
}

static void hybrid_windows(struct sim *s, struct fnst *F, const struct fnpol *P,
			   const uint32_t *h)
{
	uint32_t n = P->hist_n + P->oob;
	double head, tail;

	F->pw = 0;
	F->ka = s->o.policy.param;
	if (n < HYB_MIN_SAMPLES || P->oob * 2 > n || hist_cv(h, s->nbins, P->hist_n) < 2)
		return;
	head = 60.0 * hist_pct(h, s->nbins, P->hist_n, 0.05);
	tail = 60.0 * (hist_pct(h, s->nbins, P->hist_n, 0.99) + 1);
	F->pw = 0.9 * head;
	F->ka = 1.1 * tail - F->pw;
}

static void hybrid(struct sim *s, uint32_t f, double t)
{
	struct fnst *F = &s->fn[f];
	struct fnpol *P = &s->pol[f];
	uint32_t *h = s->hist + (size_t)f * s->nbins;
	double it;

	if (F->last_end < 0)
		return;
	it = t > F->last_end ? t - F->last_end : 0;
	if (it / 60 < s->nbins) {
		h[(unsigned)(it / 60)]++;
		P->hist_n++;
	} else {
		P->oob++;
	}
	/* the percentiles move slowly: recomputed after 1/64 more samples */
	if (++P->since * 64 >= P->hist_n + P->oob || P->hist_n + P->oob < 2 * HYB_MIN_SAMPLES) {
		P->since = 0;
		hybrid_windows(s, F, P, h);
	}
}

static void predictive(struct sim *s, uint32_t f, double t)
{
	struct fnpol *P = &s->pol[f];
	double gib = s->plat.mem[f] / 1073741824.0, x;

	P->S = P->S * exp(-(t - P->tl) / PRED_TAU) + 1;
	P->tl = t;
	x = P->S * s->cost[f] * s->o.policy.param / (PRED_TAU * gib * s->o.price);
	s->fn[f].ka = x > 1 ? PRED_TAU * log(x) : 0;
}

void sim_window(struct sim *s, uint32_t f, double t)
{
	if (s->o.policy.kind == POLICY_HYBRID)
		hybrid(s, f, t);
	else if (s->o.policy.kind == POLICY_PREDICTIVE)
		predictive(s, f, t);
}
