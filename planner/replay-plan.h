/* SPDX-License-Identifier: MIT */
/*
 * replay-plan.h - `cvmbench replay`'s plan of a live replay (replay-plan.c):
 * from a 2019-format trace, each trace function's arrivals (spread evenly
 * in their minute, as the simulator's uniform spread), compressed in time,
 * its workload (plan-map.c's rule or a map file), written as one replay
 * cell per function (a schedule file each, one config for all).
 */
#ifndef CVMBENCH_REPLAY_PLAN_H
#define CVMBENCH_REPLAY_PLAN_H

#include <stddef.h>

/* One trace function replayed: its arrivals (compressed s, from its first). */
struct replay_fn {
	char name[160];           /* the trace's HashOwner/HashApp/HashFunction */
	char workload[48];
	double *at;               /* arrival offsets (s) */
	size_t n;
	char schedule[4096];      /* its schedule file */
};

struct replay_args {
	const char *trace, *map, *workloads, *backend, *size, *dir;
	double ttl, compress, max_seconds;
	size_t max_functions;
};

struct replay_set {
	struct replay_fn *fn;
	size_t n;
	double span;              /* sum of the functions' replay spans (s) */
	char config[4096];        /* the config written */
};

/**
 * replay_plan_make() - read @a's trace, map and compress it, check the
 * span against max_seconds, write the schedules and the config into
 * a->dir. Returns 0 or EXIT_USAGE / EXIT_FAILED after saying why.
 */
int replay_plan_make(const struct replay_args *a, struct replay_set *s);
/** replay_plan_free() - free @s. */
void replay_plan_free(struct replay_set *s);

#endif
