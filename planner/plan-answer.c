// SPDX-License-Identifier: MIT
/*
 * plan-answer.c - run a plan's simulations and find its answers
 * (plan-answer.h). Resample r > 0 draws, per platform and function, as
 * many cold and warm latencies as were measured, with replacement, and the
 * per-instance memory as the mean of as many cells drawn with replacement;
 * its generator is seeded by (seed, r, function) alone, so two platforms
 * with the same measurements get the same resample. Every simulation of
 * one (resample, seed) is fed the same arrivals, so a CVM platform and its
 * twin are compared on the same trace.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "plan-answer.h"
#include "sim-feed.h"
#include "stats-rng.h"
#include "stats.h"

/* One platform as the simulator sees it in one resample. */
struct rep_plat {
	double *memw;               /* per workload: bytes of one instance */
	struct sim_dist *cold_w, *warm_w;
	double *buf;                /* the resampled latencies */
	double *mem;                /* per trace function */
	struct sim_dist *cold, *warm;
	struct sim_platform sp;
};

struct answer_run {
	const struct plan_config *c;
	const struct plan_inputs *in;
	struct plan_trace *t;
	const uint32_t *map;
	struct plan_policy pol[PLAN_MAX_LADDER + 2];
	int npol, nbudget;
	struct rep_plat rp[PLAN_MAX_PLATFORMS];
	double *val;                /* [pair][target][rep * seeds][2]: CVM, twin MiB */
	int npair, pair_p[PLAN_MAX_PLATFORMS], pair_q[PLAN_MAX_PLATFORMS];
	size_t nrep;                /* (bootstrap + 1) * seeds */
};

static int policies_make(struct answer_run *ar)
{
	const struct plan_config *c = ar->c;
	char s[64];
	int i, r = 0;

	for (i = 0; i < c->nladder && !r; i++) {
		snprintf(s, sizeof(s), "ttl:%.17g", c->ladder[i]);
		r = plan_policy_parse(s, &ar->pol[ar->npol++]);
	}
	for (i = 0; c->budget > 0 && i < 2 && !r; i++, ar->nbudget++) {
		snprintf(s, sizeof(s), "%s:%.17gMiB", i ? "gdsf" : "lru", c->budget / 1048576);
		r = plan_policy_parse(s, &ar->pol[ar->npol++]);
	}
	return r;
}

/* @n values drawn with replacement from @v into @out (or @v itself for r = 0). */
static void resample(struct stats_rng *g, const double *v, size_t n, double *out)
{
	size_t i;

	for (i = 0; i < n; i++)
		out[i] = g ? v[stats_rng_below(g, n)] : v[i];
}

static double mean_of(struct stats_rng *g, const struct plan_meas *m)
{
	double s = 0;
	size_t i;

	for (i = 0; i < m->nmem; i++)
		s += g ? m->mem_kb[stats_rng_below(g, m->nmem)] : m->mem_kb[i];
	return s / (double)m->nmem;
}

/* Platform @p's measurements as resample @rep into ar->rp[p]. */
static void rep_fill(struct answer_run *ar, int p, int rep)
{
	const struct plan_inputs *in = ar->in;
	struct rep_plat *rp = &ar->rp[p];
	double *b = rp->buf;
	struct stats_rng g;
	size_t f;
	int w;

	for (w = 0; w < in->nwl; w++) {
		const struct plan_meas *m = &in->m[p * in->nwl + w];

		stats_rng_seed(&g, ar->c->seed * 1000003ULL + (uint64_t)rep * 7919ULL + (uint64_t)w);
		rp->memw[w] = mean_of(rep ? &g : NULL, m) * 1024.0;
		resample(rep ? &g : NULL, m->cold, m->ncold, b);
		rp->cold_w[w] = (struct sim_dist){ b, m->ncold };
		b += m->ncold;
		resample(rep ? &g : NULL, m->warm, m->nwarm, b);
		rp->warm_w[w] = (struct sim_dist){ b, m->nwarm };
		b += m->nwarm;
	}
	for (f = 0; f < ar->t->nfn; f++) {
		rp->mem[f] = rp->memw[ar->map[f]];
		rp->cold[f] = rp->cold_w[ar->map[f]];
		rp->warm[f] = rp->warm_w[ar->map[f]];
	}
	rp->sp = (struct sim_platform){ ar->t->nfn, rp->mem, rp->cold, rp->warm };
}

