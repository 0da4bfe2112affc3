/* SPDX-License-Identifier: MIT */
/*
 * run-plan.h - the run a `cvmbench run` writes into (new, or continued by
 * --resume / --only) and which cells of the config it measures.
 */
#ifndef CVMBENCH_RUN_PLAN_H
#define CVMBENCH_RUN_PLAN_H

#include <stddef.h>
#include <stdint.h>

#include "run-status.h"

struct db;
struct config;
struct cell;
struct runner_opts;

struct run_plan {
	int64_t run_id;           /* > 0: continue this run; 0: begin a new one */
	size_t n;                 /* cells of the config */
	unsigned char *matrix;    /* per cell: of the run's matrix */
	unsigned char *todo;      /* per cell: measured now */
	unsigned char *state;     /* per cell: its current row's status (run-plan.c) */
	size_t nmatrix, ntodo;
	char shard[32];           /* "I/N" of --shard, or "" */
	char *only;               /* a new run's --only keys ("a,b"), or NULL */
};

int run_plan_make(struct db *db, const struct runner_opts *o, const struct config *cfg,
		  const struct cell *cells, size_t n, struct run_plan *p);
int run_plan_tally(struct db *db, int64_t run_id, struct run_plan *p,
		   const struct cell *cells, struct run_tally *t);
void run_plan_free(struct run_plan *p);
int run_plan_in_shard(const struct runner_opts *o, const struct cell *c);

#endif
