/* SPDX-License-Identifier: MIT */
/*
 * run-journal.h - a run row as a journal object (kind "db-run"), so that a
 * run killed before it could write its end is marked `interrupted` by the
 * next run or by `cvmbench restore`, with the time of that recovery.
 */
#ifndef CVMBENCH_RUN_JOURNAL_H
#define CVMBENCH_RUN_JOURNAL_H

#include <stdint.h>

/**
 * run_journal_begin() - journal run @run_id of the database @db_path (an
 * open journal is needed). Returns the entry id, or -errno: the run must
 * not go on then. The caller forgets the entry once the run's end is
 * written (journal_forget()).
 */
long run_journal_begin(const char *db_path, int64_t run_id);
/**
 * run_journal_call_log() - journal the call log (call-log.h) of cell
 * @cell_id of the database @db_path before it is created; its path, in
 * the state directory, into @log_path. Returns the entry id or -errno.
 */
long run_journal_call_log(const char *db_path, int64_t cell_id, char *log_path, size_t len);

#endif
