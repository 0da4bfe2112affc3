/* SPDX-License-Identifier: MIT */
/*
 * replay-check.h - a live replay against the simulator (replay-check.c):
 * each replayed function's cell read back from the database, and the
 * simulator run on the same arrivals, TTL and measured latencies.
 */
#ifndef CVMBENCH_REPLAY_CHECK_H
#define CVMBENCH_REPLAY_CHECK_H

#include <stddef.h>
#include <stdint.h>

#include "replay-plan.h"

/* One function: what the live cell did and what the simulator predicts. */
struct replay_row {
	int64_t cell_id;
	char status[16];
	long calls, calls_ok, live_cold, overlapped;
	long sim_cold;            /* -1: not simulated (no measured call) */
	double live_p50_ms, sim_p50_ms;
	double live_lo_ms, live_hi_ms;   /* 95 % interval of the live median (-1: none) */
};

/**
 * replay_check() - for each function of @s (experiment replay-I of run
 * @run_id of @db) its row into @rows (s->n of them): the live cold starts
 * (invocation start = cold), calls, late calls, and the simulator's cold
 * starts under ttl @ttl_s (compressed) on the same arrivals, drawing cold
 * and warm latencies from the cell's own measured ones (seed @seed).
 * 0, or EXIT_USAGE / EXIT_FAILED after saying why.
 */
int replay_check(const char *db, int64_t run_id, const struct replay_set *s, double ttl_s,
		 uint64_t seed, struct replay_row *rows);

/** replay_newest_run() - the newest run of @db (the replay's child run), or <= 0. */
int64_t replay_newest_run(const char *db);

#endif
