// SPDX-License-Identifier: MIT
/*
 * sampler.c - a periodic sampling thread (sampler.h). Sleeps on a
 * condition variable with an absolute CLOCK_MONOTONIC deadline, so that
 * the period does not drift by the time each sample takes.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "sampler.h"

static void *sampler_main(void *arg)
{
	struct sampler *s = arg;
	long long next = clock_now_ns();
	struct timespec ts;

	pthread_mutex_lock(&s->mu);
	while (!s->stop) {
		next += s->interval_ns;
		ts.tv_sec = next / 1000000000LL;
		ts.tv_nsec = next % 1000000000LL;
		while (!s->stop && pthread_cond_timedwait(&s->cv, &s->mu, &ts) != ETIMEDOUT)
			;
		if (s->stop)
			break;
		pthread_mutex_unlock(&s->mu);
		s->fn(s->arg);
		pthread_mutex_lock(&s->mu);
		if (clock_now_ns() > next + s->interval_ns)
			next = clock_now_ns();   /* fell behind: do not catch up in a burst */
	}
	pthread_mutex_unlock(&s->mu);
	return NULL;
}

int sampler_start(struct sampler *s, double interval_s, void (*fn)(void *), void *arg)
{
	pthread_condattr_t ca;
	int ret;

	memset(s, 0, sizeof(*s));
	if (!(interval_s >= 0.001))
		return -EINVAL;           /* never a busy loop */
	s->interval_ns = (long long)(interval_s * 1e9);
	s->fn = fn;
	s->arg = arg;
	pthread_mutex_init(&s->mu, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&s->cv, &ca);
	pthread_condattr_destroy(&ca);
	ret = pthread_create(&s->thread, NULL, sampler_main, s);
	if (ret)
		return -ret;
	s->running = 1;
	return 0;
}

void sampler_stop(struct sampler *s)
{
	if (!s->running)
		return;
	pthread_mutex_lock(&s->mu);
	s->stop = 1;
	pthread_cond_signal(&s->cv);
	pthread_mutex_unlock(&s->mu);
	pthread_join(s->thread, NULL);
	pthread_cond_destroy(&s->cv);
	pthread_mutex_destroy(&s->mu);
	s->running = 0;
}
