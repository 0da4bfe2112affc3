// SPDX-License-Identifier: MIT
/*
 * run-status.c - what a finished run is called. `complete`: every cell
 * measured with every probe. `partial`: cells were measured, but some
 * cells, or some probes of measured cells, were skipped (28 of 32 cells
 * measured is not "skipped", which reads like nothing ran). `skipped`:
 * nothing was measured, every cell was skipped. `failed` and
 * `interrupted` win over the rest. `partial` and `skipped` both exit 3
 * (README). The text form names the counts: "partial: 28 ok, 4 skipped".
 */
#include <stdio.h>

#include "run-status.h"

/**
 * run_status_pick() - the run.status value for the tally @t: interrupted,
 * failed, partial, skipped or complete (see the top of this file).
 */
const char *run_status_pick(const struct run_tally *t)
{
	if (t->interrupted)
		return "interrupted";
	if (t->failed)
		return "failed";
	if (t->ok && (t->skipped || t->probe_skips))
		return "partial";
	if (t->skipped || t->probe_skips)
		return "skipped";
	return "complete";
}

/**
 * run_status_text() - @status with the counts a reader needs to see what
 * ran: "partial: 28 ok, 4 skipped", "complete: 32 ok", "partial: 32 ok,
 * 0 skipped, 4 probe skips", "failed: 30 ok, 1 skipped, 1 failed".
 */
void run_status_text(char *buf, size_t len, const char *status,
		     const struct run_tally *t)
{
	int l = snprintf(buf, len, "%s: %d ok", status, t->ok);

	if ((t->skipped || t->probe_skips || t->failed) && l >= 0 && (size_t)l < len)
		l += snprintf(buf + l, len - l, ", %d skipped", t->skipped);
	if (t->failed && l >= 0 && (size_t)l < len)
		l += snprintf(buf + l, len - l, ", %d failed", t->failed);
	if (t->probe_skips && l >= 0 && (size_t)l < len)
		snprintf(buf + l, len - l, ", %d probe skip%s", t->probe_skips,
			 t->probe_skips == 1 ? "" : "s");
}
