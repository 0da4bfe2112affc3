/* SPDX-License-Identifier: MIT */
/*
 * call-log.h - invocation rows on their way into the database. A call's
 * row is copied into a memory-mapped file (a few hundred nanoseconds, no
 * system call) and the rows are folded into SQLite in one transaction per
 * batch, between calls: when the log is full or a second has passed
 * since the last fold, before a probe writes rows that refer to a call, and when
 * the cell's calls are done. The mapping is the
 * kernel's page cache, so a kill -9 of cvmbench loses only the call in
 * flight: the rows still in the log are folded by whoever recovers the
 * run (call_log_recover(), from the journal). Each row carries its
 * invocation id, chosen when it is logged, so folding twice changes
 * nothing (INSERT OR IGNORE).
 */
#ifndef CVMBENCH_CALL_LOG_H
#define CVMBENCH_CALL_LOG_H

#include <stdint.h>

#include "db.h"

/* Rows a log holds before it must be folded. */
#define CALL_LOG_ROWS 1024
/* ... or how long they may wait (ns): slow calls reach the database as they come. */
#define CALL_LOG_FOLD_NS 1000000000LL

struct call_log;

/**
 * call_log_create() - a new, empty log at @path (created exclusively, 0600)
 * for database @db; invocation ids continue after the database's largest.
 * 0 or -errno.
 */
int call_log_create(struct call_log **out, const char *path, struct db *db);
/**
 * call_log_add() - log @row (its strings are copied); folds first when the
 * log is full. Returns the row's invocation id (> 0) or -errno.
 */
int64_t call_log_add(struct call_log *cl, const struct invocation_row *row);
/** call_log_fold() - write the logged rows into the database; 0 or -EIO. */
int call_log_fold(struct call_log *cl);
/**
 * call_log_close() - fold what is left, unmap and remove the file. 0, or
 * -EIO with the file kept for call_log_recover().
 */
int call_log_close(struct call_log *cl);
/**
 * call_log_recover() - fold the rows a killed run left in the log at @path
 * into @db and remove the file. Returns the number of rows folded, or
 * -errno (-ENOENT: no log; -EPROTO: not a call log).
 */
long call_log_recover(const char *path, struct db *db);

#endif
