/* SPDX-License-Identifier: MIT */
/*
 * log.h - messages on stderr, never mixed with data (data goes to SQLite).
 */
#ifndef CVMBENCH_LOG_H
#define CVMBENCH_LOG_H

enum log_level { LOG_ERR, LOG_WARN, LOG_INFO, LOG_DBG };

/** log_set_level() - messages above @level are dropped (default LOG_INFO). */
void log_set_level(enum log_level level);
/** log_msg() - "cvmbench: <level>: message". Clears a progress line first. */
void log_msg(enum log_level level, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#define pr_err(...)  log_msg(LOG_ERR, __VA_ARGS__)
#define pr_warn(...) log_msg(LOG_WARN, __VA_ARGS__)
#define pr_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define pr_dbg(...)  log_msg(LOG_DBG, __VA_ARGS__)

/* A progress line owner registers this so log_msg() can clear it. */
void log_set_progress_clear(void (*clear)(void));

#endif
