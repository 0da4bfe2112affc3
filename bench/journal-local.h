/* SPDX-License-Identifier: MIT */
/*
 * journal-local.h - the journal's internals shared by journal.c (the API,
 * kinds and undoing), journal-index.c (the file and the index of open
 * entries) and journal-lock.c (the machine-wide lock).
 */
#ifndef CVMBENCH_JOURNAL_LOCAL_H
#define CVMBENCH_JOURNAL_LOCAL_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "journal.h"

struct journal_entry {
	long id;
	char type;                /* 's' setting, 'p' process, 'o' object */
	char done;
	char *a, *b;              /* 's': path, old value; 'o': kind, name */
	long long pid, starttime;
};

struct journal_state {
	int fd, dir_fd;
	char file[PATH_MAX];
	long next_id;
	struct journal_entry *v;  /* sorted by id */
	size_t n, cap, ndone;
	size_t lines;             /* lines in the file */
	off_t size;               /* bytes in the file */
	int hold;                 /* restore_all walks v: do not compact */
};

extern struct journal_state J;

const struct journal_kind *journal_kind_find(const char *kind);
long long journal_process_starttime(long long pid);

/* journal-index.c */
long journal_add(char type, const char *a, const char *b, long long pid,
		 long long starttime);
ssize_t journal_find(long id);
int journal_load(char *err, size_t errlen);
int journal_compact(void);
void journal_index_free(void);

#endif
