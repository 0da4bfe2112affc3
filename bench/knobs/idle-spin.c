// SPDX-License-Identifier: MIT
/*
 * idle-spin.c - `idle = spin`: one busy thread per CPU at SCHED_IDLE, the
 * lowest scheduling class, pinned to its CPU. Any runnable task preempts
 * it, so the function still gets the CPU at once, but the CPU never runs
 * the idle task: no HLT, no idle exit, no wake-up from idle. The threads
 * live in the harness process, so they end with it (nothing to journal).
 * Whether the CPUs stayed busy is checked from /proc/stat idle time.
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "idle-spin.h"

#define SPIN_MAX_CPUS CPU_SETSIZE

static struct {
	pthread_t tid[SPIN_MAX_CPUS];
	int cpu[SPIN_MAX_CPUS];
	int n;
	volatile int stop;
	int failed;               /* errno of a spinner that could not start */
	int ready;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	unsigned long long idle0; /* idle ticks of the spun CPUs at start */
	double t0;
} spin = { .lock = PTHREAD_MUTEX_INITIALIZER, .cond = PTHREAD_COND_INITIALIZER };

static void *spinner(void *arg)
{
	struct sched_param sp = { 0 };
	cpu_set_t one;
	int cpu = *(int *)arg, err = 0;

	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof(one), &one) ||
	    sched_setscheduler(0, SCHED_IDLE, &sp))
		err = errno;
	pthread_mutex_lock(&spin.lock);
	spin.ready++;
	if (err && !spin.failed)
		spin.failed = err;
	pthread_cond_signal(&spin.cond);
	pthread_mutex_unlock(&spin.lock);
	while (!err && !spin.stop)
		__builtin_ia32_pause();
	return NULL;
}

/* Idle + iowait ticks of the spun CPUs, from /proc/stat. */
static unsigned long long idle_ticks(void)
{
	unsigned long long v[5], sum = 0;
	char line[512];
	FILE *f = fopen("/proc/stat", "re");
	int cpu, i;

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu", &cpu, &v[0], &v[1],
			   &v[2], &v[3], &v[4]) == 6)
			for (i = 0; i < spin.n; i++)
				if (spin.cpu[i] == cpu)
					sum += v[3] + v[4];
	fclose(f);
	return sum;
}

static double now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int start_threads(char *why, size_t len)
{
	int i, err;

	for (i = 0; i < spin.n; i++) {
		err = pthread_create(&spin.tid[i], NULL, spinner, &spin.cpu[i]);
		if (err) {
			spin.n = i;
			snprintf(why, len, "idle = spin: cannot start a spinner thread: %s",
				 strerror(err));
			return -err;
		}
	}
	pthread_mutex_lock(&spin.lock);
	while (spin.ready < spin.n)
		pthread_cond_wait(&spin.cond, &spin.lock);
	pthread_mutex_unlock(&spin.lock);
	if (spin.failed) {
		snprintf(why, len, "idle = spin: cannot pin a spinner or make it "
			 "SCHED_IDLE: %s", strerror(spin.failed));
		return -spin.failed;
	}
	return 0;
}

int idle_spin_start(char *why, size_t len)
{
	cpu_set_t set;
	int c, ret;

	spin.n = spin.ready = spin.failed = 0;
	spin.stop = 0;
	if (sched_getaffinity(0, sizeof(set), &set)) {
		snprintf(why, len, "idle = spin: sched_getaffinity: %s", strerror(errno));
		return -errno;
	}
	for (c = 0; c < SPIN_MAX_CPUS; c++)
		if (CPU_ISSET(c, &set))
			spin.cpu[spin.n++] = c;
	ret = start_threads(why, len);
	if (ret) {
		idle_spin_stop();
		return ret;
	}
	spin.idle0 = idle_ticks();
	spin.t0 = now_s();
	return spin.n;
}

int idle_spin_held(char *why, size_t len)
{
	long hz = sysconf(_SC_CLK_TCK);
	double window = now_s() - spin.t0, idle;

	if (!spin.n)
		return 0;
	idle = (double)(idle_ticks() - spin.idle0) / (double)(hz > 0 ? hz : 100);
	if (idle <= 0.05 * window * spin.n + 2.0 / (hz > 0 ? hz : 100))
		return 0;
	snprintf(why, len, "idle = spin did not hold: the %d spun CPUs were idle "
		 "%.2f s of %.2f s (something kept the spinners off them)",
		 spin.n, idle, window * spin.n);
	return -EAGAIN;
}

void idle_spin_stop(void)
{
	int i;

	spin.stop = 1;
	for (i = 0; i < spin.n; i++)
		pthread_join(spin.tid[i], NULL);
	spin.n = 0;
}
