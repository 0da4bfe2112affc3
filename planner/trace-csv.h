/* SPDX-License-Identifier: MIT */
/*
 * trace-csv.h - the line reader under the trace readers: one line at a time
 * from a file (getline, so memory is one line), split at commas in place,
 * and an error that names the file and the line.
 */
#ifndef CVMBENCH_TRACE_CSV_H
#define CVMBENCH_TRACE_CSV_H

#include <stddef.h>
#include <stdio.h>

struct trace_csv {
	const char *path;
	FILE *f;
	char *line;
	size_t cap;
	unsigned long lineno;
	char **field;            /* the fields of the current line */
	size_t nfield, fieldcap;
};

/** trace_csv_open() - open @path for reading; -errno after saying why. */
int trace_csv_open(struct trace_csv *c, const char *path);
/**
 * trace_csv_next() - read and split the next non-empty line. Returns 1 with
 * c->field[0 .. nfield-1] set, 0 at the end of the file, -errno on a read
 * error (reported).
 */
int trace_csv_next(struct trace_csv *c);
/** trace_csv_close() - free what trace_csv_open() and _next() took. */
void trace_csv_close(struct trace_csv *c);
/**
 * trace_csv_bad() - report "FILE:LINE: what" for the current line and return
 * -EINVAL (a reader's malformed-line return).
 */
int trace_csv_bad(const struct trace_csv *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/**
 * trace_csv_double() - field @i as a finite number >= 0 into *@out; on a bad
 * value a trace_csv_bad() naming the column @what.
 */
int trace_csv_double(const struct trace_csv *c, size_t i, const char *what, double *out);
/** trace_csv_count() - field @i as a whole count (0 .. 2^32-1) into *@out. */
int trace_csv_count(const struct trace_csv *c, size_t i, const char *what, unsigned *out);

#endif
