/* SPDX-License-Identifier: MIT */
/*
 * progress.h - on a terminal, one updating line (cells done / total,
 * current cell, elapsed, estimated time left); off a terminal, a log line
 * per cell.
 */
#ifndef CVMBENCH_PROGRESS_H
#define CVMBENCH_PROGRESS_H

#include <stddef.h>

void progress_begin(size_t total);
void progress_cell(size_t done, const char *cell_key);
/** progress_calls() - within the current cell (redraws at most 4 times a second). */
void progress_calls(long calls, long total_calls);
void progress_cell_done(const char *cell_key, const char *status);
void progress_end(void);

#endif
