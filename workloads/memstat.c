// SPDX-License-Identifier: MIT
/*
 * memstat.c - RSS and PSS of a process from /proc/PID/smaps_rollup.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "memstat.h"

static void scan_file(const char *path, struct memstat *m)
{
	char line[256];
	FILE *f = fopen(path, "re");

	if (!f)
		return;
	while (fgets(line, sizeof(line), f)) {
		if (m->rss_kb < 0 && sscanf(line, "Rss: %ld kB", &m->rss_kb) == 1)
			continue;
		if (m->pss_kb < 0 && sscanf(line, "Pss: %ld kB", &m->pss_kb) == 1)
			continue;
		if (m->rss_kb < 0)
			sscanf(line, "VmRSS: %ld kB", &m->rss_kb);
	}
	fclose(f);
}

int memstat_read(pid_t pid, struct memstat *m)
{
	char path[64];

	m->rss_kb = -1;
	m->pss_kb = -1;
	if (pid)
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pid);
	else
		snprintf(path, sizeof(path), "/proc/self/smaps_rollup");
	scan_file(path, m);
	if (m->rss_kb < 0) {
		if (pid)
			snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
		else
			snprintf(path, sizeof(path), "/proc/self/status");
		scan_file(path, m);
	}
	return m->rss_kb < 0 ? -ENOENT : 0;
}
