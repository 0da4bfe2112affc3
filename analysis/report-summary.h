/* SPDX-License-Identifier: MIT */
/*
 * report-summary.h - the report's summary per experiment: cells ok,
 * skipped, failed and the headline numbers with their intervals.
 */
#ifndef CVMBENCH_REPORT_SUMMARY_H
#define CVMBENCH_REPORT_SUMMARY_H

#include <stdint.h>

struct sqlite3;
struct cJSON;

struct cJSON *report_summary_json(struct sqlite3 *h, int64_t run_id,
				  const struct cJSON *run);

#endif
