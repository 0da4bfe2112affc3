// SPDX-License-Identifier: MIT
/*
 * tpcount-shape.c - the cost per event of counting as the vmexit probe
 * counts, from paired rounds (tpcount-shape.h).
 */
#include <sys/syscall.h>

#include "tpcount-abab.h"
#include "tpcount-shape.h"

#define SHAPE_CALLS 20000
#define SHAPE_PAIRS 11
#define SHAPE_VALUES 256
#define CACHE 8

/* Counters of this shape on this thread: @k values of `id`, getpid's first. */
static int measure(enum tpcount_method m, size_t k, struct tpcount_shape_cost *c, char *why,
		   size_t whylen)
{
	static unsigned long long v[SHAPE_VALUES + 1];
	struct tpcount_spec spec = { "raw_syscalls", "sys_enter", "id", NULL, v, k, NULL };
	/* bpf: as the vmexit probe counts (by process, "isa == N" as "id != 0", the rest) */
	unsigned int flags = m == TPCOUNT_BPF ? TPCOUNT_TGID | TPCOUNT_REST :
			     m == TPCOUNT_TRACE_STREAM ? TPCOUNT_STREAM : TPCOUNT_PERF_M;
	struct tpcount_abab r;
	size_t i;
	int ret;

	if (k > SHAPE_VALUES)
		k = SHAPE_VALUES; /* a perf counter's cost grows linearly: a floor */
	v[0] = SYS_getpid;
	for (i = 1; i < k; i++)
		v[i] = 1000 + i;  /* no system call has these */
	spec.nvalues = k;
	if (m == TPCOUNT_BPF) {
		spec.extra = "id != 0";
		spec.nvalues = k + 1;     /* the rest: its value is not used */
	}
	ret = tpcount_abab_run(&spec, flags, m == TPCOUNT_TRACE_STREAM ? SHAPE_CALLS / 8 :
			       SHAPE_CALLS, SHAPE_PAIRS, &r, why, whylen);
	if (ret)
		return ret;
	/* a stream's reader pays its share too: the read's ns per event on top */
	c->ns = r.cost.median + r.rd_ns;
	c->lo = r.cost.lo + r.rd_ns;
	c->hi = r.cost.hi + r.rd_ns;
	c->coverage = r.cost.coverage;
	c->pairs = r.cost.n;
	c->resolved = r.cost.resolved;
	return 0;
}

int tpcount_shape_cost(enum tpcount_method m, size_t k, struct tpcount_shape_cost *c,
		       char *why, size_t whylen)
{
	static struct { enum tpcount_method m; size_t k; struct tpcount_shape_cost c; } cache[CACHE];
	static int ncache;
	int i, ret;

	for (i = 0; i < ncache; i++)
		if (cache[i].m == m && cache[i].k == k) {
			*c = cache[i].c;
			return 0;
		}
	ret = measure(m, k, c, why, whylen);
	if (!ret && ncache < CACHE) {
		cache[ncache].m = m;
		cache[ncache].k = k;
		cache[ncache++].c = *c;
	}
	return ret;
}
