/* SPDX-License-Identifier: MIT */
/*
 * cell-replay.h - a replay cell (key replay-schedule, cell-replay.c): its
 * calls arrive at the times of a schedule and are served by a keep-alive
 * pool under a TTL (replay-ttl), as the capacity planner's simulator
 * serves them (planner/sim.c, policy ttl).
 */
#ifndef CVMBENCH_CELL_REPLAY_H
#define CVMBENCH_CELL_REPLAY_H

#include <stddef.h>

#include "cell.h"
#include "instance.h"

/*
 * What the replay needs of the cell around it: start an instance (handshake
 * done: 0 or -errno with the cell failed), journal and record it after its
 * first call (outside the time that call is timed over; 0 or -errno, then
 * it is ended), and end one.
 */
struct replay_ops {
	int (*spawn)(void *ctx, struct instance *in, int idx);
	int (*started)(void *ctx, struct instance *in, int idx);
	void (*close)(void *ctx, struct instance *in, int idx);
	void *ctx;
};

struct replay;

/**
 * replay_open() - the schedule of @c (replay-schedule: one arrival offset
 * in ms per line, ascending; '#' lines are comments) for @c's warmup +
 * invocations calls. 0, or -EINVAL / -errno with @why naming the file and
 * line.
 */
int replay_open(const struct cell *c, const struct replay_ops *ops, struct replay **out,
		char *why, size_t len);
/**
 * replay_wait() - wait for the arrival of call @seq (the schedule's offset
 * after call 0's), ending the idle instance at its TTL's end on the way:
 * before the call's windows open. 0 or -EINTR.
 */
int replay_wait(struct replay *rp, long seq);
/**
 * replay_call() - call @seq (after replay_wait()): end the idle instance if
 * its TTL ran out, call the warm one or start one (a cold start: @r->latency_ns from its spawn, as
 * mode = cold times it). *@cold says which, *@idx the instance (a count of
 * starts). 0 or -errno.
 */
int replay_call(struct replay *rp, long seq, double timeout_s, struct invoke_result *r,
		int *cold, int *idx);
/** replay_pid() - the live instance's pid (for the probes), or 0. */
pid_t replay_pid(const struct replay *rp);
/** replay_overlapped() - calls that arrived while the one before still ran. */
long replay_overlapped(const struct replay *rp);
/** replay_close() - end the instance still kept, free @rp. */
void replay_close(struct replay *rp);

#endif
