// SPDX-License-Identifier: MIT
/*
 * runc-partition.c - the setup of a container start (from the fork t0 to
 * the entry of the container program's execve) cut into phases: every
 * instant goes to exactly one phase, by the first of these rules that
 * applies to it (docs/probes/runc.md):
 *
 *   1. a mark covers it: seccomp, pivot-root, netns, namespaces, cgroup,
 *      mounts, state - the first of these in this order;
 *   2. a task of the container's init is on a CPU: init-start before the
 *      first mark of an init task, else init;
 *   3. a task of the runtime is on a CPU: runtime-exec before the first
 *      traced system call after the runtime's exec, runtime-start before
 *      the first mark or init's exec, else runtime;
 *   4. a task of the start is runnable but not on a CPU: sched-wait;
 *   5. a task waits for a kernel lock (contention_begin .. _end): lock-wait;
 *   6. a task is asleep (switched out sleeping, not yet woken): blocked;
 *   7. nothing is known of its tasks at that instant: other.
 *
 * One sweep over the sorted edges of all intervals, with a count of the
 * open intervals of each kind: O(n log n) in the intervals.
 */
#include <errno.h>
#include <stdlib.h>

#include "runc-timeline-local.h"

/* Rule 1, in order. */
static const int mark_order[] = { RT_SECCOMP, RT_PIVOT_ROOT, RT_NETNS, RT_NAMESPACES,
				  RT_CGROUP, RT_MOUNTS, RT_STATE };

struct edge {
	long long ts;
	int kind;                 /* phase or RT_K_*; -1: a boundary only */
	int delta;
};

struct cut {
	struct rt_bounds bd;
	long open[RT_K_COUNT];
};

/**
 * rt_phase_add() - [@from, @to) of @s to @phase (nothing if empty).
 */
void rt_phase_add(struct rt_start *s, int phase, long long from, long long to)
{
	if (to <= from)
		return;
	if (s->phase_first[phase] < 0 || from < s->phase_first[phase])
		s->phase_first[phase] = from;
	s->phase_ns[phase] += to - from;
}

/* The phase of an instant at @at with the intervals open in @c (rules 1-7). */
static int classify(const struct cut *c, long long at)
{
	size_t i;

	for (i = 0; i < sizeof(mark_order) / sizeof(mark_order[0]); i++)
		if (c->open[mark_order[i]] > 0)
			return mark_order[i];
	if (c->open[RT_K_RUN_INIT] > 0)
		return at < c->bd.init_mark ? RT_INIT_START : RT_INIT;
	if (c->open[RT_K_RUN_RUNTIME] > 0)
		return at < c->bd.runtime_exec_end ? RT_RUNTIME_EXEC :
		       at < c->bd.runtime_end ? RT_RUNTIME_START : RT_RUNTIME;
	if (c->open[RT_K_READY] > 0)
		return RT_SCHED_WAIT;
	if (c->open[RT_K_LOCK] > 0)
		return RT_LOCK_WAIT;
	return c->open[RT_K_SLEEP] > 0 ? RT_BLOCKED : RT_OTHER;
}

static int cmp_edge(const void *a, const void *b)
{
	const struct edge *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

static long long clamp(long long v, long long lo, long long hi)
{
	return v < lo ? lo : v > hi ? hi : v;
}

/* The edges of the intervals of @s inside [t0, @end), and the three bounds. */
static size_t edges_fill(const struct rt_start *s, long long end, const struct cut *c,
			 struct edge *e)
{
	long long lo, hi;
	size_t i, n = 0;

	e[n++] = (struct edge){ clamp(c->bd.runtime_exec_end, s->t0, end), -1, 0 };
	e[n++] = (struct edge){ clamp(c->bd.runtime_end, s->t0, end), -1, 0 };
	e[n++] = (struct edge){ clamp(c->bd.init_mark, s->t0, end), -1, 0 };
	for (i = 0; i < s->niv; i++) {
		lo = clamp(s->iv[i].begin, s->t0, end);
		hi = clamp(s->iv[i].end, s->t0, end);
		if (hi <= lo || s->iv[i].phase < 0 || s->iv[i].phase >= RT_K_COUNT)
			continue;
		e[n++] = (struct edge){ lo, s->iv[i].phase, 1 };
		e[n++] = (struct edge){ hi, s->iv[i].phase, -1 };
	}
	return n;
}

/**
 * rt_partition() - every instant of [t0, @end) of @s to one phase (see the
 * top of this file); @bd bounds runtime-exec, runtime-start and init-start.
 * The on-CPU intervals must be resolved to their class (rt_sched_classes()).
 * Returns 0 or -ENOMEM.
 */
int rt_partition(struct rt_start *s, long long end, const struct rt_bounds *bd)
{
	struct cut c = { .bd = *bd };
	struct edge *e = malloc((2 * s->niv + 3) * sizeof(*e));
	long long cur = s->t0;
	size_t n, i;

	if (!e)
		return -ENOMEM;
	n = edges_fill(s, end, &c, e);
	qsort(e, n, sizeof(*e), cmp_edge);
	for (i = 0; i < n; i++) {
		if (e[i].ts > cur) {
			rt_phase_add(s, classify(&c, cur), cur, e[i].ts);
			cur = e[i].ts;
		}
		if (e[i].kind >= 0)
			c.open[e[i].kind] += e[i].delta;
	}
	if (end > cur)
		rt_phase_add(s, classify(&c, cur), cur, end);
	free(e);
	return 0;
}
