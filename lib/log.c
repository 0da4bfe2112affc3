// SPDX-License-Identifier: MIT
/*
 * log.c - leveled messages on stderr. A message often carries text from
 * outside (a database's names through SQLite's errors, a guest's console):
 * it is written by the terminal rule of text-safe.h, which keeps its LF and
 * TAB and shows every other control byte escaped, never interpreted.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

#include "log.h"
#include "text-safe.h"

static enum log_level current_level = LOG_INFO;
static void (*progress_clear)(void);

void log_set_level(enum log_level level)
{
	current_level = level;
}

void log_set_progress_clear(void (*clear)(void))
{
	progress_clear = clear;
}

void log_msg(enum log_level level, const char *fmt, ...)
{
	static const char *const names[] = { "error", "warning", "info", "debug" };
	va_list ap;
	char *msg = NULL;
	int n;

	if (level > current_level)
		return;
	if (progress_clear)
		progress_clear();
	va_start(ap, fmt);
	n = vasprintf(&msg, fmt, ap);
	va_end(ap);
	fprintf(stderr, "cvmbench: %s: ", names[level]);
	if (n >= 0)
		text_put(stderr, msg, TEXT_TERM, TEXT_LINES);
	else
		fputs("(out of memory formatting a message)", stderr);
	free(msg);
	fputc('\n', stderr);
}