static int rep_alloc(struct answer_run *ar, int p)
{
	const struct plan_inputs *in = ar->in;
	struct rep_plat *rp = &ar->rp[p];
	size_t nfn = ar->t->nfn ? ar->t->nfn : 1, nbuf = 1;
	int w;

	for (w = 0; w < in->nwl; w++)
		nbuf += in->m[p * in->nwl + w].ncold + in->m[p * in->nwl + w].nwarm;
	rp->memw = malloc((size_t)in->nwl * sizeof(double));
	rp->cold_w = malloc((size_t)in->nwl * sizeof(struct sim_dist));
	rp->warm_w = malloc((size_t)in->nwl * sizeof(struct sim_dist));
	rp->buf = malloc(nbuf * sizeof(double));
	rp->mem = malloc(nfn * sizeof(double));
	rp->cold = malloc(nfn * sizeof(struct sim_dist));
	rp->warm = malloc(nfn * sizeof(struct sim_dist));
	return rp->memw && rp->cold_w && rp->warm_w && rp->buf && rp->mem && rp->cold &&
		rp->warm ? 0 : -ENOMEM;
}

static void rep_free(struct rep_plat *rp)
{
	free(rp->memw);
	free(rp->cold_w);
	free(rp->warm_w);
	free(rp->buf);
	free(rp->mem);
	free(rp->cold);
	free(rp->warm);
}

/* A budget must hold the largest instance of every platform. */
static int check_budget(const struct answer_run *ar)
{
	double most = 0;
	int p, w;

	for (p = 0; p < ar->in->nplat; p++)
		for (w = 0; w < ar->in->nwl; w++)
			most = fmax(most, ar->rp[p].memw[w]);
	if (!ar->nbudget || ar->c->budget >= most)
		return 0;
	pr_err("plan: %s: budget %.0f MiB is below one instance (%.0f MiB)", ar->c->path,
	       ar->c->budget / 1048576, most / 1048576);
	return EXIT_USAGE;
}

/*
 * The mean warm memory (MiB) the TTL ladder needs for a cold fraction of
 * at most @target: the first TTL that reaches it, interpolated linearly in
 * the cold fraction from the TTL before; NaN when no TTL reaches it.
 */
static double at_target(const struct sim_result *r, int nladder, double target)
{
	int k;

	for (k = 0; k < nladder; k++) {
		if (r[k].cold_frac > target)
			continue;
		if (!k || r[k - 1].cold_frac <= r[k].cold_frac)
			return r[k].mean_mem / 1048576;
		return (r[k - 1].mean_mem + (r[k].mean_mem - r[k - 1].mean_mem) *
			(r[k - 1].cold_frac - target) / (r[k - 1].cold_frac - r[k].cold_frac)) /
			1048576;
	}
	return NAN;
}

static int point_add(struct plan_answer *a, int p, const struct plan_policy *pol, int budget,
		     uint64_t seed, const struct sim_result *r)
{
	struct plan_point *pt = realloc(a->pts, (a->npts + 1) * sizeof(*pt));

	if (!pt)
		return -ENOMEM;
	a->pts = pt;
	a->pts[a->npts++] = (struct plan_point){ p, *pol, budget, seed, *r };
	return 0;
}

/* Resample @rep, seed index @s: every platform under every policy, one feed. */
static int run_one(struct answer_run *ar, int rep, int s, struct plan_answer *a)
{
	int np = ar->in->nplat, n = 0, i, p, k, r = 0;
	uint64_t seed = ar->c->seed + (uint64_t)s;
	struct sim **sims = calloc((size_t)(np * ar->npol), sizeof(*sims));
	struct sim_result *res = calloc((size_t)(np * ar->npol), sizeof(*res));
	size_t slot = (size_t)rep * (size_t)ar->c->seeds + (size_t)s;

	for (p = 0; p < np && sims && res; p++)
		for (k = 0; k < ar->npol; k++, n++) {
			struct sim_opts o = { ar->pol[k], seed, ar->c->price, ar->t->horizon };

			sims[n] = sim_new(&ar->rp[p].sp, &o);
			if (!sims[n])
				goto out;
		}
	r = !sims || !res ? -ENOMEM : ar->t->is21 ? sim_feed21(&ar->t->t21, sims, (size_t)n)
		: sim_feed19(&ar->t->t19, sims, (size_t)n, SPREAD_POISSON, seed);
	for (i = 0; i < n && !r; i++) {
		r = sim_finish(sims[i], &res[i]);
		if (!r && !rep)
			r = point_add(a, i / ar->npol, &ar->pol[i % ar->npol],
				      i % ar->npol >= ar->npol - ar->nbudget, seed, &res[i]);
	}
	for (i = 0; i < ar->npair * ar->c->ntarget && !r; i++) {
		double *v = &ar->val[((size_t)i * ar->nrep + slot) * 2];
		int nl = ar->npol - ar->nbudget;

		v[0] = at_target(&res[ar->pair_p[i / ar->c->ntarget] * ar->npol], nl,
				 ar->c->target[i % ar->c->ntarget]);
		v[1] = at_target(&res[ar->pair_q[i / ar->c->ntarget] * ar->npol], nl,
				 ar->c->target[i % ar->c->ntarget]);
	}
out:
	if (n < np * ar->npol && !r)
		r = -ENOMEM;
	while (sims && n--)
		sim_free(sims[n]);
	free(sims);
	free(res);
	return r;
}

