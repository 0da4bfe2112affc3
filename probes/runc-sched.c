// SPDX-License-Identifier: MIT
/*
 * runc-sched.c - the scheduler state of each task of a container start,
 * from sched_switch and sched_wakeup(_new), as intervals of the start
 * (rt_iv, kinds RT_K_*): on a CPU from its switch in to its switch out;
 * runnable from its fork, its wakeup or a switch out while still runnable
 * (preempted) to its switch in; asleep from a switch out in a sleeping
 * state (prev_state S, D, ...) to its wakeup. And the class of each task:
 * of the container's init (it or an ancestor exec'd a program other than
 * the runtime, or was cloned with CLONE_NEW* flags: `runc init` and its
 * nsexec stages, crun's container process) or of the runtime (the rest:
 * the runtime process, its threads, its vfork child until that execs).
 * runc-partition.c turns the states into phases.
 */
#include <stddef.h>
#include <sys/syscall.h>

#include "runc-timeline-local.h"

/*
 * sched_switch's prev_state is the kernel's TASK_REPORT index as a bit:
 * 0 runnable (R), TASK_REPORT_MAX (0x100; 0x800 or more on old kernels)
 * preempted (R+); S 0x1, D 0x2, T 0x4, t 0x8, X 0x10, Z 0x20, P 0x40, I 0x80.
 */
#define STATE_REPORT 0xff
#define STATE_DEAD 0x30

static struct rt_start *start_of(struct builder *b, const struct rt_task *t)
{
	return &b->res->starts[t->start];
}

/* Close @t's current state at @ts (an interval if it lasted) and enter @st. */
static int state_set(struct builder *b, struct rt_task *t, int st, long long ts)
{
	int ret = 0;

	if (t->st == st)
		return 0;
	if (t->st >= 0 && ts > t->st_ts)
		ret = rt_iv_add(start_of(b, t), t->st, t->tid, t->st_ts, ts);
	t->st = st;
	t->st_ts = ts;
	return ret;
}

static int switch_state(unsigned long long prev_state)
{
	if (!(prev_state & STATE_REPORT))
		return RT_K_READY;
	return prev_state & STATE_DEAD ? -1 : RT_K_SLEEP;
}

/**
 * rt_sched_event() - a sched_switch or sched_wakeup of @e: the state
 * changes of the tasks of a start among them (others are ignored).
 * Returns 0 or -ENOMEM.
 */
int rt_sched_event(struct builder *b, const struct rt_event *e)
{
	struct rt_task *prev = NULL, *t;
	int ret = 0;

	if (e->type == RT_SWITCH && (prev = rt_task_find(b, e->tid))) {
		start_of(b, prev)->nevents++;
		ret = state_set(b, prev, switch_state(e->arg0), e->ts);
	}
	t = rt_task_find(b, e->other);
	if (!t || ret)
		return ret;
	if (!prev)
		start_of(b, t)->nevents++;
	if (e->type == RT_SWITCH)
		return state_set(b, t, RT_K_RUN, e->ts);
	return t->st == RT_K_RUN ? 0 : state_set(b, t, RT_K_READY, e->ts);
}

/**
 * rt_sched_fork() - @child, forked by @parent at @ts, is runnable and
 * inherits its class; a child of a clone with CLONE_NEW* flags is of the
 * container's init (crun's container process).
 */
void rt_sched_fork(struct rt_task *child, const struct rt_task *parent, long long ts)
{
	child->parent = parent ? parent->tid : 0;
	child->init = parent && (parent->init ||
				 (parent->nr == SYS_clone && (parent->a0 & RT_NS_FLAGS)));
	child->st = RT_K_READY;
	child->st_ts = ts;
}

/**
 * rt_sched_close() - after the last event: close every task's open state
 * at the end of its start. Returns 0 or -ENOMEM.
 */
int rt_sched_close(struct builder *b)
{
	struct rt_task *t;
	size_t i;
	int ret = 0;

	for (i = 0; i < RT_TASK_SLOTS && !ret; i++) {
		t = &b->tasks[i];
		if (!t->tid)
			continue;
		ret = state_set(b, t, -1, start_of(b, t)->t_end);
	}
	return ret;
}

/**
 * rt_sched_classes() - each on-CPU interval of @s becomes RT_K_RUN_INIT or
 * RT_K_RUN_RUNTIME by its task's class (known only once the task exec'd).
 */
void rt_sched_classes(struct builder *b, struct rt_start *s)
{
	const struct rt_task *t;
	size_t i;

	for (i = 0; i < s->niv; i++) {
		if (s->iv[i].phase != RT_K_RUN)
			continue;
		t = rt_task_find(b, s->iv[i].tid);
		s->iv[i].phase = t && t->init ? RT_K_RUN_INIT : RT_K_RUN_RUNTIME;
	}
}
