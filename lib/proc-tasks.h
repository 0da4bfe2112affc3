/* SPDX-License-Identifier: MIT */
/*
 * proc-tasks.h - the threads of processes, from /proc/PID/task, with
 * their names (comm): which of a QEMU's threads are its vCPUs.
 */
#ifndef CVMBENCH_PROC_TASKS_H
#define CVMBENCH_PROC_TASKS_H

#include <stddef.h>
#include <sys/types.h>

/**
 * proc_tasks() - the thread ids of processes @pids into a malloc'd array
 * @out (@n of them), keeping only threads whose comm starts with @prefix
 * (NULL: all). Returns 0, or -errno (-ESRCH: a process is gone).
 */
int proc_tasks(const pid_t *pids, size_t npids, const char *prefix, pid_t **out,
	       size_t *n);
/**
 * proc_task_of() - is @tid one of the threads of process @pid (its
 * /proc/PID/task)? 1, 0 (another process's thread, or none), or -errno
 * (-ESRCH: @pid is gone).
 */
int proc_task_of(pid_t pid, pid_t tid);

#endif
