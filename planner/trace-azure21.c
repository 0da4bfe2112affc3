// SPDX-License-Identifier: MIT
/*
 * trace-azure21.c - the 2021 per-invocation trace (trace-azure21.h). The
 * file is sorted by end time; an invocation starts at end - duration, so
 * starts come nearly sorted. The reorder buffer (a min-heap on start) hands
 * out every start at or before (latest end read) - (longest duration seen):
 * no later line can start before that unless its duration is longer than
 * any before it; such a start is replayed at the last time handed out and
 * counted in t->reordered.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "heap.h"
#include "log.h"
#include "trace-azure21.h"
#include "trace-csv.h"

static const char *const t21_head[4] = { "app", "func", "end_timestamp", "duration" };

struct t21_ev {
	double start, dur;            /* start first: the reorder heap's key */
	uint32_t fn;
};

static int check_header(struct trace_csv *c)
{
	size_t i;

	if (c->nfield != 4)
		return trace_csv_bad(c, "header: want app,func,end_timestamp,duration");
	for (i = 0; i < 4; i++)
		if (strcmp(c->field[i], t21_head[i]))
			return trace_csv_bad(c, "header column %zu is '%s', want '%s'",
					     i + 1, c->field[i], t21_head[i]);
	return 0;
}

/* One line: its function (added when @add), start and duration. */
static int parse_row(struct trace21 *t, struct trace_csv *c, double prev_end, int add,
		     struct t21_ev *e, double *end)
{
	char key[512];
	int n;
	long idx;

	if (c->nfield != 4)
		return trace_csv_bad(c, "%zu columns, want 4 (app,func,end_timestamp,duration)",
				     c->nfield);
	if (!*c->field[0] || !*c->field[1])
		return trace_csv_bad(c, "an empty app or func");
	if (trace_csv_double(c, 2, "end_timestamp", end) ||
	    trace_csv_double(c, 3, "duration", &e->dur))
		return -EINVAL;
	if (*end < prev_end)
		return trace_csv_bad(c, "end_timestamp %.6f before the line above (%.6f): "
				     "the file must be sorted by end_timestamp", *end, prev_end);
	n = snprintf(key, sizeof(key), "%s/%s", c->field[0], c->field[1]);
	if (n < 0 || (size_t)n >= sizeof(key))
		return trace_csv_bad(c, "function name too long");
	idx = fn_map_get(&t->fns, key, (size_t)n, add);
	if (idx < 0)
		return idx == -ENOENT ? trace_csv_bad(c, "function %s is new since the scan", key)
			: (int)idx;
	e->fn = (uint32_t)idx;
	e->start = *end - e->dur;
	return 0;
}

/* Open @t->path and check its header. */
static int open_trace(struct trace21 *t, struct trace_csv *c)
{
	int r = trace_csv_open(c, t->path);

	if (r)
		return r;
	r = trace_csv_next(c);
	if (r == 0)
		r = trace_csv_bad(c, "empty file: no header, no invocation");
	else if (r > 0)
		r = check_header(c);
	if (r)
		trace_csv_close(c);
	return r;
}

int trace21_scan(struct trace21 *t, const char *path)
{
	struct trace_csv c;
	struct t21_ev e;
	double end, prev = 0;
	int r;

	memset(t, 0, sizeof(*t));
	t->path = path;
	r = open_trace(t, &c);
	if (r)
		return r;
	while ((r = trace_csv_next(&c)) > 0) {
		if ((r = parse_row(t, &c, prev, 1, &e, &end)))
			break;
		if (!t->rows || e.start < t->first)
			t->first = e.start;
		t->last = prev = end;
		t->rows++;
	}
	if (!r && !t->rows)
		r = trace_csv_bad(&c, "empty trace: no invocation");
	trace_csv_close(&c);
	return r;
}

/* Hand out every buffered start at or before @upto (all when @all). */
static int drain(struct heap *h, double upto, int all, double *done, trace21_fn fn,
		 void *ctx)
{
	while (h->n && (all || heap_top_key(h) <= upto)) {
		struct t21_ev e;
		int r;

		heap_pop(h, &e, sizeof(e));
		if (e.start < *done)
			e.start = *done;
		*done = e.start;
		r = fn(ctx, e.fn, e.start, e.dur);
		if (r)
			return r;
	}
	return 0;
}

int trace21_replay(struct trace21 *t, trace21_fn fn, void *ctx)
{
	struct heap h = { 0 };
	struct trace_csv c;
	struct t21_ev e;
	double end, prev = 0, maxdur = 0, done = -1e300;
	int r = open_trace(t, &c);

	t->reordered = 0;
	while (!r && (r = trace_csv_next(&c)) > 0) {
		r = parse_row(t, &c, prev, 0, &e, &end);
		if (r)
			break;
		prev = end;
		if (e.start < done)
			t->reordered++;
		maxdur = e.dur > maxdur ? e.dur : maxdur;
		r = heap_push(&h, &e, sizeof(e));
		if (!r)
			r = drain(&h, end - maxdur, 0, &done, fn, ctx);
	}
	if (!r)
		r = drain(&h, 0, 1, &done, fn, ctx);
	if (t->reordered)
		pr_warn("%s: %llu starts replayed late (a duration longer than any before it)",
			t->path, (unsigned long long)t->reordered);
	trace_csv_close(&c);
	heap_free(&h);
	return r;
}

void trace21_free(struct trace21 *t)
{
	fn_map_free(&t->fns);
}
