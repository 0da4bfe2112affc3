// SPDX-License-Identifier: MIT
/*
 * call-timer.c - the watchdog behind call-timer.h. Shared state is atomics
 * only, so arming and disarming are plain memory writes; the one system
 * call on the caller's side is a futex wake when the watchdog sleeps past
 * the new call's deadline (after a pause, or a call with a longer timeout). SIGALRM is installed without
 * SA_RESTART so that it ends the read with EINTR; the watchdog repeats it
 * every few milliseconds until the read is left, in case the first one
 * arrived just before the read began.
 */
#include <errno.h>
#include <linux/futex.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "call-timer.h"
#include "clock.h"

#define REFIRE_NS 5000000LL
#define PARK_S 1

static _Atomic long long wd_deadline, wd_until;
static _Atomic unsigned long wd_gen, wd_fired;
static _Atomic int wd_in, wd_parked, wd_ok = -1;
static pthread_t wd_caller;
static pthread_once_t wd_once = PTHREAD_ONCE_INIT;

static void sleep_until(long long t)
{
	struct timespec ts = { t / 1000000000LL, t % 1000000000LL };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

/*
 * Sleep until @until, or until a call is armed whose deadline is earlier
 * (call_timer_arm() wakes the watchdog then, and only then: calls that
 * follow each other have later deadlines and cost no wake-up).
 */
static void nap(unsigned long gen, long long until)
{
	long long left = until - clock_now_ns();
	struct timespec ts = { left / 1000000000LL, left % 1000000000LL };

	if (left <= 0)
		return;
	atomic_store(&wd_until, until);
	atomic_store(&wd_parked, 1);
	if (atomic_load(&wd_gen) == gen)
		syscall(SYS_futex, &wd_parked, FUTEX_WAIT_PRIVATE, 1, &ts, NULL, 0);
	atomic_store(&wd_parked, 0);
}

static void *watchdog(void *arg)
{
	unsigned long gen;
	long long d, now;

	(void)arg;
	for (;;) {
		gen = atomic_load(&wd_gen);
		d = atomic_load(&wd_deadline);
		now = clock_now_ns();
		if (atomic_load(&wd_in) && now >= d) {
			if (atomic_load(&wd_gen) == gen && atomic_load(&wd_in)) {
				atomic_store(&wd_fired, gen);
				pthread_kill(wd_caller, SIGALRM);
			}
			sleep_until(now + REFIRE_NS);
		} else if (d > now) {
			nap(gen, d);          /* this call's deadline, or an earlier one's */
		} else {
			nap(gen, now + PARK_S * 1000000000LL);   /* nothing to watch */
		}
	}
	return NULL;
}

static void on_alarm(int sig)
{
	(void)sig;
}

static void start(void)
{
	struct sigaction sa = { .sa_handler = on_alarm };   /* no SA_RESTART */
	sigset_t all, old;
	pthread_attr_t attr;
	pthread_t t;
	int ret;

	sigemptyset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	/* the watchdog takes no signal meant for the process */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pthread_attr_init(&attr);
	pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&attr, 64 * 1024);
	ret = pthread_create(&t, &attr, watchdog, NULL);
	pthread_attr_destroy(&attr);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	atomic_store(&wd_ok, ret == 0);
}

unsigned long call_timer_arm(long long deadline_ns)
{
	unsigned long gen;

	pthread_once(&wd_once, start);
	if (!atomic_load(&wd_ok))
		return 0;
	wd_caller = pthread_self();
	atomic_store(&wd_deadline, deadline_ns);
	gen = atomic_fetch_add(&wd_gen, 1) + 1;
	atomic_store(&wd_in, 1);
	if (atomic_load(&wd_parked) && deadline_ns < atomic_load(&wd_until) &&
	    atomic_exchange(&wd_parked, 0))
		syscall(SYS_futex, &wd_parked, FUTEX_WAKE_PRIVATE, 1, NULL, NULL, 0);
	return gen;
}

int call_timer_disarm(unsigned long gen)
{
	atomic_store(&wd_in, 0);
	return gen && atomic_load(&wd_fired) == gen;
}
