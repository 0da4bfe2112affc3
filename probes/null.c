// SPDX-License-Identifier: MIT
/*
 * null.c - the probe that measures nothing but its own bracketing: it
 * counts the windows the runner opened and closed around it, and those
 * whose target named the instances' processes when they closed, so that
 * the harness can be tested on its own (counts the tests know in advance).
 */
#include <stdlib.h>

#include "probe.h"
#include "sink.h"

struct null_state {
	long started, stopped, with_pids;
};

static int null_open(struct probe *p)
{
	p->priv = calloc(1, sizeof(struct null_state));
	return p->priv ? 0 : -1;
}

static int null_start(struct probe *p, enum probe_window w)
{
	struct null_state *st = p->priv;

	if (w == PROBE_WINDOW_INVOCATION)
		st->started++;
	return 0;
}

static int null_stop(struct probe *p, enum probe_window w)
{
	struct null_state *st = p->priv;

	if (w == PROBE_WINDOW_INVOCATION) {
		st->stopped++;
		st->with_pids += p->target->npids > 0 && p->target->pids[0] > 0;
	}
	return 0;
}

static int null_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct null_state *st = p->priv;

	if (w != PROBE_WINDOW_CELL)
		return 0;
	return sink_metric(s, "windows_started", (double)st->started, "count") ?:
	       sink_metric(s, "windows_stopped", (double)st->stopped, "count") ?:
	       sink_metric(s, "windows_with_pids", (double)st->with_pids, "count");
}

static void null_close(struct probe *p)
{
	free(p->priv);
}

const struct probe_ops probe_null = {
	.version = PROBE_OPS_VERSION,
	.name = "null",
	.measures = "counts the invocation windows the runner bracketed (harness self-test)",
	.windows = PROBE_WINDOW_CELL | PROBE_WINDOW_INVOCATION,
	.open = null_open,
	.start = null_start,
	.stop = null_stop,
	.emit = null_emit,
	.close = null_close,
};
