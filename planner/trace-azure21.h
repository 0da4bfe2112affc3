/* SPDX-License-Identifier: MIT */
/*
 * trace-azure21.h - the Azure Functions 2021 trace (AzureFunctionsInvocation
 * TraceForTwoWeeksJan2021.txt): one line per invocation, app,func,
 * end_timestamp,duration (seconds), sorted by end_timestamp. Two passes
 * over the file: trace21_scan() learns the functions and the time span,
 * trace21_replay() hands each invocation to a callback in order of its
 * start (end - duration) through a reorder buffer. Memory is the number of
 * functions plus the invocations in flight at once, never the whole trace.
 */
#ifndef CVMBENCH_TRACE_AZURE21_H
#define CVMBENCH_TRACE_AZURE21_H

#include <stdint.h>

#include "fn-map.h"

struct trace21 {
	const char *path;
	struct fn_map fns;       /* "app/func" -> index */
	uint64_t rows;           /* invocations */
	double first, last;      /* earliest start, latest end (s) */
	uint64_t reordered;      /* starts that came after a later one was replayed */
};

/** Called per invocation in order of @start; non-zero stops the replay. */
typedef int (*trace21_fn)(void *ctx, uint32_t fn, double start, double duration);

/**
 * trace21_scan() - read @path once: check every line, collect the
 * functions. Returns 0, -EINVAL (a malformed line, or no invocation: both
 * reported) or -errno.
 */
int trace21_scan(struct trace21 *t, const char *path);
/** trace21_replay() - read the file again, calling @fn for each invocation. */
int trace21_replay(struct trace21 *t, trace21_fn fn, void *ctx);
/** trace21_free() - free the function names. */
void trace21_free(struct trace21 *t);

#endif
