/* SPDX-License-Identifier: MIT */
/*
 * fake-file.h - for unit tests on fake sysfs/procfs trees: write one file
 * of a tree (its directory must exist). A test that cannot write its
 * fixture fails on the check that reads it.
 */
#ifndef CVMBENCH_TEST_FAKE_FILE_H
#define CVMBENCH_TEST_FAKE_FILE_H

#include <limits.h>
#include <stdio.h>

/* Write @s to @root followed by @rel ("/sys/kernel/mm/ksm/run"). */
static inline void fake_file_put(const char *root, const char *rel, const char *s)
{
	char path[PATH_MAX];
	FILE *f;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "w");
	if (f) {
		fputs(s, f);
		fclose(f);
	}
}

/*
 * The contents of @root followed by @rel (at most @len - 1 bytes) into
 * @buf, or "(absent)" when it cannot be opened. Returns @buf.
 */
static inline const char *fake_file_get(const char *root, const char *rel, char *buf,
					size_t len)
{
	char path[PATH_MAX];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "%s%s", root, rel);
	f = fopen(path, "r");
	n = f ? fread(buf, 1, len - 1, f) : 0;
	if (f)
		fclose(f);
	buf[n] = '\0';
	return f ? buf : "(absent)";
}

#endif
