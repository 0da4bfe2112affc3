// SPDX-License-Identifier: MIT
/*
 * seed-rows.c - seed-rows.h: the sink tables seed_start and seed_memory
 * and the layer metrics (plan-policy.h LAYER_METRICS).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "seed-rows.h"
#include "sink.h"

struct seed_start_row {
	long long pid, fork_ns, init_ns, first_call_ns;
	const char *layer;
};

static const struct sink_column seed_start_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct seed_start_row, pid),
	SINK_TEXT(struct seed_start_row, layer),
	SINK_INT(struct seed_start_row, fork_ns),
	SINK_INT(struct seed_start_row, init_ns),
	SINK_INT(struct seed_start_row, first_call_ns),
};
static const struct sink_table seed_start_table = SINK_TABLE("seed_start", seed_start_cols);

struct seed_memory_row {
	long long children, called, pid, pss_kb, uss_kb, private_dirty_kb;
	long long seed_shared_kb, seed_pss_kb;
};

static const struct sink_column seed_memory_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct seed_memory_row, children),
	SINK_INT(struct seed_memory_row, called),
	SINK_INT(struct seed_memory_row, pid),
	SINK_KNOWN(struct seed_memory_row, pss_kb),
	SINK_KNOWN(struct seed_memory_row, uss_kb),
	SINK_KNOWN(struct seed_memory_row, private_dirty_kb),
	SINK_KNOWN(struct seed_memory_row, seed_shared_kb),
	SINK_KNOWN(struct seed_memory_row, seed_pss_kb),
};
static const struct sink_table seed_memory_table = SINK_TABLE("seed_memory", seed_memory_cols);

void seed_tally_init(struct seed_tally *t, struct sink *sink, const char *layer)
{
	memset(t, 0, sizeof(*t));
	t->sink = sink;
	t->seed_pss_kb = -1;
	snprintf(t->layer, sizeof(t->layer), "%s", layer);
}

void seed_tally_started(struct seed_tally *t, const struct seed_started *s)
{
	struct seed_start_row r = { .pid = s->pid, .fork_ns = s->fork_ns, .init_ns = s->init_ns,
				    .first_call_ns = s->first_call_ns, .layer = t->layer };

	if (t->nstarts < SEED_ROWS_MAX_STARTS)
		t->start_s[t->nstarts++] = (r.fork_ns + r.init_ns + r.first_call_ns) / 1e9;
	t->reported++;
	if (t->sink)
		sink_row(t->sink, &seed_start_table, &r);
}

void seed_tally_memory(struct seed_tally *t, int called, const struct seed_child_mem *kids,
		       int n, long long seed_pss_kb, int frames, const char *why)
{
	struct seed_memory_row r = { .children = n, .called = called, .seed_pss_kb = seed_pss_kb };
	int i;

	if (!t->sink || !n)
		return;
	for (i = 0; i < n; i++) {
		r.pid = kids[i].pid;
		r.pss_kb = kids[i].m.pss_kb;
		r.uss_kb = kids[i].m.uss_kb;
		r.private_dirty_kb = kids[i].m.private_dirty_kb;
		r.seed_shared_kb = frames ? -1 : kids[i].seed_shared_kb;
		sink_row(t->sink, &seed_memory_table, &r);
	}
	if (frames)
		sink_note(t->sink, "seed_shared_kb", why ? why : seed_mem_why(frames));
}

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

void seed_tally_metrics(struct seed_tally *t)
{
	char name[40];

	if (!t->sink)
		return;
	snprintf(name, sizeof(name), "layer_%s_mem_kb", t->layer);
	if (t->seed_pss_kb >= 0)
		sink_metric(t->sink, name, (double)t->seed_pss_kb, "kB");
	else
		sink_skip(t->sink, "the seed did not report its own PSS once seeded: no layer "
			  "memory");
	if (!strcmp(t->layer, "warm"))
		return;           /* the planner takes a warm start from the calls */
	snprintf(name, sizeof(name), "layer_%s_start_s", t->layer);
	if (!t->nstarts) {
		sink_skip(t->sink, "no child reported its first call: no layer start time");
		return;
	}
	qsort(t->start_s, (size_t)t->nstarts, sizeof(double), cmp_double);
	sink_metric(t->sink, name, t->start_s[t->nstarts / 2], "s");
	if (t->reported > t->nstarts) {
		char v[96];

		snprintf(v, sizeof(v), "the median of the first %d of %lld starts", t->nstarts,
			 t->reported);
		sink_note(t->sink, "layer_start_s", v);
	}
}
