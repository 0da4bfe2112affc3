// SPDX-License-Identifier: MIT
/*
 * sim.c - the warm-pool simulator's core (sim.h): instances, the timer heap
 * and the memory integral. An instance has one live timer at most: when a
 * warm hit pushes its end later, the old timer fires, finds the new end and
 * is pushed again - so a busy function costs no heap work per invocation
 * (the reason the fixed-TTL case runs at tens of millions a second).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sim-local.h"

void head_sync(struct sim *s, uint32_t f)
{
	uint32_t i = s->fn[f].first;

	s->fn[f].head_busy = i != NIL && s->in[i].state == INST_LOADED ?
		s->in[i].busy_until : INFINITY;
	s->fn[f].head_timer = i != NIL ? s->in[i].timer_at : INFINITY;
}

/* After instance @i's state or busy_until changed: its function's mirror. */
static void head_changed(struct sim *s, uint32_t i)
{
	if (s->fn[s->in[i].fn].first == i)
		head_sync(s, s->in[i].fn);
}

static void timer_at_set(struct sim *s, uint32_t i, double when)
{
	s->in[i].timer_at = when;
	if (s->fn[s->in[i].fn].first == i)
		s->fn[s->in[i].fn].head_timer = when;
}

void mem_add(struct sim *s, double delta)
{
	s->mem_s += s->mem * (s->now - s->mem_t);
	s->mem_t = s->now;
	s->mem += delta;
	if (s->mem > s->peak)
		s->peak = s->mem;
}

int timer_push(struct sim *s, uint32_t i, double when)
{
	struct timer e = { when, i, ++s->in[i].gen };

	timer_at_set(s, i, when);
	if (isinf(when))
		return 0;
	if (heap_push(&s->tm, &e, sizeof(e))) {
		s->oom = 1;           /* a lost timer would keep an instance forever */
		return -ENOMEM;
	}
	return 0;
}

/* A loaded instance's timer: still busy, unload for the pre-warm gap, or go. */
static void timer_loaded(struct sim *s, uint32_t i)
{
	struct inst *p = &s->in[i];
	double end = p->busy_until, load_at = end + p->pw;

	if (s->now < end) {
		timer_push(s, i, end);
	} else if (p->pw > 0 && s->now < load_at) {
		mem_add(s, -s->plat.mem[p->fn]);
		if (s->o.policy.budget > 0)
			lru_unlink(s, i);
		s->nloaded--;
		p->state = INST_UNLOADED;
		head_changed(s, i);
		timer_push(s, i, load_at);
	} else if (s->now < load_at + p->ka) {
		timer_push(s, i, load_at + p->ka);
	} else {
		inst_release(s, i);
	}
}

/* An unloaded instance's timer: pre-warm it (if the budget has room) or let it go. */
static void timer_unloaded(struct sim *s, uint32_t i)
{
	struct inst *p = &s->in[i];
	double load_at = p->busy_until + p->pw, m = s->plat.mem[p->fn];

	if (s->now < load_at) {
		timer_push(s, i, load_at);
		return;
	}
	if (s->now >= load_at + p->ka ||
	    (s->o.policy.budget > 0 && s->mem + m > s->o.policy.budget && sim_make_room(s, m))) {
		inst_release(s, i);
		return;
	}
	mem_add(s, m);
	p->state = INST_LOADED;
	head_changed(s, i);
	s->nloaded++;
	if (s->o.policy.budget > 0)
		lru_append(s, i);
	timer_push(s, i, load_at + p->ka);
}

/*
 * Run every timer due before @t; the clock is then @t. An instance whose
 * keep-alive ends exactly at @t still serves an arrival at @t.
 */
void sim_advance(struct sim *s, double t)
{
	while (s->tm.n && heap_top_key(&s->tm) < t) {
		struct timer e;

		heap_pop(&s->tm, &e, sizeof(e));
		if (e.gen != s->in[e.inst].gen)
			continue;             /* replaced by a later push */
		s->now = e.when;
		timer_at_set(s, e.inst, INFINITY);
		if (s->in[e.inst].state == INST_LOADED)
			timer_loaded(s, e.inst);
		else
			timer_unloaded(s, e.inst);
	}
	s->now = t;
}

static double draw(struct sim *s, const struct sim_dist *d)
{
	return d->n == 1 ? d->v[0] : d->v[stats_rng_below(&s->rng, d->n)];
}

