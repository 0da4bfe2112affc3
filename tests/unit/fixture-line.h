/* SPDX-License-Identifier: MIT */
/*
 * fixture-line.h - the first line of a fixture file (a captured QMP
 * reply, say), for unit tests that feed one line to a parser.
 */
#ifndef CVMBENCH_FIXTURE_LINE_H
#define CVMBENCH_FIXTURE_LINE_H

#include <stdio.h>
#include <stdlib.h>

/* The first line of fixture @f (malloc'ed), or NULL. */
static inline char *first_line(const char *f)
{
	char *line = NULL;
	size_t cap = 0;
	FILE *fp = fopen(f, "r");

	if (!fp || getline(&line, &cap, fp) < 0) {
		free(line);
		line = NULL;
	}
	if (fp)
		fclose(fp);
	return line;
}

#endif
