// SPDX-License-Identifier: MIT
/*
 * tpcount-abab.c - interleaved counter-off / counter-on rounds (tpcount-abab.h).
 * A round times only its getpid calls: opening, enabling, reading and
 * closing the counters, the count's check and all bookkeeping are outside
 * it (tpcount_cost_event with one repetition).
 */
#include <errno.h>

#include "tpcount-abab.h"
#include "stats.h"
#include "tpcount-cost.h"

struct rounds {
	double on[TPCOUNT_ABAB_MAX_PAIRS], off[TPCOUNT_ABAB_MAX_PAIRS], rd[TPCOUNT_ABAB_MAX_PAIRS];
};

/* ns per call of @calls getpid calls, no counter open. */
static double off_round(long calls)
{
	return tpcount_cost_calls(calls, 1, NULL, NULL, NULL, NULL);
}

/* The pairs: pair i has off first when i is even, on first when odd. */
static int run_pairs(const struct tpcount_spec *spec, unsigned int flags, long calls,
		     int pairs, struct rounds *s, char *why, size_t whylen)
{
	int i, ret = 0;

	for (i = 0; !ret && i < pairs; i++) {
		if (i % 2 == 0)
			s->off[i] = off_round(calls);
		ret = tpcount_cost_event(spec, flags, calls, 1, &s->on[i], &s->rd[i], why, whylen);
		if (i % 2)
			s->off[i] = off_round(calls);
	}
	return ret;
}

static double median_of(double *v, int n)
{
	stats_sort(v, (size_t)n);
	return stats_median(v, (size_t)n);
}

int tpcount_abab_run(const struct tpcount_spec *spec, unsigned int flags, long calls, int pairs,
		   struct tpcount_abab *r, char *why, size_t whylen)
{
	static struct rounds s;   /* 24 KB: not on the stack */
	int ret;

	if (pairs < 1 || pairs > TPCOUNT_ABAB_MAX_PAIRS)
		return -EINVAL;
	ret = run_pairs(spec, flags, calls, pairs, &s, why, whylen);
	if (ret)
		return ret;
	ret = stats_paired_median(s.on, s.off, (size_t)pairs, 0.95, &r->cost);
	r->on_ns = median_of(s.on, pairs);      /* after the pairs were used */
	r->rd_ns = median_of(s.rd, pairs);
	return ret == -EDOM ? 0 : ret;    /* few pairs: [min, max], its coverage printed */
}
