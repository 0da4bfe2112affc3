/* SPDX-License-Identifier: MIT */
/*
 * seed-rows.h - what a backend whose instances fork from a seed stores
 * (results-schema/012-seed.sql, 016-seed-memory.sql): a seed_start row per
 * child's "started" record, seed_memory rows per sample of the live
 * children, and after the calls the planner's layer metrics
 * (docs/capacity.md). One writer for backend zygote (seeds on this host)
 * and backend qemu (seeds in guests, read there by the agent), so the rows
 * mean the same wherever the seed ran.
 */
#ifndef CVMBENCH_SEED_ROWS_H
#define CVMBENCH_SEED_ROWS_H

#include "seed-client.h"
#include "zygote-mem.h"

struct sink;

#define SEED_ROWS_MAX_STARTS 256

/** struct seed_tally - a cell's seed rows so far, for its layer metrics. */
struct seed_tally {
	struct sink *sink;        /* NULL: nothing is stored */
	char layer[8];
	long long seed_pss_kb;    /* the (first) seed alone, once seeded; -1 unknown */
	double start_s[SEED_ROWS_MAX_STARTS];   /* fork + init + first call, s */
	int nstarts;
	long long reported;       /* every "started" record, beyond start_s too */
};

/** seed_tally_init() - an empty tally of a cell at @layer writing to @sink. */
void seed_tally_init(struct seed_tally *t, struct sink *sink, const char *layer);
/** seed_tally_started() - a seed_start row for @s; its start time kept. */
void seed_tally_started(struct seed_tally *t, const struct seed_started *s);
/**
 * seed_tally_memory() - a seed_memory row per child of @kids (@n alive;
 * @called 0 before a fork, 1 after the calls), the seed's PSS @seed_pss_kb
 * beside each; @frames non-zero (seed_mem_sample()'s error): NULL kB on
 * the seed's frames and a note zygote.seed_shared_kb saying why; @why, when
 * not NULL, replaces that text.
 */
void seed_tally_memory(struct seed_tally *t, int called, const struct seed_child_mem *kids,
		       int n, long long seed_pss_kb, int frames, const char *why);
/** seed_tally_metrics() - layer_<L>_mem_kb and layer_<L>_start_s (or a skip). */
void seed_tally_metrics(struct seed_tally *t);

#endif
