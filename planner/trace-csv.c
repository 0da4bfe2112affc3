// SPDX-License-Identifier: MIT
/*
 * trace-csv.c - the line reader under the trace readers (trace-csv.h).
 * The Azure traces are plain CSV without quoting: a comma always separates.
 */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "trace-csv.h"

int trace_csv_open(struct trace_csv *c, const char *path)
{
	memset(c, 0, sizeof(*c));
	c->path = path;
	c->f = fopen(path, "r");
	if (!c->f) {
		int err = errno;

		pr_err("%s: %s", path, strerror(err));
		return -err;
	}
	return 0;
}

static int split(struct trace_csv *c, char *s)
{
	c->nfield = 0;
	for (;;) {
		if (c->nfield == c->fieldcap) {
			size_t cap = c->fieldcap ? 2 * c->fieldcap : 64;
			char **f = realloc(c->field, cap * sizeof(*f));

			if (!f)
				return -ENOMEM;
			c->field = f;
			c->fieldcap = cap;
		}
		c->field[c->nfield++] = s;
		s = strchr(s, ',');
		if (!s)
			return 0;
		*s++ = '\0';
	}
}

int trace_csv_next(struct trace_csv *c)
{
	ssize_t n;

	for (;;) {
		errno = 0;
		n = getline(&c->line, &c->cap, c->f);
		if (n < 0) {
			if (errno) {
				pr_err("%s: read: %s", c->path, strerror(errno));
				return -errno;
			}
			return 0;
		}
		c->lineno++;
		while (n > 0 && (c->line[n - 1] == '\n' || c->line[n - 1] == '\r'))
			c->line[--n] = '\0';
		if (n > 0)
			return split(c, c->line) ? -ENOMEM : 1;
	}
}

void trace_csv_close(struct trace_csv *c)
{
	if (c->f)
		fclose(c->f);
	free(c->line);
	free(c->field);
	memset(c, 0, sizeof(*c));
}

int trace_csv_bad(const struct trace_csv *c, const char *fmt, ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	pr_err("%s:%lu: %s", c->path, c->lineno, msg);
	return -EINVAL;
}

int trace_csv_double(const struct trace_csv *c, size_t i, const char *what, double *out)
{
	const char *s = c->field[i];
	char *end;

	errno = 0;
	*out = strtod(s, &end);
	if (!*s || *end || errno || !isfinite(*out) || *out < 0)
		return trace_csv_bad(c, "%s: '%s' is not a number >= 0", what, s);
	return 0;
}

int trace_csv_count(const struct trace_csv *c, size_t i, const char *what, unsigned *out)
{
	const char *s = c->field[i];
	unsigned long long v = 0;

	if (!*s)
		return trace_csv_bad(c, "%s: empty, want a count", what);
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 0xffffffffULL)
			return trace_csv_bad(c, "%s: '%s' is not a whole count", what, c->field[i]);
		v = v * 10 + (unsigned)(*s - '0');
	}
	if (v > 0xffffffffULL)
		return trace_csv_bad(c, "%s: '%s' is too large", what, c->field[i]);
	*out = (unsigned)v;
	return 0;
}
