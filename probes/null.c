// SPDX-License-Identifier: MIT
/*
 * null.c - the probe that measures nothing but its own bracketing: it
 * counts the windows the runner opened and closed around it, and those
 * whose target named the instances' processes when they closed, so that
 * the harness can be tested on its own (counts the tests know in advance).
 * Per invocation window it emits `window`, the window's number (from 0);
 * per cell `windows_started` and `windows_stopped` (calls of start and stop)
 * and `windows_with_pids`.
 *
 * Side: instance. It runs through the agent, so its rows prove the agent
 * path carried every window. CVMBENCH_NULL_FAIL=start:N,stop:M,start:cell
 * (test only) makes start or stop fail on the N-th invocation window
 * (from 0) or on the cell window, to test that such a window is skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "probe.h"
#include "sink.h"

#define FAIL_ENV "CVMBENCH_NULL_FAIL"

struct null_state {
	long started, stopped;    /* calls of start and stop (invocation windows) */
	long window;              /* the current invocation window's number */
	long with_pids;           /* invocation windows whose target named instances */
};

static int null_open(struct probe *p)
{
	p->priv = calloc(1, sizeof(struct null_state));
	return p->priv ? 0 : -ENOMEM;
}

/* Does CVMBENCH_NULL_FAIL ask @op to fail on window @n (-1: the cell)? */
static int fail_here(const char *op, long n)
{
	const char *spec = getenv(FAIL_ENV);
	char want[48];
	size_t len;

	if (!spec)
		return 0;
	if (n < 0)
		len = (size_t)snprintf(want, sizeof(want), "%s:cell", op);
	else
		len = (size_t)snprintf(want, sizeof(want), "%s:%ld", op, n);
	for (; (spec = strstr(spec, want)); spec += len)
		if (spec[len] == ',' || !spec[len])
			return 1;
	return 0;
}

static int null_start(struct probe *p, enum probe_window w)
{
	struct null_state *st = p->priv;
	long n = -1;

	if (w == PROBE_WINDOW_INVOCATION)
		n = st->window = st->started++;
	if (fail_here("start", n))
		return probe_error(p, -EIO, "start failed on purpose (" FAIL_ENV ")");
	return 0;
}

static int null_stop(struct probe *p, enum probe_window w)
{
	struct null_state *st = p->priv;
	long n = -1;

	if (w == PROBE_WINDOW_INVOCATION) {
		st->stopped++;
		st->with_pids += p->target->npids > 0 && p->target->pids[0] > 0;
		n = st->window;
	}
	if (fail_here("stop", n))
		return probe_error(p, -EIO, "stop failed on purpose (" FAIL_ENV ")");
	return 0;
}

static int null_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct null_state *st = p->priv;

	if (w == PROBE_WINDOW_INVOCATION)
		return sink_metric(s, "window", (double)st->window, "count");
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
	.side = PROBE_INSTANCE,
	.open = null_open,
	.start = null_start,
	.stop = null_stop,
	.emit = null_emit,
	.close = null_close,
};
