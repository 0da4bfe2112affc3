// SPDX-License-Identifier: MIT
/*
 * latency.c - per-cell latency summary: median, quartiles, p90, p99, mean,
 * deviation and the median's 95 % CI of the round trips the runner timed
 * (CLOCK_MONOTONIC around request and reply), of the function's own time
 * inside cvmfn, and of their difference: what the harness itself adds.
 *
 * Side: host. It summarises the round trips the runner timed; the function
 * times come with each reply, not from the instance's machine.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>

#include "probe.h"
#include "sink.h"
#include "stats.h"

static int emit_summary(struct sink *s, const char *what, double *v, size_t n)
{
	static const struct { const char *name; size_t off; } fields[] = {
		{ "min", offsetof(struct stats_summary, min) },
		{ "p25", offsetof(struct stats_summary, p25) },
		{ "median", offsetof(struct stats_summary, median) },
		{ "p75", offsetof(struct stats_summary, p75) },
		{ "p5", offsetof(struct stats_summary, p5) },
		{ "p95", offsetof(struct stats_summary, p95) },
		{ "p99", offsetof(struct stats_summary, p99) },
		{ "max", offsetof(struct stats_summary, max) },
		{ "mean", offsetof(struct stats_summary, mean) },
		{ "stddev", offsetof(struct stats_summary, stddev) },
		{ "median_ci_low", offsetof(struct stats_summary, ci_lo) },
		{ "median_ci_high", offsetof(struct stats_summary, ci_hi) },
	};
	struct stats_summary sum;
	char name[64];
	size_t i;
	int err = 0;

	stats_summarize(v, n, &sum);
	for (i = 0; i < sizeof(fields) / sizeof(fields[0]) && !err; i++) {
		snprintf(name, sizeof(name), "%s_%s", what, fields[i].name);
		err = sink_metric(s, name, *(double *)((char *)&sum + fields[i].off), "ns");
	}
	return err;
}

static int latency_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	const struct probe_target *t = p->target;
	size_t n = t->nresults, i;
	double *buf;
	int err;

	if (w != PROBE_WINDOW_CELL || !n)
		return 0;
	buf = malloc(n * sizeof(*buf));
	if (!buf)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		buf[i] = t->latency_ns[i];
	err = emit_summary(s, "round_trip", buf, n);
	for (i = 0; i < n; i++)
		buf[i] = t->fn_ns[i];
	err = err ?: emit_summary(s, "function", buf, n);
	for (i = 0; i < n; i++)
		buf[i] = t->latency_ns[i] - t->fn_ns[i];
	err = err ?: emit_summary(s, "overhead", buf, n);
	err = err ?: sink_metric(s, "samples", (double)n, "count");
	free(buf);
	return err;
}

const struct probe_ops probe_latency = {
	.version = PROBE_OPS_VERSION,
	.name = "latency",
	.measures = "round trip (harness clock) and function time (cvmfn clock) per cell: "
		    "quantiles, mean, 95% CI of the median",
	.windows = PROBE_WINDOW_CELL,
	.side = PROBE_HOST,
	.emit = latency_emit,
};
