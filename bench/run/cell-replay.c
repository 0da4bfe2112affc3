// SPDX-License-Identifier: MIT
/*
 * cell-replay.c - the keep-alive pool of a replay cell (cell-replay.h).
 * Calls are made one at a time, each at its arrival (CLOCK_MONOTONIC,
 * from call 0's): an arrival that finds the instance idle and its TTL not
 * run out is a warm call; otherwise (none kept, or it expired: it is ended
 * at its expiry, idle since the end of its last call plus replay-ttl) a new
 * instance is started and called, timed from its spawn like mode = cold
 * (journalled and recorded after that call, outside its time). A
 * call whose arrival comes while the one before still runs starts when that
 * one ends (counted as overlapped): the pool holds one instance, so calls
 * that overlap are not replayed as the simulator serves them (it would
 * start a second instance).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cell-replay.h"
#include "clock.h"
#include "runner-stop.h"

struct replay {
	struct replay_ops ops;
	long long *at_ns;          /* arrival offsets */
	long n;
	long long t0, ttl_ns, idle_since;
	struct instance in;
	int live, starts;
	long overlapped;
};

/* One schedule line: a non-negative offset in ms, not before @prev. */
static int parse_line(const char *l, long long prev, long long *ns)
{
	char *end;
	double ms = strtod(l, &end);

	while (*end == ' ' || *end == '\t' || *end == '\r' || *end == '\n')
		end++;
	if (end == l || *end || !(ms >= 0) || ms > 1e12)
		return -EINVAL;
	*ns = (long long)(ms * 1e6);
	return *ns < prev ? -ERANGE : 0;
}

static int read_schedule(struct replay *rp, const char *path, long want, char *why, size_t len)
{
	FILE *f = fopen(path, "re");
	char line[256];
	int lineno = 0, ret = 0;

	if (!f) {
		snprintf(why, len, "replay-schedule %s: %s", path, strerror(errno));
		return -errno;
	}
	while (!ret && rp->n < want && fgets(line, sizeof(line), f)) {
		lineno++;
		if (line[0] == '#' || line[0] == '\n')
			continue;
		ret = parse_line(line, rp->n ? rp->at_ns[rp->n - 1] : 0, &rp->at_ns[rp->n]);
		if (ret)
			snprintf(why, len, "%s:%d: %s", path, lineno, ret == -ERANGE ?
				 "an arrival before the one above it" :
				 "want an arrival offset in ms (a number >= 0)");
		else
			rp->n++;
	}
	fclose(f);
	if (!ret && rp->n < want) {
		snprintf(why, len, "%s: %ld arrivals for %ld calls (warmup + invocations)", path,
			 rp->n, want);
		ret = -EINVAL;
	}
	return ret;
}

int replay_open(const struct cell *c, const struct replay_ops *ops, struct replay **out,
		char *why, size_t len)
{
	struct replay *rp = calloc(1, sizeof(*rp));
	long want = (long)c->warmup + c->invocations;
	int ret;

	*out = NULL;
	if (rp)
		rp->at_ns = calloc((size_t)want, sizeof(*rp->at_ns));
	if (!rp || !rp->at_ns) {
		free(rp);
		snprintf(why, len, "out of memory");
		return -ENOMEM;
	}
	rp->ops = *ops;
	rp->ttl_ns = (long long)(c->replay_ttl * 1e9);
	ret = read_schedule(rp, c->replay_schedule, want, why, len);
	if (ret) {
		free(rp->at_ns);
		free(rp);
		return ret;
	}
	*out = rp;
	return 0;
}

static void end_instance(struct replay *rp)
{
	if (!rp->live)
		return;
	rp->ops.close(rp->ops.ctx, &rp->in, rp->starts - 1);
	rp->live = 0;
}

/* Sleep until @t (monotonic ns), ending the idle instance at its expiry on the way. */
static int wait_until(struct replay *rp, long long t)
{
	long long now, until, expiry;
	struct timespec ts;

	while ((now = clock_now_ns()) < t) {
		if (runner_stop)
			return -EINTR;
		expiry = rp->idle_since + rp->ttl_ns;
		if (rp->live && expiry <= now) {
			end_instance(rp);
			continue;
		}
		until = rp->live && expiry < t ? expiry : t;
		if (until - now > 100000000LL)
			until = now + 100000000LL;      /* look at runner_stop every 0.1 s */
		ts.tv_sec = (time_t)((until - now) / 1000000000LL);
		ts.tv_nsec = (long)((until - now) % 1000000000LL);
		nanosleep(&ts, NULL);
	}
	return 0;
}

int replay_wait(struct replay *rp, long seq)
{
	long long arrival;
	int ret;

	if (!seq)
		rp->t0 = clock_now_ns();
	arrival = rp->t0 + rp->at_ns[seq];
	if (seq && clock_now_ns() > arrival)
		rp->overlapped++;          /* the call before ran past this arrival */
	ret = wait_until(rp, arrival);
	return ret;
}

int replay_call(struct replay *rp, long seq, double timeout_s, struct invoke_result *r,
		int *cold, int *idx)
{
	int ret;

	memset(r, 0, sizeof(*r));
	r->latency_ns = r->fn_ns = -1;
	if (rp->live && clock_now_ns() - rp->idle_since > rp->ttl_ns)
		end_instance(rp);
	*cold = !rp->live;
	if (*cold) {
		ret = rp->ops.spawn(rp->ops.ctx, &rp->in, rp->starts);
		if (ret) {
			snprintf(r->error, sizeof(r->error), "%s", rp->in.error);
			return ret;
		}
		rp->live = 1;
		rp->starts++;
	}
	*idx = rp->starts - 1;
	ret = instance_invoke(&rp->in, seq, timeout_s, r);
	if (!ret && *cold)
		r->latency_ns = clock_now_ns() - rp->in.spawn_ns;
	rp->idle_since = clock_now_ns();
	if (*cold && rp->ops.started(rp->ops.ctx, &rp->in, *idx)) {
		end_instance(rp);
		return ret ? ret : -EIO;
	}
	return ret;
}

pid_t replay_pid(const struct replay *rp)
{
	return rp && rp->live ? rp->in.pid : 0;
}

long replay_overlapped(const struct replay *rp)
{
	return rp ? rp->overlapped : 0;
}

void replay_close(struct replay *rp)
{
	if (!rp)
		return;
	end_instance(rp);
	free(rp->at_ns);
	free(rp);
}
