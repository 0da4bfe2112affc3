/* SPDX-License-Identifier: MIT */
/*
 * sim-local.h - the simulator's inside (sim.c, sim-evict.c, sim-window.c):
 * instances, the timer heap, the eviction orders and the per-function
 * state of the policies.
 */
#ifndef CVMBENCH_SIM_LOCAL_H
#define CVMBENCH_SIM_LOCAL_H

#include "heap.h"
#include "lat-hist.h"
#include "sim.h"
#include "stats-rng.h"

#define NIL UINT32_MAX

enum inst_state { INST_FREE, INST_LOADED, INST_UNLOADED };

/*
 * An instance's life after its last request ends at busy_until: unloaded
 * for pw seconds (hybrid pre-warm; 0 for the others), then loaded for ka
 * seconds (infinite under lru and gdsf), then gone.
 */
struct inst {
	double busy_until, pw, ka;
	double timer_at;              /* when its live timer fires (INFINITY: none) */
	double prio;                  /* gdsf */
	uint32_t fn, state, gen, pgen;
	uint32_t prev, next;          /* LRU list of loaded instances */
	uint32_t fnext;               /* the function's list of instances */
};

/* heap entries (heap.h): the key first */
struct timer {
	double when;
	uint32_t inst, gen;
};

struct prio_ent {
	double prio;
	uint32_t inst, gen;
};

/*
 * Per function, what an arrival reads: its instances and the window its
 * policy chose, in one cache line. head_busy mirrors the first instance's
 * busy_until while it is loaded (INFINITY otherwise or without instances),
 * head_timer its timer_at: an arrival served by an idle first instance,
 * the common case, is decided here without loading the instance's record
 * (a cache miss per arrival in a big trace; the record is only written).
 */
struct fnst {
	double head_busy, head_timer;
	uint32_t first;               /* list through inst.fnext */
	uint32_t ninst;
	uint64_t freq;                /* gdsf: invocations while it had instances */
	double last_end;              /* hybrid: end of its last invocation (-1: none) */
	double pw, ka;                /* the window its policy chose last */
} __attribute__((aligned(64)));

/* Per function, what the hybrid and predictive policies remember (sim-window.c). */
struct fnpol {
	double S, tl;                 /* predictive: decayed count, its time */
	uint32_t hist_n, oob, since;  /* hybrid: samples in and out of range */
};

struct sim {
	struct sim_platform plat;
	struct sim_opts o;
	struct stats_rng rng;
	struct inst *in;
	uint32_t nin, capin, freelist;
	struct fnst *fn;              /* 64-byte aligned */
	struct fnpol *pol;
	uint32_t *hist;               /* hybrid: nfn rows of nbins */
	unsigned nbins;
	struct heap tm;               /* struct timer, on when */
	int oom;                      /* a heap could not grow: the results are void */
	struct heap ph;               /* gdsf: struct prio_ent, on prio */
	size_t nloaded;
	double clock;                 /* gdsf */
	uint32_t lru_head, lru_tail;
	double now, mem, mem_t, peak, mem_s, busy_s;
	double *cost;                 /* per function: mean cold - mean warm (s) */
	struct lat_hist lat;
	uint64_t inv, cold, dropped, created;
	uint8_t *seen;
	size_t nseen;
};

/* sim-evict.c */
void lru_unlink(struct sim *s, uint32_t i);
void lru_append(struct sim *s, uint32_t i);
int prio_push(struct sim *s, uint32_t i);
/* Free enough idle memory for @need more bytes; -ENOSPC when it cannot. */
int sim_make_room(struct sim *s, double need);
void inst_release(struct sim *s, uint32_t i);

/* sim-window.c */
/* The window (pw, ka) of function @f after an invocation at @t. */
void sim_window(struct sim *s, uint32_t f, double t);
int sim_window_init(struct sim *s);

/* sim.c */
/* Set s->fn[@f]'s mirror of its first instance (after the list or its state changed). */
void head_sync(struct sim *s, uint32_t f);
void mem_add(struct sim *s, double delta);
int timer_push(struct sim *s, uint32_t i, double when);
void sim_advance(struct sim *s, double t);

#endif
