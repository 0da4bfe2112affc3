/* SPDX-License-Identifier: MIT */
/*
 * probe-window.h - one probe around one window, the same wherever it runs
 * (in cvmbench for host probes, in the agent for instance probes): a failed
 * start or stop turns the window into a skip row, and no rows are emitted
 * for it.
 */
#ifndef CVMBENCH_PROBE_WINDOW_H
#define CVMBENCH_PROBE_WINDOW_H

#include "probe.h"
#include "sink.h"

/*
 * Each returns 0, or the probe's -errno after writing the skip row through
 * @s ("invocation SEQ window: start failed: REASON"). @seq is the window's
 * invocation number, ignored for the cell window.
 */

/** probe_window_start() - start @p for window @w (if it wants @w). */
int probe_window_start(struct probe *p, enum probe_window w, long seq, struct sink *s);
/** probe_window_stop() - stop @p, unless its start failed. */
int probe_window_stop(struct probe *p, enum probe_window w, long seq, struct sink *s);
/**
 * probe_window_emit() - the rows of the window just stopped, unless it was
 * skipped (then 0, and the window is cleared for the next one).
 */
int probe_window_emit(struct probe *p, enum probe_window w, long seq, struct sink *s);

#endif
