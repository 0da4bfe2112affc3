// SPDX-License-Identifier: MIT
/*
 * tests/unit/proc-tasks.c - the threads of a process from /proc/PID/task
 * (bench/lib/proc-tasks.c), on this test's own threads, named with
 * pthread_setname_np: all of them, only those whose name has a prefix
 * (regression: the name was read as failed when the read returned its
 * length, so a prefix matched nothing), and a process that is gone.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "proc-tasks.h"
#include "tap.h"

static pthread_barrier_t bar;

static void *idle(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&bar);   /* named */
	pthread_barrier_wait(&bar);   /* counted */
	return NULL;
}

int main(void)
{
	pthread_t th[2];
	pid_t self = getpid(), kid, *tids = NULL;
	size_t n = 0;
	int ret;

	tap_plan(4);
	pthread_barrier_init(&bar, NULL, 3);
	pthread_create(&th[0], NULL, idle, NULL);
	pthread_create(&th[1], NULL, idle, NULL);
	pthread_setname_np(th[0], "CPU 0/KVM");
	pthread_setname_np(th[1], "worker");
	pthread_barrier_wait(&bar);
	ret = proc_tasks(&self, 1, NULL, &tids, &n);
	tap_ok(!ret && n == 3, "all three threads of this process (%zu)", n);
	free(tids);
	ret = proc_tasks(&self, 1, "CPU ", &tids, &n);
	tap_ok(!ret && n == 1, "one thread whose name starts with \"CPU \" (%zu)", n);
	free(tids);
	pthread_barrier_wait(&bar);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	kid = fork();
	if (kid == 0)
		_exit(0);
	waitpid(kid, NULL, 0);
	ret = proc_tasks(&kid, 1, NULL, &tids, &n);
	tap_ok(ret == -ESRCH && n == 0 && !tids, "a process that is gone: -ESRCH, no list");
	ret = proc_tasks(&self, 1, NULL, &tids, &n);
	tap_ok(!ret && n == 1 && tids[0] == (pid_t)syscall(SYS_gettid),
	       "after the threads ended: the main thread only");
	free(tids);
	return tap_done();
}
