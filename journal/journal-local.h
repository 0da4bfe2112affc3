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
	size_t unreadable;        /* lines not understood: the file is kept as is */
};

extern struct journal_state J;

/** journal_kind_find() - the registered kind called @kind, or NULL. */
const struct journal_kind *journal_kind_find(const char *kind);
/** journal_process_starttime() - field 22 of /proc/PID/stat, or -1. */
long long journal_process_starttime(long long pid);

/**
 * journal_add() - append an entry of @type ('s': @a path, @b old value;
 * 'o': @a kind, @b name; 'p': @pid, @starttime), fsync'd, and index it.
 * Returns its id or -errno (then nothing was written).
 */
long journal_add(char type, const char *a, const char *b, long long pid,
		 long long starttime);
/** journal_find() - the index in J.v of open entry @id, or -1. */
ssize_t journal_find(long id);
/** journal_load() - read the open journal file into the index. 0 or -errno. */
int journal_load(char *err, size_t errlen);
/**
 * journal_compact() - drop closed entries from the index once they are
 * half of it, rewrite the file once it has twice the open entries' lines,
 * empty it when none is open. 0 or -errno.
 */
int journal_compact(void);
/** journal_index_free() - forget the index (not the file). */
void journal_index_free(void);

#endif
