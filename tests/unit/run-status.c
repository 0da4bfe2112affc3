// SPDX-License-Identifier: MIT
/*
 * tests/unit/run-status.c - the name of a finished run and its words
 * (run-status.c): 28 of 32 cells measured is 'partial', not 'skipped';
 * 'skipped' only when nothing was measured; the text names both counts.
 */
#include <stdio.h>
#include <string.h>

#include "run-status.h"
#include "tap.h"

static void check(struct run_tally t, const char *want_status, const char *want_text)
{
	const char *st = run_status_pick(&t);
	char text[160];

	run_status_text(text, sizeof(text), st, &t);
	tap_ok(!strcmp(st, want_status) && !strcmp(text, want_text),
	       "%d ok, %d skipped, %d failed, %d probe skips, %s: %s (%s)", t.ok, t.skipped,
	       t.failed, t.probe_skips, t.interrupted ? "interrupted" : "finished", text,
	       want_text);
}

int main(void)
{
	tap_plan(7);
	check((struct run_tally){ 28, 4, 0, 0, 0 }, "partial", "partial: 28 ok, 4 skipped");
	check((struct run_tally){ 32, 0, 0, 3, 0 }, "partial",
	      "partial: 32 ok, 0 skipped, 3 probe skips");
	check((struct run_tally){ 0, 4, 0, 0, 0 }, "skipped", "skipped: 0 ok, 4 skipped");
	check((struct run_tally){ 32, 0, 0, 0, 0 }, "complete", "complete: 32 ok");
	check((struct run_tally){ 30, 1, 1, 0, 0 }, "failed",
	      "failed: 30 ok, 1 skipped, 1 failed");
	check((struct run_tally){ 1, 0, 0, 1, 0 }, "partial",
	      "partial: 1 ok, 0 skipped, 1 probe skip");
	check((struct run_tally){ 3, 1, 0, 0, 1 }, "interrupted",
	      "interrupted: 3 ok, 1 skipped");
	return tap_done();
}
