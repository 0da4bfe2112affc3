// SPDX-License-Identifier: MIT
/*
 * tests/unit/tpcount-cost.c - the engine's measured cost per event
 * (tracing/tpcount-shape.c), which the vmexit probe stores with its rows:
 * a positive figure within its paired interval for 40 perf-filter
 * counters and for the bpf method
 * with 40 values, the bpf method the cheaper by far (the reason it is the
 * default: about 130 ns against 1.1 us here, docs/performance.md), and a
 * second call answered from the cache. Needs root (perf tracepoint
 * counters, bpf), tracefs already mounted (a unit test has no journal to
 * mount it with) and perf tracepoint counters: SKIP with the reason
 * otherwise, also where the kernel refuses the bpf program (EPERM, EACCES,
 * ENOSYS, EOPNOTSUPP); any other error is a failure.
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "tap.h"
#include "tpcount-shape.h"
#include "tracefs-find.h"

static void skip_rest(int n, const char *why)
{
	while (n-- > 0)
		printf("ok %d # SKIP %s\n", ++tap_count, why);
}

int main(void)
{
	struct tracefs_place place;
	char why[512] = "";
	struct tpcount_shape_cost perf = { 0 }, bpf = { 0 }, again = { 0 };
	int rp, rb;

	tap_plan(4);
	if (geteuid()) {
		skip_rest(4, "needs root (perf tracepoint counters)");
		return tap_done();
	}
	if (!tracefs_find(&place) || !place.mounted) {
		skip_rest(4, "tracefs is not mounted (a unit test does not mount it)");
		return tap_done();
	}
	rp = tpcount_shape_cost(TPCOUNT_PERF_FILTER, 40, &perf, why, sizeof(why));
	if (rp == -EACCES || rp == -EPERM || rp == -ENOSYS || rp == -ENODEV ||
	    rp == -EOPNOTSUPP || rp == -ENOENT) {
		skip_rest(4, why);    /* perf refused, or no raw_syscalls event */
		return tap_done();
	}
	if (rp)
		tap_ok(0, "40 perf-filter counters: error %d (%s)", rp, why);
	else
		tap_ok(perf.ns > 0 && perf.lo <= perf.ns && perf.ns <= perf.hi,
		       "40 perf-filter counters: %.0f ns per event, within its interval "
		       "%.0f .. %.0f ns over %zu pairs", perf.ns, perf.lo, perf.hi, perf.pairs);
	rb = tpcount_shape_cost(TPCOUNT_BPF, 40, &bpf, why, sizeof(why));
	if (rb == -EPERM || rb == -EACCES || rb == -ENOSYS || rb == -EOPNOTSUPP) {
		skip_rest(3, why);    /* the kernel refuses the bpf program */
		return tap_done();
	}
	if (rb)
		tap_ok(0, "bpf, 40 values: error %d (%s)", rb, why);
	else
		tap_ok(bpf.ns > 0 && bpf.lo <= bpf.ns && bpf.ns <= bpf.hi,
		       "bpf, 40 values: %.0f ns per event, within its interval %.0f .. %.0f ns",
		       bpf.ns, bpf.lo, bpf.hi);
	tap_ok(bpf.ns * 2 < perf.ns, "bpf costs less than half of 40 perf counters (%.0f, %.0f ns)",
	       bpf.ns, perf.ns);
	tpcount_shape_cost(TPCOUNT_BPF, 40, &again, why, sizeof(why));
	tap_ok(again.ns == bpf.ns && again.lo == bpf.lo && again.hi == bpf.hi,
	       "asked again: the figures measured, from the cache");
	return tap_done();
}
