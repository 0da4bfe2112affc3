/* SPDX-License-Identifier: MIT */
/*
 * summary.h - one run of the results database as a cJSON tree: the runs,
 * then the chosen run with its environment, cells (with latency
 * quantiles), skips and errors. `show` prints it as text or JSON and
 * `report` renders it as Markdown and HTML.
 */
#ifndef CVMBENCH_SUMMARY_H
#define CVMBENCH_SUMMARY_H

#include <stdint.h>

struct db;
struct cJSON;

struct cJSON *summary_build(struct db *db, int64_t run_id);
const char *summary_str(const struct cJSON *o, const char *name, const char *dflt);
double summary_num(const struct cJSON *o, const char *name);
int summary_int(const struct cJSON *o, const char *name);
int64_t summary_id(const struct cJSON *o, const char *name);
const char *summary_fmt(const struct cJSON *o, const char *name, const char *fmt,
			char *buf, unsigned len);
const char *summary_ms(const struct cJSON *o, const char *name, char *buf,
		       unsigned len);

#endif
