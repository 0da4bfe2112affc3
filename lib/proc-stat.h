/* SPDX-License-Identifier: MIT */
/*
 * proc-stat.h - the fields cvmbench reads from a /proc/PID/stat line, parsed
 * once for every reader (the comm may hold blanks and ')': fields are
 * counted from its last ')').
 */
#ifndef CVMBENCH_PROC_STAT_H
#define CVMBENCH_PROC_STAT_H

struct proc_stat {
	int pid, ppid;
	char state;                  /* R, S, D, Z, X, ... */
	unsigned long long ticks;    /* utime + stime + cutime + cstime */
};

#include <sys/types.h>

int proc_stat_parse(const char *line, struct proc_stat *s);
int proc_ended(pid_t pid);

#endif
