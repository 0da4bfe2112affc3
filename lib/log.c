// SPDX-License-Identifier: MIT
/* log.c - leveled messages on stderr. */
#include <stdarg.h>
#include <stdio.h>

#include "log.h"

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

	if (level > current_level)
		return;
	if (progress_clear)
		progress_clear();
	fprintf(stderr, "cvmbench: %s: ", names[level]);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}
