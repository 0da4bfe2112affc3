/* SPDX-License-Identifier: MIT */
/*
 * svc-parse-local.h - what the per-tool parsers (svc-parse-TOOL.c) share
 * with the dispatcher (svc-parse.c): the parse context, the one way to
 * store a metric (svc_put: catalog names and units only, finite values,
 * no negatives) and strict readers of numbers, durations and sizes that
 * name the field and the line when they refuse.
 */
#ifndef CVMBENCH_SVC_PARSE_LOCAL_H
#define CVMBENCH_SVC_PARSE_LOCAL_H

#include <stddef.h>

#include "svc-parse.h"

struct svc_parse_ctx {
	const char *parser;      /* the catalog's parser name */
	const char *text;        /* NUL-terminated copy of the output */
	struct svc_result *out;
	char *err;
	size_t errlen;
};

/* A line of the output: its text (not NUL-terminated at the line's end:
 * @len says where it ends) and its number, from 1. */
struct svc_line {
	const char *s;
	size_t len;
	int no;
};

/** svc_fail() - write "PARSER: message" into the context's error; -1. */
int svc_fail(struct svc_parse_ctx *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/**
 * svc_put() - store metric @name = @v. Refuses (-1, naming the metric and
 * @line when > 0) a name the catalog does not give this parser, a value that
 * is NaN, infinite or negative, a zero that is not a count, and a repeat.
 */
int svc_put(struct svc_parse_ctx *c, const char *name, double v, int line);

/**
 * svc_line_find() - the first line that, after leading blanks, starts with
 * @key. 1 with @l filled (l->s just after the key), 0 if none.
 */
int svc_line_find(const struct svc_parse_ctx *c, const char *key, struct svc_line *l);

/**
 * svc_line_with() - the first line holding @needle anywhere: 1 with @l
 * filled (l->s at the line's first non-blank) and @hit (if not NULL) at the
 * needle, 0 if none.
 */
int svc_line_with(const struct svc_parse_ctx *c, const char *needle, struct svc_line *l,
		  const char **hit);

/** svc_line_next() - the line after @l (1), or 0 at the end. */
int svc_line_next(const struct svc_parse_ctx *c, struct svc_line *l);

/**
 * svc_number() - a plain decimal number (digits, optional fraction and
 * exponent; no sign, hex, nan or inf) after blanks at @s; @end after it.
 * -1 with an error naming @field and @line otherwise.
 */
int svc_number(struct svc_parse_ctx *c, const char *s, const char **end, const char *field,
	       int line, double *v);

/**
 * svc_duration_ns() - a number with a time unit right after it (ns, us,
 * ms, s, m, h) in nanoseconds; @end after the unit.
 */
int svc_duration_ns(struct svc_parse_ctx *c, const char *s, const char **end,
		    const char *field, int line, double *ns);

/**
 * svc_size_bytes() - a number with a binary size unit right after it ("B",
 * "KB", "MB", "GB", "TB", "PB", powers of 1024, as wrk prints them) in bytes.
 */
int svc_size_bytes(struct svc_parse_ctx *c, const char *s, const char **end,
		   const char *field, int line, double *bytes);

/** svc_rest_blank() - @s holds only blanks up to the end of its line. */
int svc_rest_blank(const char *s);

/* The parsers: 0 or -1 (svc_fail's message). */
int svc_parse_wrk(struct svc_parse_ctx *c);
int svc_parse_cvmload(struct svc_parse_ctx *c);
int svc_parse_redis_benchmark(struct svc_parse_ctx *c);
int svc_parse_pgbench(struct svc_parse_ctx *c);
int svc_parse_sysbench_cpu(struct svc_parse_ctx *c);
int svc_parse_sysbench_memory(struct svc_parse_ctx *c);
int svc_parse_fio(struct svc_parse_ctx *c);

#endif
