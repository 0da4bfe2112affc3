/* SPDX-License-Identifier: MIT */
/*
 * sampler.h - a thread that calls a function every interval until it is
 * stopped (the memory probes' time series). Stopping wakes it at once.
 */
#ifndef CVMBENCH_SAMPLER_H
#define CVMBENCH_SAMPLER_H

#include <pthread.h>

struct sampler {
	pthread_t thread;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	int running, stop;
	long long interval_ns;
	void (*fn)(void *arg);
	void *arg;
};

/** sampler_start() - call @fn(@arg) every @interval_s seconds from a thread. 0 or -errno. */
int sampler_start(struct sampler *s, double interval_s, void (*fn)(void *), void *arg);
/** sampler_stop() - stop and join the thread (no-op if not running). */
void sampler_stop(struct sampler *s);

#endif
