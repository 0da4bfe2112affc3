/* SPDX-License-Identifier: MIT */
/*
 * test-journal.h - a journal of a unit test's own, in a temporary state
 * directory with its own host lock, for tests whose code journals what it
 * changes (a tracefs mount or instance): test_journal_open(), then
 * test_journal_done() undoes every open entry (unmounts a tracefs it
 * mounted where none was, as on machine B), closes and removes it.
 */
#ifndef CVMBENCH_TEST_JOURNAL_H
#define CVMBENCH_TEST_JOURNAL_H

#include <errno.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "journal.h"

static char test_journal_dir[] = "/tmp/cvmbench-unit-journal-XXXXXX";

static inline int test_journal_rm(const char *path, const struct stat *st, int flag,
				  struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(path) ? -1 : 0;
}

static inline int test_journal_open(char *err, size_t len)
{
	char path[64];

	if (!mkdtemp(test_journal_dir)) {
		snprintf(err, len, "mkdtemp: %s", strerror(errno));
		return -errno;
	}
	snprintf(path, sizeof(path), "%s/state", test_journal_dir);
	setenv("CVMBENCH_STATE_DIR", path, 1);
	snprintf(path, sizeof(path), "%s/lock", test_journal_dir);
	setenv("CVMBENCH_TEST_HOST_LOCK", path, 1);
	return journal_open(err, len);
}

static inline void test_journal_done(void)
{
	journal_restore_all(NULL, NULL);
	journal_close();
	if (strcmp(test_journal_dir + strlen(test_journal_dir) - 6, "XXXXXX"))
		nftw(test_journal_dir, test_journal_rm, 8, FTW_DEPTH | FTW_PHYS);
}

#endif
