// SPDX-License-Identifier: MIT
/*
 * cgroup-room.c - the memory controller's free cgroup IDs, from
 * /proc/cgroups ("memory HIERARCHY NUM_CGROUPS ENABLED"): every new cgroup
 * takes one where the controller is enabled, v1 or v2.
 */
#include <stdio.h>
#include <string.h>

#include "cgroup-room.h"
#include "sysroot.h"

long cgroup_room(char *why, size_t len)
{
	char line[256], name[64];
	long hier, num = -1, enabled = 0;
	FILE *f = sysroot_fopen("/proc/cgroups", "re");

	if (!f) {
		snprintf(why, len, "cannot read /proc/cgroups");
		return -1;
	}
	while (num < 0 && fgets(line, sizeof(line), f))
		if (sscanf(line, "%63s %ld %ld %ld", name, &hier, &num, &enabled) != 4 ||
		    strcmp(name, "memory"))
			num = -1;
	fclose(f);
	if (num < 0 || !enabled) {
		snprintf(why, len, "/proc/cgroups has no enabled memory controller");
		return -1;
	}
	return num >= CGROUP_MEMCG_ID_MAX ? 0 : CGROUP_MEMCG_ID_MAX - num;
}
