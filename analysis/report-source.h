/* SPDX-License-Identifier: MIT */
/*
 * report-source.h - the second line of a figure's caption in the report:
 * where its data came from (experiments, N, run).
 */
#ifndef CVMBENCH_REPORT_SOURCE_H
#define CVMBENCH_REPORT_SOURCE_H

#include <stddef.h>
#include <stdint.h>

struct sqlite3;
struct figure_ctx;

void report_source_text(struct sqlite3 *h, const struct figure_ctx *ctx, char *buf,
			size_t len);

#endif
