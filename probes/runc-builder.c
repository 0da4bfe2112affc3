// SPDX-License-Identifier: MIT
/*
 * runc-builder.c - the state of one timeline build that runc-timeline.c
 * (events to marks) and runc-sched.c (scheduler states) both write: the
 * table of the tasks of the starts, by thread id (open addressing), and
 * each start's list of intervals (marks and scheduler states).
 */
#include <errno.h>
#include <stdlib.h>

#include "runc-timeline-local.h"

static struct rt_task *task_slot(struct builder *b, int tid, int create)
{
	unsigned int h = ((unsigned int)tid * 2654435761u) % RT_TASK_SLOTS, i;

	if (tid <= 0)             /* idle or interrupt context: no task of ours */
		return NULL;
	for (i = 0; i < RT_TASK_SLOTS; i++, h = (h + 1) % RT_TASK_SLOTS) {
		if (b->tasks[h].tid == tid)
			return &b->tasks[h];
		if (!b->tasks[h].tid)
			return create ? &b->tasks[h] : NULL;
	}
	return NULL;
}

/** rt_task_find() - the task @tid of a start, or NULL. */
struct rt_task *rt_task_find(struct builder *b, int tid)
{
	return task_slot(b, tid, 0);
}

/**
 * rt_task_slot() - the slot of task @tid: its own if it has one, else the
 * free slot where it goes; NULL for @tid <= 0 or a full table.
 */
struct rt_task *rt_task_slot(struct builder *b, int tid)
{
	return task_slot(b, tid, 1);
}

/** rt_iv_add() - an interval of @s (a mark, or a scheduler state). */
int rt_iv_add(struct rt_start *s, int phase, int tid, long long begin, long long end)
{
	if (s->niv == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 16;
		void *p = realloc(s->iv, cap * sizeof(*s->iv));

		if (!p)
			return -ENOMEM;
		s->iv = p;
		s->cap = cap;
	}
	s->iv[s->niv++] = (struct rt_iv){ phase, tid, begin, end };
	return 0;
}
