// SPDX-License-Identifier: MIT
/*
 * tpcount-cost.c - the counting engine's cost per event, measured on the
 * calling thread with getpid calls (tpcount-cost.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "clock.h"
#include "tpcount-cost.h"

#define MAX_REPS 15

static double now_ns(void)
{
	return (double)clock_now_ns();
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

double tpcount_cost_median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), cmp_d);
	return v[n / 2];
}

double tpcount_cost_calls(long calls, int reps, struct tpcount *tc, struct tpcount_snap *s,
			  double *rd_ns, int *ret)
{
	double r[MAX_REPS], t0;
	long i;
	int k;

	reps = reps < 1 ? 1 : reps > MAX_REPS ? MAX_REPS : reps;
	for (k = 0; k < reps; k++) {
		t0 = now_ns();
		for (i = 0; i < calls; i++)
			syscall(SYS_getpid);
		r[k] = (now_ns() - t0) / (double)calls;
		if (!tc || *ret)
			continue;
		t0 = now_ns();
		*ret = tpcount_read(tc, s);
		*rd_ns += now_ns() - t0;
	}
	return tpcount_cost_median(r, reps);
}

/* Counted all @want calls in @a..@b, none lost? Else -EIO with the reason. */
static int check_count(struct tpcount *tc, const struct tpcount_snap *a,
		       const struct tpcount_snap *b, uint64_t want, char *why, size_t whylen)
{
	uint64_t got = tpcount_diff(tc, a, b, 0, -1);

	if (got >= want && !b->lost)
		return 0;
	snprintf(why, whylen, "%s counted %llu of %llu getpid calls (%llu lost)",
		 tpcount_method_name(tpcount_method(tc)), (unsigned long long)got,
		 (unsigned long long)want, (unsigned long long)b->lost);
	return -EIO;
}

int tpcount_cost_event(const struct tpcount_spec *spec, unsigned int flags, long calls,
		       int reps, double *ns, double *rd_ns, char *why, size_t whylen)
{
	pid_t self = flags & TPCOUNT_TGID ? getpid() : (pid_t)syscall(SYS_gettid);
	struct tpcount *tc;
	struct tpcount_snap a, b;
	double rd = 0;
	int ret = tpcount_open(&tc, spec, &self, 1, flags, why, whylen);

	if (ret)
		return ret;
	ret = tpcount_snap_init(tc, &a) ?: tpcount_snap_init(tc, &b) ?: tpcount_enable(tc) ?:
	      tpcount_read(tc, &a);
	if (!ret)
		*ns = tpcount_cost_calls(calls, reps, tc, &b, &rd, &ret);
	ret = ret ?: check_count(tc, &a, &b, (uint64_t)(calls * reps), why, whylen);
	*rd_ns = rd / (double)(calls * reps);
	tpcount_snap_free(&a);
	tpcount_snap_free(&b);
	tpcount_close(tc);
	return ret;
}
