/* SPDX-License-Identifier: MIT */
/*
 * run-status.h - the status of a run (run.status) and the words that
 * tell a reader what it holds: one choice and one wording for `run`'s
 * last line, `show` and the report.
 */
#ifndef CVMBENCH_RUN_STATUS_H
#define CVMBENCH_RUN_STATUS_H

#include <stddef.h>

struct run_tally {
	int ok, skipped, failed;  /* cells */
	int probe_skips;          /* skips recorded for probes of measured cells */
	int interrupted;          /* stopped before its end */
};

const char *run_status_pick(const struct run_tally *t);
void run_status_text(char *buf, size_t len, const char *status,
		     const struct run_tally *t);

#endif