/* A new instance of @f, loaded; NIL when out of memory. */
static uint32_t inst_new(struct sim *s, uint32_t f)
{
	uint32_t i = s->freelist;
	struct inst *p;

	if (i != NIL) {
		s->freelist = s->in[i].fnext;
	} else {
		if (s->nin == s->capin) {
			uint32_t cap = s->capin ? 2 * s->capin : 1024;
			struct inst *n = realloc(s->in, cap * sizeof(*n));

			if (!n)
				return NIL;
			s->in = n;
			s->capin = cap;
		}
		i = s->nin++;
		s->in[i].gen = s->in[i].pgen = 0;
	}
	p = &s->in[i];
	p->fn = f;
	p->state = INST_UNLOADED;
	p->timer_at = INFINITY;
	p->prev = p->next = NIL;
	p->fnext = s->fn[f].first;
	s->fn[f].first = i;
	s->fn[f].ninst++;
	head_sync(s, f);
	s->created++;
	return i;
}

/* Load @i (new or unloaded) for a cold start; its memory is already free. */
static void inst_load(struct sim *s, uint32_t i)
{
	s->in[i].state = INST_LOADED;
	head_changed(s, i);
	s->nloaded++;
	mem_add(s, s->plat.mem[s->in[i].fn]);
	if (s->o.policy.budget > 0)
		lru_append(s, i);
}

/*
 * An idle loaded instance of @f (or NIL), and an unloaded one in *@unl:
 * the first of its list, the idle first instance seen from the mirror.
 */
static uint32_t find_idle(const struct sim *s, uint32_t f, double t, uint32_t *unl)
{
	uint32_t i;

	*unl = NIL;
	if (s->fn[f].head_busy <= t)
		return s->fn[f].first;
	for (i = s->fn[f].first; i != NIL; i = s->in[i].fnext) {
		if (s->in[i].state == INST_LOADED && s->in[i].busy_until <= t)
			return i;
		if (s->in[i].state == INST_UNLOADED && *unl == NIL)
			*unl = i;
	}
	return NIL;
}

/* A cold start of @f: an instance to load, or NIL (dropped: no room). */
static uint32_t cold_start(struct sim *s, uint32_t f, uint32_t unl)
{
	double m = s->plat.mem[f];

	if (s->o.policy.budget > 0 && s->mem + m > s->o.policy.budget && sim_make_room(s, m))
		return NIL;
	if (unl == NIL)
		unl = inst_new(s, f);
	if (unl != NIL)
		inst_load(s, unl);
	return unl;
}

/* After serving: the instance's window, its place in the eviction orders, its timer. */
static void served(struct sim *s, uint32_t f, uint32_t i, double end)
{
	struct inst *p = &s->in[i];
	struct fnst *F = &s->fn[f];
	double pw = F->pw, ka = F->ka, next = pw > 0 ? end : end + ka;
	double due = F->first == i ? F->head_timer : p->timer_at;

	/* the first instance's record is only written: nothing below reads it back */
	p->busy_until = end;
	if (F->first == i)
		F->head_busy = end;
	p->pw = pw;
	p->ka = ka;
	if (s->o.policy.budget > 0) {
		lru_unlink(s, i);
		lru_append(s, i);
		if (s->o.policy.kind == POLICY_GDSF) {
			p->prio = s->clock + (double)F->freq * s->cost[f] /
				(s->plat.mem[f] / 1073741824.0);
			prio_push(s, i);
		}
	}
	if (next < due)
		timer_push(s, i, next);
}

void sim_prefetch(const struct sim *s, uint32_t f)
{
	__builtin_prefetch(&s->fn[f], 1);
}

void sim_arrive(struct sim *s, uint32_t f, double t, double exec)
{
	uint32_t i, unl;
	double lat;

	if (s->tm.n && heap_top_key(&s->tm) < t)
		sim_advance(s, t);
	else
		s->now = t;       /* no timer due: what sim_advance() would do */
	s->inv++;
	if (!s->seen[f]) {
		s->seen[f] = 1;
		s->nseen++;
	}
	i = find_idle(s, f, t, &unl);
	sim_window(s, f, t);
	s->fn[f].freq++;
	if (i != NIL) {
		lat = draw(s, &s->plat.warm[f]) + exec;
	} else {
		i = cold_start(s, f, unl);
		if (i == NIL) {
			s->dropped++;
			return;
		}
		s->cold++;
		lat = draw(s, &s->plat.cold[f]) + exec;
	}
	s->busy_s += s->plat.mem[f] * lat;
	lat_hist_add(&s->lat, lat);
	s->fn[f].last_end = t + lat;
	served(s, f, i, t + lat);
}
