// SPDX-License-Identifier: MIT
/*
 * tests/unit/tpcount-cost.c - the engine's measured cost per event
 * (bench/lib/tpcount-cost.c), which the vmexit probe stores with its rows:
 * a positive figure for 40 perf-filter counters and for the bpf method
 * with 40 values, the bpf method the cheaper by far (the reason it is the
 * default: about 130 ns against 1.1 us here, docs/performance.md), and a
 * second call answered from the cache. Needs root (perf tracepoint
 * counters, bpf), tracefs and perf tracepoint counters: SKIP with the
 * reason otherwise (also where the kernel refuses the bpf program).
 */
#include <errno.h>
#include <stdio.h>
#include <unistd.h>

#include "tap.h"
#include "tpcount-cost.h"
#include "tracefs-find.h"

static void skip_rest(int n, const char *why)
{
	while (n-- > 0)
		printf("ok %d # SKIP %s\n", ++tap_count, why);
}

int main(void)
{
	char why[512] = "";
	double perf = 0, bpf = 0, again = -1;
	int rp, rb;

	tap_plan(4);
	if (geteuid() || !tracefs_usable(why, sizeof(why))) {
		skip_rest(4, geteuid() ? "needs root (perf tracepoint counters)" : why);
		return tap_done();
	}
	rp = tpcount_cost_shape(TPCOUNT_PERF_FILTER, 40, &perf, why, sizeof(why));
	if (rp == -EACCES || rp == -EPERM || rp == -ENOSYS || rp == -ENODEV ||
	    rp == -EOPNOTSUPP || rp == -ENOENT) {
		skip_rest(4, why);    /* perf refused, or no raw_syscalls event */
		return tap_done();
	}
	tap_ok(!rp && perf > 0, "40 perf-filter counters: %.0f ns per event (%s)", perf, why);
	rb = tpcount_cost_shape(TPCOUNT_BPF, 40, &bpf, why, sizeof(why));
	if (rb) {
		skip_rest(3, why);
		return tap_done();
	}
	tap_ok(bpf > 0, "bpf, 40 values: %.0f ns per event", bpf);
	tap_ok(bpf * 2 < perf, "bpf costs less than half of 40 perf counters (%.0f, %.0f ns)",
	       bpf, perf);
	tpcount_cost_shape(TPCOUNT_BPF, 40, &again, why, sizeof(why));
	tap_ok(again == bpf, "asked again: the figure measured, from the cache");
	return tap_done();
}
