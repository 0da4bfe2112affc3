// SPDX-License-Identifier: MIT
/*
 * oci-orphans.c - before a journalled container is undone after a crash:
 * end the runtime processes still working on it. A run killed with -9
 * leaves its `crun`/`runc` child (create, start, run or delete of one
 * container) running as an orphan; it may create the container again just
 * after restore removed it, or remove its state while restore does. They
 * are found by what only they have: the runtime's own program (/proc/PID/exe)
 * and the container's id, unique to one start of one cvmbench process
 * ("cvmbench-PID-N"), as a whole argument.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "oci-host.h"
#include "procmem.h"

/* 1 if process @pid runs program @exe with @id as one of its arguments. */
static int works_on(pid_t pid, const char *exe, const char *id)
{
	char path[64], real[PATH_MAX], args[4096];
	ssize_t n;
	size_t o;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/exe", (int)pid);
	n = readlink(path, real, sizeof(real) - 1);
	if (n < 0)
		return 0;
	real[n] = '\0';
	if (strcmp(real, exe))
		return 0;
	snprintf(path, sizeof(path), "/proc/%d/cmdline", (int)pid);
	f = fopen(path, "re");
	n = f ? (ssize_t)fread(args, 1, sizeof(args) - 1, f) : 0;
	if (f)
		fclose(f);
	args[n > 0 ? n : 0] = '\0';
	for (o = 0; (ssize_t)o < n; o += strlen(args + o) + 1)
		if (!strcmp(args + o, id))
			return 1;
	return 0;
}

int oci_orphans_end(const char *runtime, const char *id)
{
	struct timespec pause = { 0, 10000000 };
	pid_t found[64], me = getpid();
	char exe[PATH_MAX];
	struct dirent *e;
	int n = 0, i, k;
	DIR *d;

	if (!realpath(runtime, exe) || !(d = opendir("/proc")))
		return 0;
	while ((e = readdir(d)) && n < 64) {
		pid_t pid = (pid_t)atoi(e->d_name);

		if (pid > 0 && pid != me && works_on(pid, exe, id) && !kill(pid, SIGKILL))
			found[n++] = pid;
	}
	closedir(d);
	for (k = 0; k < 200; k++) {   /* up to 2 s for them to be gone */
		for (i = 0; i < n && procmem_ended_here(found[i]); i++)
			;
		if (i == n)
			break;
		nanosleep(&pause, NULL);
	}
	return n;
}
