/* SPDX-License-Identifier: MIT */
/*
 * test-journal.h - a journal of a unit test's own, in a temporary state
 * directory with its own host lock, for tests whose code journals what it
 * changes (a tracefs mount or instance): test_journal_open(), then
 * test_journal_done() undoes every open entry (unmounts a tracefs it
 * mounted where none was, as on machine B), closes and removes it.
 * test_journal_reopen(): journal_open() in the state directory the test
 * set, its message as a TAP comment when it fails.
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

/* The temporary directory (function-static: a test may use reopen only). */
static inline char *test_journal_dir(void)
{
	static char dir[] = "/tmp/cvmbench-unit-journal-XXXXXX";

	return dir;
}

static inline int test_journal_rm(const char *path, const struct stat *st, int flag,
				  struct FTW *f)
{
	(void)st; (void)flag; (void)f;
	return remove(path) ? -1 : 0;
}

static inline int test_journal_open(char *err, size_t len)
{
	char path[64];

	if (!mkdtemp(test_journal_dir())) {
		snprintf(err, len, "mkdtemp: %s", strerror(errno));
		return -errno;
	}
	snprintf(path, sizeof(path), "%s/state", test_journal_dir());
	setenv("CVMBENCH_STATE_DIR", path, 1);
	snprintf(path, sizeof(path), "%s/lock", test_journal_dir());
	setenv("CVMBENCH_TEST_HOST_LOCK", path, 1);
	return journal_open(err, len);
}

static inline void test_journal_done(void)
{
	char *dir = test_journal_dir();

	journal_restore_all(NULL, NULL);
	journal_close();
	if (strcmp(dir + strlen(dir) - 6, "XXXXXX"))
		nftw(dir, test_journal_rm, 8, FTW_DEPTH | FTW_PHYS);
}

static inline int test_journal_reopen(void)
{
	char err[512];
	int ret = journal_open(err, sizeof(err));

	if (ret)
		printf("# journal_open: %s\n", err);
	return ret;
}

#endif
