/* SPDX-License-Identifier: MIT */
/*
 * trace-azure19.h - the Azure Functions 2019 public trace (Shahrad et al.,
 * ATC 2020) held as per-minute counts: invocations_per_function_md.anon.dXX.csv
 * (HashOwner,HashApp,HashFunction,Trigger,1..1440), and beside it the
 * function_durations_percentiles and app_memory_percentiles files of the same
 * day. Read a line at a time; memory is functions x minutes, never
 * invocations. A malformed line is an error naming the file and the line.
 */
#ifndef CVMBENCH_TRACE_AZURE19_H
#define CVMBENCH_TRACE_AZURE19_H

#include <stddef.h>
#include <stdint.h>

#include "fn-map.h"

/* the execution-time percentiles of the durations file, in this order */
#define TRACE19_NPCT 7
extern const double trace19_pct_at[TRACE19_NPCT];   /* 0 1 25 50 75 99 100 */

struct trace19 {
	struct fn_map fns;       /* "HashOwner/HashApp/HashFunction" -> index */
	unsigned minutes;        /* minute columns (1440 in the public trace) */
	uint32_t *counts;        /* fns.n rows of @minutes counts */
	size_t cap;              /* rows @counts has room for */
	double *exec_ms;         /* fns.n rows of TRACE19_NPCT, or NULL (no file) */
	double *mem_mib;         /* per function: its app's average, or NULL */
	uint64_t total;          /* invocations of the whole trace */
};

/**
 * trace19_read() - read the invocation counts file @path into @t (zeroed
 * first). Returns 0, -EINVAL for a malformed line (reported as FILE:LINE) or
 * an empty trace (no function, or no invocation), -errno otherwise.
 */
int trace19_read(struct trace19 *t, const char *path);
/**
 * trace19_read_durations() - the execution-time percentiles (ms) of the
 * functions of @t from @path; a function the file lacks keeps NaN (the
 * caller's latency alone). Lines of other functions are ignored.
 */
int trace19_read_durations(struct trace19 *t, const char *path);
/**
 * trace19_read_memory() - each function's memory (MiB): the average
 * allocated memory (AverageAllocatedMb) of its app, from @path; NaN where
 * the file lacks the app.
 */
int trace19_read_memory(struct trace19 *t, const char *path);
/** trace19_exec_draw() - an execution time (s) of function @fn from its percentiles at uniform @u, or 0. */
double trace19_exec_draw(const struct trace19 *t, size_t fn, double u);
/** trace19_free() - free what the readers took. */
void trace19_free(struct trace19 *t);

#endif