/* The median of the finite values among @n at stride 2 from @v (NaN: none). */
static double median_finite(const double *v, size_t n, double *tmp)
{
	size_t i, k = 0;

	for (i = 0; i < n; i++)
		if (isfinite(v[2 * i]))
			tmp[k++] = v[2 * i];
	stats_sort(tmp, k);
	return k ? stats_median(tmp, k) : NAN;
}

/* Pair @i's row at target @t from the values of every (resample, seed). */
static int row_make(struct answer_run *ar, int i, int t, struct plan_answer *a)
{
	const double *v = &ar->val[((size_t)i * (size_t)ar->c->ntarget + (size_t)t) * ar->nrep * 2];
	struct plan_target_row *row;
	size_t s, k = 0, nseed = (size_t)ar->c->seeds;
	double *tmp = malloc(ar->nrep * sizeof(double));
	double *d = malloc(ar->nrep * 2 * sizeof(double));

	row = realloc(a->rows, (a->nrows + 1) * sizeof(*row));
	if (!row || !tmp || !d) {
		free(tmp);
		free(d);
		return -ENOMEM;
	}
	a->rows = row;
	row = &a->rows[a->nrows++];
	*row = (struct plan_target_row){ ar->pair_p[i], ar->pair_q[i], ar->c->target[t],
		median_finite(v, nseed, tmp), median_finite(v + 1, nseed, tmp), NAN, NAN, NAN, 0 };
	for (s = 0; s < ar->nrep; s++)
		d[2 * s] = v[2 * s] - v[2 * s + 1];        /* NaN when either is */
	row->extra = median_finite(d, nseed, tmp);
	for (s = 0; s < ar->nrep; s++)
		if (isfinite(d[2 * s]))
			tmp[k++] = d[2 * s];
	stats_sort(tmp, k);
	if (k) {
		row->lo = stats_quantile(tmp, k, 0.025);
		row->hi = stats_quantile(tmp, k, 0.975);
	}
	row->replicates = (int)k;
	free(tmp);
	free(d);
	return 0;
}

static int pairs_make(struct answer_run *ar)
{
	const struct plan_config *c = ar->c;
	int p, q;

	for (p = 0; p < c->nplat; p++)
		for (q = 0; *c->plat[p].twin && q < c->nplat; q++)
			if (!strcmp(c->plat[q].name, c->plat[p].twin)) {
				ar->pair_p[ar->npair] = p;
				ar->pair_q[ar->npair++] = q;
			}
	ar->nrep = (size_t)(c->bootstrap + 1) * (size_t)c->seeds;
	ar->val = malloc(((size_t)(ar->npair * c->ntarget) * ar->nrep * 2 + 1) * sizeof(double));
	return ar->val ? 0 : -ENOMEM;
}

int plan_answer_run(const struct plan_config *c, const struct plan_inputs *in,
		    struct plan_trace *t, const uint32_t *map, struct plan_answer *a)
{
	struct answer_run ar = { .c = c, .in = in, .t = t, .map = map };
	int p, rep, s, i, r;

	memset(a, 0, sizeof(*a));
	r = policies_make(&ar);
	if (r)
		return r;
	for (p = 0; p < in->nplat && !r; p++)
		r = rep_alloc(&ar, p);
	if (!r)
		r = pairs_make(&ar);
	for (p = 0; p < in->nplat && !r; p++)
		rep_fill(&ar, p, 0);
	r = r ? EXIT_FAILED : check_budget(&ar);
	for (rep = 0; rep <= c->bootstrap && !r; rep++) {
		for (p = 0; p < in->nplat; p++)
			rep_fill(&ar, p, rep);
		for (s = 0; s < c->seeds && !r; s++)
			r = run_one(&ar, rep, s, a) ? EXIT_FAILED : 0;
	}
	for (i = 0; i < ar.npair * c->ntarget && !r; i++)
		r = row_make(&ar, i / c->ntarget, i % c->ntarget, a) ? EXIT_FAILED : 0;
	for (p = 0; p < in->nplat; p++)
		rep_free(&ar.rp[p]);
	free(ar.val);
	if (r == EXIT_FAILED)
		pr_err("plan: out of memory");
	return r;
}

void plan_answer_free(struct plan_answer *a)
{
	free(a->pts);
	free(a->rows);
	memset(a, 0, sizeof(*a));
}
