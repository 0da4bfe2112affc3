// SPDX-License-Identifier: MIT
/*
 * tests/unit/idle-wake.c - the decision whether power:cpu_idle can count
 * idle entries (probes/idle-wake.c): events on every CPU within the time
 * allowed, or the reason with the counts per CPU. The counts come from a
 * fake counter here, so both outcomes are checked on any machine.
 */
#include <stdint.h>
#include <stdio.h>

#include "idle-wake.h"
#include "tap.h"

/* A counter that moves on the CPUs whose flag is set, at every read. */
static void fake_count(void *ctx, uint64_t *out)
{
	static uint64_t n;
	const int *moves = ctx;

	n++;
	out[0] = moves[0] ? n : 7;
	out[1] = moves[1] ? 2 * n : 7;
}

int main(void)
{
	static const int cpus[2] = { 0, 1 }, both[2] = { 1, 1 }, first[2] = { 1, 0 };
	uint64_t seen[2], b_seen[2] = { 26, 0 };
	char why[400];

	tap_plan(6);
	tap_ok(idle_wake_check(cpus, 2, fake_count, (void *)both, 200, seen) == 1 &&
	       seen[0] > 0 && seen[1] > 0, "events on both CPUs: usable");
	tap_ok(idle_wake_check(cpus, 2, fake_count, (void *)first, 100, seen) == 0 &&
	       seen[0] > 0 && seen[1] == 0, "events on cpu0 only: not usable after the timeout");
	tap_ok(idle_wake_verdict(cpus, b_seen, 2, 1000, why, sizeof(why)) == 0,
	       "machine B's counts (26 on cpu0, 0 on cpu1): not usable");
	if (!tap_ok(!strcmp(why, "power:cpu_idle does not fire on every CPU: with a "
			    "sleeper pinned to each CPU for 1000 ms it fired 26 times on "
			    "cpu0 and 0 times on cpu1, so it cannot count idle entries"),
		    "... and the reason names the counts"))
		printf("#   got: %s\n", why);
	b_seen[1] = 1;
	tap_ok(idle_wake_verdict(cpus, b_seen, 2, 1000, why, sizeof(why)) == 1,
	       "one event on each CPU is enough");
	tap_ok(why[0] == '\0', "... with no reason");
	return tap_done();
}
