// SPDX-License-Identifier: MIT
/*
 * proc-tree.c - a process tree from /proc/PID/stat's parent pid field
 * (proc-tree.h): one pass over /proc for the (pid, ppid) pairs, then the
 * descendants of the given pids, generation by generation.
 */
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "proc-stat.h"
#include "proc-tree.h"

struct pair {
	pid_t pid, ppid;
};

/* The parent of @pid from /proc/PID/stat, or -1. */
static pid_t parent_of(const char *pid)
{
	struct proc_stat ps;
	char path[64], buf[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", pid);
	f = fopen(path, "re");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	return proc_stat_parse(buf, &ps) ? -1 : (pid_t)ps.ppid;
}

static int all_pairs(struct pair **out, size_t *n)
{
	DIR *d = opendir("/proc");
	struct dirent *e;
	size_t cap = 0;
	void *p;

	*out = NULL;
	*n = 0;
	if (!d)
		return -errno;
	while ((e = readdir(d))) {
		if (!isdigit((unsigned char)e->d_name[0]))
			continue;
		if (*n == cap) {
			cap = cap ? 2 * cap : 512;
			p = realloc(*out, cap * sizeof(**out));
			if (!p) {
				closedir(d);
				return -ENOMEM;
			}
			*out = p;
		}
		(*out)[*n].pid = (pid_t)atoi(e->d_name);
		(*out)[(*n)++].ppid = parent_of(e->d_name);
	}
	closedir(d);
	return 0;
}

static int listed(const pid_t *a, size_t n, pid_t pid)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i] == pid)
			return 1;
	return 0;
}

int proc_tree(const pid_t *pids, size_t npids, pid_t **out, size_t *n)
{
	struct pair *all;
	size_t nall, i, done = 0;
	int ret = all_pairs(&all, &nall);

	*n = 0;
	*out = ret ? NULL : malloc((nall + npids + 1) * sizeof(**out));
	if (!ret && !*out)
		ret = -ENOMEM;
	for (i = 0; !ret && i < npids; i++)
		if (!listed(*out, *n, pids[i]))
			(*out)[(*n)++] = pids[i];
	/* each listed process adds its children once: generations until none is new */
	for (; !ret && done < *n; done++)
		for (i = 0; i < nall; i++)
			if (all[i].ppid == (*out)[done] && !listed(*out, *n, all[i].pid))
				(*out)[(*n)++] = all[i].pid;
	free(all);
	return ret;
}
