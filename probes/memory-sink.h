/* SPDX-License-Identifier: MIT */
/*
 * memory-sink.h - the memory_sample table (results-schema/006) and a
 * growing in-memory series of its rows, kept by the hostmem and ksm probes
 * while they sample and written with sink_row() in the cell window's emit
 * (so that sampling never waits on the database).
 */
#ifndef CVMBENCH_MEMORY_SINK_H
#define CVMBENCH_MEMORY_SINK_H

#include <pthread.h>
#include <stddef.h>

#include "sink.h"

/* One value of one source at one instant; strings are literals. */
struct memory_sample_row {
	long long t_ns;
	const char *source;
	long long instance, pid;      /* < 0: host-wide (NULL) */
	const char *name;
	double value;
	const char *unit;
};

struct memory_series {
	struct memory_sample_row *v;
	size_t n, cap;
	pthread_mutex_t mu;           /* the sampler thread adds, emit reads */
};

extern const struct sink_table memory_sample_table;

/** memory_series_init() - an empty series. */
void memory_series_init(struct memory_series *s);
/** memory_series_add() - append @r (under the series' lock). 0 or -ENOMEM. */
int memory_series_add(struct memory_series *s, const struct memory_sample_row *r);
/** memory_series_emit() - write every row to @sink. 0 or the first -errno. */
int memory_series_emit(struct memory_series *s, struct sink *sink);
/** memory_series_free() - drop the rows. */
void memory_series_free(struct memory_series *s);

#endif
