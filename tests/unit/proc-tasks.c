// SPDX-License-Identifier: MIT
/*
 * tests/unit/proc-tasks.c - the threads of a process from /proc/PID/task
 * (lib/proc-tasks.c), on this test's own threads, named with
 * pthread_setname_np: all of them, only those whose name has a prefix
 * (regression: the name was read as failed when the read returned its
 * length, so a prefix matched nothing), and a process that is gone.
 * proc_task_of() (the pin knob's check of QMP's vCPU thread ids): a thread
 * of this process is one of its threads; a child's thread, a gone thread
 * and 0 are not; a gone process is -ESRCH.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
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

	tap_plan(9);
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
	tap_ok(n == 1 && proc_task_of(self, tids[0]) == 1, "\"CPU 0/KVM\" is a thread of "
	       "this process");
	free(tids);
	pthread_barrier_wait(&bar);
	pthread_join(th[0], NULL);
	pthread_join(th[1], NULL);
	kid = fork();
	if (kid == 0)
		_exit(0);
	waitpid(kid, NULL, 0);
	tap_ok(proc_task_of(self, kid) == 0, "a gone child's thread id is not one of ours");
	tap_ok(proc_task_of(self, 0) == 0, "0 is not a thread of this process");
	tap_ok(proc_task_of(kid, kid) == -ESRCH, "a gone process: -ESRCH");
	ret = proc_tasks(&kid, 1, NULL, &tids, &n);
	tap_ok(ret == -ESRCH && n == 0 && !tids, "a process that is gone: -ESRCH, no list");
	ret = proc_tasks(&self, 1, NULL, &tids, &n);
	tap_ok(!ret && n == 1 && tids[0] == (pid_t)syscall(SYS_gettid),
	       "after the threads ended: the main thread only");
	free(tids);
	kid = fork();
	if (kid == 0) {
		pause();
		_exit(0);
	}
	tap_ok(kid > 0 && proc_task_of(self, kid) == 0 && proc_task_of(kid, kid) == 1,
	       "a running child's thread is its own, not this process's");
	if (kid > 0) {
		kill(kid, SIGKILL);
		waitpid(kid, NULL, 0);
	}
	return tap_done();
}
