// SPDX-License-Identifier: MIT
/*
 * trace-azure19.c - the invocation counts file of the Azure Functions 2019
 * trace (trace-azure19.h). Header: HashOwner,HashApp,HashFunction,Trigger
 * and then the minutes 1, 2, ... N; each line after it one function's N
 * counts. The durations and memory files are in trace-azure19-pct.c.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-azure19.h"
#include "trace-csv.h"

#define T19_KEYS 4               /* HashOwner,HashApp,HashFunction,Trigger */
#define T19_MAX_MINUTES (14 * 1440)

static const char *const t19_head[T19_KEYS] = {
	"HashOwner", "HashApp", "HashFunction", "Trigger"
};

static int check_header(struct trace_csv *c, unsigned *minutes)
{
	size_t i;
	char want[24];

	if (c->nfield <= T19_KEYS)
		return trace_csv_bad(c, "header: want HashOwner,HashApp,HashFunction,Trigger,1,2,...");
	for (i = 0; i < T19_KEYS; i++)
		if (strcmp(c->field[i], t19_head[i]))
			return trace_csv_bad(c, "header column %zu is '%s', want '%s'",
					     i + 1, c->field[i], t19_head[i]);
	for (i = T19_KEYS; i < c->nfield; i++) {
		snprintf(want, sizeof(want), "%zu", i - T19_KEYS + 1);
		if (strcmp(c->field[i], want))
			return trace_csv_bad(c, "header column %zu is '%s', want minute '%s'",
					     i + 1, c->field[i], want);
	}
	if (c->nfield - T19_KEYS > T19_MAX_MINUTES)
		return trace_csv_bad(c, "%zu minutes: at most %d (14 days)",
				     c->nfield - T19_KEYS, T19_MAX_MINUTES);
	*minutes = (unsigned)(c->nfield - T19_KEYS);
	return 0;
}

static int room(struct trace19 *t)
{
	size_t cap;
	uint32_t *p;

	if (t->fns.n < t->cap)
		return 0;
	cap = t->cap ? 2 * t->cap : 1024;
	p = realloc(t->counts, cap * t->minutes * sizeof(*p));
	if (!p)
		return -ENOMEM;
	t->counts = p;
	t->cap = cap;
	return 0;
}

static int key_of(const struct trace_csv *c, char *key, size_t size)
{
	int n = snprintf(key, size, "%s/%s/%s", c->field[0], c->field[1], c->field[2]);

	if (!*c->field[0] || !*c->field[1] || !*c->field[2])
		return trace_csv_bad(c, "an empty HashOwner, HashApp or HashFunction");
	if (n < 0 || (size_t)n >= size)
		return trace_csv_bad(c, "function name longer than %zu characters", size - 1);
	return n;
}

static int read_row(struct trace19 *t, struct trace_csv *c)
{
	char key[512];
	int len = key_of(c, key, sizeof(key));
	long idx;
	unsigned m, v;
	uint32_t *row;

	if (len < 0)
		return len;
	if (c->nfield != T19_KEYS + t->minutes)
		return trace_csv_bad(c, "%zu columns, the header has %u",
				     c->nfield, T19_KEYS + t->minutes);
	if (room(t))
		return -ENOMEM;
	idx = fn_map_get(&t->fns, key, (size_t)len, 0);
	if (idx >= 0)
		return trace_csv_bad(c, "function %s is listed twice", key);
	idx = fn_map_get(&t->fns, key, (size_t)len, 1);
	if (idx < 0)
		return (int)idx;
	row = t->counts + (size_t)idx * t->minutes;
	for (m = 0; m < t->minutes; m++) {
		if (trace_csv_count(c, T19_KEYS + m, "minute count", &v))
			return -EINVAL;
		row[m] = v;
		t->total += v;
	}
	return 0;
}

int trace19_read(struct trace19 *t, const char *path)
{
	struct trace_csv c;
	int r;

	memset(t, 0, sizeof(*t));
	r = trace_csv_open(&c, path);
	if (r)
		return r;
	r = trace_csv_next(&c);
	if (r == 0) {
		r = trace_csv_bad(&c, "empty file: no header, no function");
		goto out;
	}
	if (r < 0 || (r = check_header(&c, &t->minutes)))
		goto out;
	while ((r = trace_csv_next(&c)) > 0)
		if ((r = read_row(t, &c)))
			goto out;
	if (!r && !t->total)
		r = trace_csv_bad(&c, "empty trace: %zu functions, no invocation", t->fns.n);
out:
	trace_csv_close(&c);
	return r;
}

void trace19_free(struct trace19 *t)
{
	fn_map_free(&t->fns);
	free(t->counts);
	free(t->exec_ms);
	free(t->mem_mib);
	memset(t, 0, sizeof(*t));
}
