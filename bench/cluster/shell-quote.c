// SPDX-License-Identifier: MIT
/*
 * shell-quote.c - a string as one word of a POSIX shell, whatever its
 * bytes: what `cvmbench slurm` writes for every value it puts into a batch
 * script (paths, config names). The word is single-quoted; a single quote
 * inside is closed, escaped and reopened ('\''), the one thing that ends a
 * single-quoted string. Nothing else is special inside single quotes: $, `,
 * \, !, newlines and other control bytes stay literal (bash's printf %q
 * gives the same word in another spelling). The empty string is ''.
 */
#include <stdlib.h>
#include <string.h>

#include "shell-quote.h"

/**
 * shell_quote() - @s as one shell word (see above), malloc'd; NULL when
 * out of memory.
 */
char *shell_quote(const char *s)
{
	size_t n = 3, i;
	const char *p;
	char *out;

	for (p = s; *p; p++)
		n += *p == '\'' ? 4 : 1;
	out = malloc(n);
	if (!out)
		return NULL;
	i = 0;
	out[i++] = '\'';
	for (p = s; *p; p++) {
		if (*p == '\'') {
			memcpy(out + i, "'\\''", 4);
			i += 4;
		} else {
			out[i++] = *p;
		}
	}
	out[i++] = '\'';
	out[i] = '\0';
	return out;
}
