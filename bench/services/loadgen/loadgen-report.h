/* SPDX-License-Identifier: MIT */
/*
 * loadgen-report.h - cvmload's report: the measured requests' latencies
 * from their intended send times (exact percentiles, nearest rank over all
 * of them), the achieved rate and the errors by kind, in the "cvmload 1"
 * key-value format (docs/experiments/system-suite.md); and the optional
 * per-request dump.
 */
#ifndef CVMBENCH_LOADGEN_REPORT_H
#define CVMBENCH_LOADGEN_REPORT_H

#include <stdio.h>

#include "loadgen-args.h"
#include "loadgen-run.h"

/** loadgen_report() - print the report of @r to @out. 0, or -1 (memory). */
int loadgen_report(FILE *out, const struct loadgen_opts *o, const struct loadgen_result *r);

/**
 * loadgen_dump() - one line per request to @path: index, warm (1) or
 * measured (0), intended, sent and end times (CLOCK_MONOTONIC ns, 0 for
 * never), status. 0 or -1 (errno).
 */
int loadgen_dump(const char *path, const struct loadgen_result *r);

#endif
