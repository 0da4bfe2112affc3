// SPDX-License-Identifier: MIT
/*
 * sim-evict.c - what goes when a budget is full (sim-local.h): the least
 * recently used idle instance (lru, and every policy given a budget), or
 * under gdsf the idle instance of lowest priority clock + frequency x
 * cold-start cost / size (FaasCache, ASPLOS 2021), the clock then rising to
 * the priority evicted. A busy instance is never evicted; when the idle
 * ones together cannot make room, none is evicted and the caller drops.
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>

#include "sim-local.h"

void lru_unlink(struct sim *s, uint32_t i)
{
	struct inst *p = &s->in[i];

	if (p->prev != NIL)
		s->in[p->prev].next = p->next;
	else if (s->lru_head == i)
		s->lru_head = p->next;
	else
		return;                   /* not in the list */
	if (p->next != NIL)
		s->in[p->next].prev = p->prev;
	else
		s->lru_tail = p->prev;
	p->prev = p->next = NIL;
}

void lru_append(struct sim *s, uint32_t i)
{
	struct inst *p = &s->in[i];

	p->next = NIL;
	p->prev = s->lru_tail;
	if (s->lru_tail != NIL)
		s->in[s->lru_tail].next = i;
	else
		s->lru_head = i;
	s->lru_tail = i;
}

static int prio_put(struct sim *s, struct prio_ent e)
{
	if (heap_push(&s->ph, &e, sizeof(e))) {
		s->oom = 1;
		return -ENOMEM;
	}
	return 0;
}

/* Stale entries pile up (one per invocation): rebuild from the loaded instances. */
static void prio_compact(struct sim *s)
{
	uint32_t i;

	s->ph.n = 0;
	for (i = 0; i < s->nin; i++)
		if (s->in[i].state == INST_LOADED)
			prio_put(s, (struct prio_ent){ s->in[i].prio, i, ++s->in[i].pgen });
}

int prio_push(struct sim *s, uint32_t i)
{
	if (s->ph.n > 4 * s->nloaded + 1024)
		prio_compact(s);
	return prio_put(s, (struct prio_ent){ s->in[i].prio, i, ++s->in[i].pgen });
}

void inst_release(struct sim *s, uint32_t i)
{
	struct inst *p = &s->in[i];
	struct fnst *F = &s->fn[p->fn];
	uint32_t *link = &F->first;
	int head = F->first == i;

	if (p->state == INST_LOADED) {
		mem_add(s, -s->plat.mem[p->fn]);
		s->nloaded--;
		if (s->o.policy.budget > 0)
			lru_unlink(s, i);
	}
	while (*link != i)
		link = &s->in[*link].fnext;
	*link = p->fnext;
	if (!--F->ninst)
		F->freq = 0;
	p->state = INST_FREE;
	p->gen++;
	p->pgen++;
	p->timer_at = INFINITY;
	p->fnext = s->freelist;
	s->freelist = i;
	if (head)
		head_sync(s, p->fn);
}

/* Whether the idle loaded instances hold @need bytes beyond the budget's room. */
static int idle_enough(const struct sim *s, double need)
{
	double over = s->mem + need - s->o.policy.budget, idle = 0;
	uint32_t i;

	for (i = s->lru_head; i != NIL && idle < over; i = s->in[i].next)
		if (s->in[i].busy_until <= s->now)
			idle += s->plat.mem[s->in[i].fn];
	return idle >= over;
}

static uint32_t lru_victim(const struct sim *s)
{
	uint32_t i;

	for (i = s->lru_head; i != NIL; i = s->in[i].next)
		if (s->in[i].busy_until <= s->now)
			return i;
	return NIL;
}

/* The idle instance of lowest priority; busy ones met on the way go back. */
static uint32_t gdsf_victim(struct sim *s)
{
	struct prio_ent busy[64];
	size_t nbusy = 0, k;
	uint32_t v = NIL;

	while (s->ph.n && v == NIL) {
		struct prio_ent e;
		const struct inst *p;

		heap_pop(&s->ph, &e, sizeof(e));
		p = &s->in[e.inst];
		if (e.gen != p->pgen || p->state != INST_LOADED)
			continue;
		if (p->busy_until > s->now) {
			if (nbusy == 64) {      /* many busy at the bottom: LRU below */
				prio_put(s, e);
				break;
			}
			busy[nbusy++] = e;
			continue;
		}
		v = e.inst;
		s->clock = e.prio;
	}
	for (k = 0; k < nbusy; k++)
		prio_put(s, busy[k]);
	return v != NIL ? v : lru_victim(s);
}

int sim_make_room(struct sim *s, double need)
{
	if (!idle_enough(s, need))
		return -ENOSPC;
	while (s->mem + need > s->o.policy.budget) {
		uint32_t v = s->o.policy.kind == POLICY_GDSF ? gdsf_victim(s) : lru_victim(s);

		if (v == NIL)
			return -ENOSPC;
		inst_release(s, v);
	}
	return 0;
}
