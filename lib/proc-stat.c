// SPDX-License-Identifier: MIT
/*
 * proc-stat.c - parse a /proc/PID/stat line (proc-stat.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>

#include "proc-stat.h"

/**
 * proc_stat_parse() - pid, state, ppid and the four CPU-time fields (in
 * clock ticks, summed) of the /proc/PID/stat text @line into @s.
 * Returns 0, or -EINVAL when @line is not such a line.
 */
int proc_stat_parse(const char *line, struct proc_stat *s)
{
	unsigned long long ut, st, cut, cst;
	const char *p = strrchr(line, ')');

	if (!p || p[1] != ' ' || sscanf(line, "%d", &s->pid) != 1 ||
	    sscanf(p + 2, "%c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %llu %llu %llu %llu",
		   &s->state, &s->ppid, &ut, &st, &cut, &cst) != 6)
		return -EINVAL;
	s->ticks = ut + st + cut + cst;
	return 0;
}

/**
 * proc_ended() - whether process @pid has ended: gone from /proc, or a
 * zombie (or dead) that its parent has not reaped yet, which kill(pid, 0)
 * would still find.
 */
int proc_ended(pid_t pid)
{
	char path[64], line[1024];
	struct proc_stat s;
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return 1;
	ok = fgets(line, sizeof(line), f) && !proc_stat_parse(line, &s);
	fclose(f);
	return !ok || s.state == 'Z' || s.state == 'X';
}
