// SPDX-License-Identifier: MIT
/*
 * memory-sink.c - the memory_sample table declared for the sink, and the
 * series the memory probes buffer its rows in (memory-sink.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "memory-sink.h"

static const struct sink_column cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct memory_sample_row, t_ns),
	SINK_TEXT(struct memory_sample_row, source),
	SINK_KNOWN(struct memory_sample_row, instance),
	SINK_KNOWN(struct memory_sample_row, pid),
	SINK_TEXT(struct memory_sample_row, name),
	SINK_REAL(struct memory_sample_row, value),
	SINK_TEXT(struct memory_sample_row, unit),
};

const struct sink_table memory_sample_table = SINK_TABLE("memory_sample", cols);

void memory_series_init(struct memory_series *s)
{
	s->v = NULL;
	s->n = s->cap = 0;
	pthread_mutex_init(&s->mu, NULL);
}

int memory_series_add(struct memory_series *s, const struct memory_sample_row *r)
{
	struct memory_sample_row *v;
	int ret = 0;

	pthread_mutex_lock(&s->mu);
	if (s->n == s->cap) {
		size_t cap = s->cap ? 2 * s->cap : 256;

		v = realloc(s->v, cap * sizeof(*v));
		if (!v) {
			ret = -ENOMEM;
			goto out;
		}
		s->v = v;
		s->cap = cap;
	}
	s->v[s->n++] = *r;
out:
	pthread_mutex_unlock(&s->mu);
	return ret;
}

int memory_series_emit(struct memory_series *s, struct sink *sink)
{
	int64_t id;
	size_t i;
	int ret = 0;

	pthread_mutex_lock(&s->mu);
	for (i = 0; i < s->n && !ret; i++) {
		id = sink_row(sink, &memory_sample_table, &s->v[i]);
		if (id < 0)
			ret = (int)id;
	}
	pthread_mutex_unlock(&s->mu);
	return ret;
}

void memory_series_free(struct memory_series *s)
{
	free(s->v);
	s->v = NULL;
	s->n = s->cap = 0;
	pthread_mutex_destroy(&s->mu);
}
