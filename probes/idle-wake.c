// SPDX-License-Identifier: MIT
/*
 * idle-wake.c - the check that power:cpu_idle events fire on every CPU
 * before they are used to count idle entries: one thread pinned to each
 * CPU sleeps 5 ms at a time, so the CPU goes idle, while the per-CPU event
 * counts are read every 20 ms, for at most a second.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "idle-wake.h"

struct sleeper {
	pthread_t tid;
	int cpu;
	volatile int *stop;
};

static void *sleep_on_cpu(void *arg)
{
	struct sleeper *s = arg;
	struct timespec ts = { 0, 5 * 1000 * 1000 };
	cpu_set_t one;

	CPU_ZERO(&one);
	CPU_SET(s->cpu, &one);
	sched_setaffinity(0, sizeof(one), &one);
	while (!*s->stop)
		nanosleep(&ts, NULL);
	return NULL;
}

static int all_fired(const uint64_t *a, const uint64_t *b, int n, uint64_t *seen)
{
	int i, all = 1;

	for (i = 0; i < n; i++) {
		seen[i] = b[i] - a[i];
		all &= seen[i] > 0;
	}
	return all;
}

/* Count until every CPU fired or @timeout_ms passed; 1 if all fired. */
static int watch(int n, idle_wake_count_fn count, void *ctx, int timeout_ms,
		 uint64_t *a, uint64_t *b, uint64_t *seen)
{
	struct timespec tick = { 0, 20 * 1000 * 1000 };
	int waited;

	for (waited = 0; waited < timeout_ms; waited += 20) {
		nanosleep(&tick, NULL);
		count(ctx, b);
		if (all_fired(a, b, n, seen))
			return 1;
	}
	return 0;
}

int idle_wake_check(const int *cpus, int n, idle_wake_count_fn count, void *ctx,
		    int timeout_ms, uint64_t *seen)
{
	uint64_t *a = calloc((size_t)n, sizeof(*a)), *b = calloc((size_t)n, sizeof(*b));
	struct sleeper *s = calloc((size_t)n, sizeof(*s));
	volatile int stop = 0;
	int i, started = 0, ret = -ENOMEM;

	if (!a || !b || !s)
		goto out;
	count(ctx, a);
	for (i = 0; i < n; i++) {
		s[i] = (struct sleeper){ .cpu = cpus[i], .stop = &stop };
		if (pthread_create(&s[i].tid, NULL, sleep_on_cpu, &s[i]))
			break;
		started++;
	}
	ret = started < n ? -EAGAIN : watch(n, count, ctx, timeout_ms, a, b, seen);
	stop = 1;
	for (i = 0; i < started; i++)
		pthread_join(s[i].tid, NULL);
out:
	free(a);
	free(b);
	free(s);
	return ret;
}

int idle_wake_verdict(const int *cpus, const uint64_t *seen, int n, int timeout_ms,
		      char *why, size_t len)
{
	size_t used;
	int i, all = 1;

	for (i = 0; i < n; i++)
		all &= seen[i] > 0;
	why[0] = '\0';
	if (all)
		return 1;
	used = (size_t)snprintf(why, len, "power:cpu_idle does not fire on every CPU: "
				"with a sleeper pinned to each CPU for %d ms it fired",
				timeout_ms);
	for (i = 0; i < n && used < len; i++)
		used += (size_t)snprintf(why + used, len - used, "%s %llu time%s on cpu%d",
					 i ? (i == n - 1 ? " and" : ",") : "",
					 (unsigned long long)seen[i], seen[i] == 1 ? "" : "s",
					 cpus[i]);
	if (used < len)
		snprintf(why + used, len - used, ", so it cannot count idle entries");
	return 0;
}
