/* SPDX-License-Identifier: MIT */
/*
 * tap.h - the Test Anything Protocol in a few lines, for the C unit tests
 * (run by `prove --exec ''`).
 */
#ifndef CVMBENCH_TAP_H
#define CVMBENCH_TAP_H

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

static int tap_count, tap_failed;

static inline void tap_plan(int n)
{
	printf("1..%d\n", n);
}

static inline int tap_ok(int cond, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static inline int tap_ok(int cond, const char *fmt, ...)
{
	va_list ap;

	printf("%sok %d - ", cond ? "" : "not ", ++tap_count);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	printf("\n");
	if (!cond)
		tap_failed++;
	return cond;
}

/* ok if @haystack contains @needle; on failure show both. */
static inline int tap_contains(const char *haystack, const char *needle,
			       const char *what)
{
	int ok = tap_ok(strstr(haystack, needle) != NULL, "%s", what);

	if (!ok)
		printf("#   expected to contain: %s\n#   got: %s\n", needle, haystack);
	return ok;
}

static inline int tap_done(void)
{
	return tap_failed ? 1 : 0;
}

#endif
