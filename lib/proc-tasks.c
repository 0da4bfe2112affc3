// SPDX-License-Identifier: MIT
/*
 * proc-tasks.c - the threads of processes from /proc/PID/task (proc-tasks.h).
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc-tasks.h"
#include "sysfs.h"

static int comm_matches(pid_t pid, pid_t tid, const char *prefix)
{
	char path[96], comm[64];

	if (!prefix)
		return 1;
	snprintf(path, sizeof(path), "/proc/%d/task/%d/comm", (int)pid, (int)tid);
	if (sysfs_read_line(path, comm, sizeof(comm)) < 0)
		return 0;
	return !strncmp(comm, prefix, strlen(prefix));
}

static int push(pid_t **a, size_t *n, size_t *cap, pid_t tid)
{
	pid_t *na;

	if (*n == *cap) {
		*cap = *cap ? 2 * *cap : 16;
		na = realloc(*a, *cap * sizeof(*na));
		if (!na)
			return -ENOMEM;
		*a = na;
	}
	(*a)[(*n)++] = tid;
	return 0;
}

static int one_process(pid_t pid, const char *prefix, pid_t **a, size_t *n, size_t *cap)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int ret = 0;
	long tid;

	snprintf(path, sizeof(path), "/proc/%d/task", (int)pid);
	dir = opendir(path);
	if (!dir)
		return errno == ENOENT ? -ESRCH : -errno;
	while (!ret && (d = readdir(dir))) {
		tid = strtol(d->d_name, NULL, 10);
		if (tid > 0 && comm_matches(pid, (pid_t)tid, prefix))
			ret = push(a, n, cap, (pid_t)tid);
	}
	closedir(dir);
	return ret;
}

int proc_tasks(const pid_t *pids, size_t npids, const char *prefix, pid_t **out,
	       size_t *n)
{
	size_t i, cap = 0;
	pid_t *a = NULL;
	int ret = 0;

	*n = 0;
	for (i = 0; !ret && i < npids; i++)
		ret = one_process(pids[i], prefix, &a, n, &cap);
	if (ret) {
		free(a);
		*n = 0;
		a = NULL;
	}
	*out = a;
	return ret;
}

int proc_task_of(pid_t pid, pid_t tid)
{
	pid_t *tids = NULL;
	size_t n = 0, i;
	int ret = proc_tasks(&pid, 1, NULL, &tids, &n);

	for (i = 0; !ret && i < n; i++)
		if (tids[i] == tid)
			ret = 1;
	free(tids);
	return ret;
}
