// SPDX-License-Identifier: MIT
/*
 * placement-text.c - placement_cpus_text() (bench/knobs/placement.c), the
 * CPU list stored as pin.obtained.* and written into a container's
 * config.json as its cpuset: every other CPU of 0..110 (one NUMA node of a
 * server that numbers CPUs across sockets alternately) came out as
 * "0,2,...,104,10" in a 160-byte buffer, "10" a piece of "106". Now the
 * whole list fits PLACEMENT_CPUS_TEXT_MAX for any set, and a short buffer
 * gets whole entries and ",..." with -ENOSPC. Expected texts are joined
 * here number by number, not by the function's range logic.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "tap.h"

/* "0,2,...,LAST" joined one number at a time. */
static void every_other(cpu_set_t *set, int last, char *want, size_t len)
{
	size_t o = 0;

	CPU_ZERO(set);
	want[0] = '\0';
	for (int cpu = 0; cpu <= last; cpu += 2) {
		CPU_SET(cpu, set);
		o += (size_t)snprintf(want + o, len - o, "%s%d", cpu ? "," : "", cpu);
	}
}

/* Every comma-separated token of @text before ",..." is a CPU of @set. */
static int whole_entries(const char *text, const cpu_set_t *set)
{
	char buf[PLACEMENT_CPUS_TEXT_MAX], *tok, *end, *save = NULL;
	long cpu;

	snprintf(buf, sizeof(buf), "%s", text);
	for (tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "..."))
			return !strtok_r(NULL, ",", &save);
		cpu = strtol(tok, &end, 10);
		if (*end || cpu < 0 || cpu >= CPU_SETSIZE || !CPU_ISSET((int)cpu, set))
			return 0;
	}
	return 1;
}

int main(void)
{
	char want[4096], got[PLACEMENT_CPUS_TEXT_MAX], small[160];
	cpu_set_t set;
	int ret;

	tap_plan(7);
	every_other(&set, 110, want, sizeof(want));
	ret = placement_cpus_text(&set, got, sizeof(got));
	tap_ok(!ret && !strcmp(got, want), "every other CPU of 0..110: the whole list (%zu "
	       "characters)", strlen(got));
	ret = placement_cpus_text(&set, small, sizeof(small));
	tap_ok(ret == -ENOSPC, "in 160 bytes: -ENOSPC (got %d)", ret);
	tap_ok(strlen(small) < sizeof(small) && whole_entries(small, &set) &&
	       !strcmp(small + strlen(small) - 4, ",..."),
	       "  and whole entries, then ',...' ('%s')", small);
	every_other(&set, CPU_SETSIZE - 2, want, sizeof(want));
	ret = placement_cpus_text(&set, got, sizeof(got));
	tap_ok(!ret && !strcmp(got, want), "every other CPU of all %d: fits "
	       "PLACEMENT_CPUS_TEXT_MAX (%zu characters)", CPU_SETSIZE, strlen(got));
	CPU_ZERO(&set);
	for (int cpu = 0; cpu < CPU_SETSIZE; cpu++)
		if (cpu < 4 || cpu == 6)
			CPU_SET(cpu, &set);
	ret = placement_cpus_text(&set, got, sizeof(got));
	tap_ok(!ret && !strcmp(got, "0-3,6"), "CPUs 0, 1, 2, 3 and 6: '0-3,6' ('%s')", got);
	CPU_ZERO(&set);
	ret = placement_cpus_text(&set, got, sizeof(got));
	tap_ok(!ret && !strcmp(got, "none"), "no CPU: 'none' ('%s')", got);
	CPU_SET(1000, &set);
	CPU_SET(1001, &set);
	ret = placement_cpus_text(&set, small, 6);
	tap_ok(ret == -ENOSPC && strlen(small) < 6 && !strstr(small, "100"),
	       "'1000-1001' in 6 bytes: no part of a number ('%s')", small);
	return tap_done();
}
