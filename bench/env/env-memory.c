// SPDX-License-Identifier: MIT
/*
 * env-memory.c - memory size and huge pages from /proc/meminfo: MemTotal,
 * MemAvailable, HugePages_Total, HugePages_Free and Hugepagesize, values as
 * the kernel prints them ("16314028 kB").
 */
#include <stdio.h>
#include <string.h>

#include "env-local.h"

#define MEMINFO "/proc/meminfo"

static const struct {
	const char *field;	/* with its colon */
	const char *key;
} meminfo_facts[] = {
	{ "MemTotal:", "memory.total" },
	{ "MemAvailable:", "memory.available" },
	{ "HugePages_Total:", "memory.hugepages.total" },
	{ "HugePages_Free:", "memory.hugepages.free" },
	{ "Hugepagesize:", "memory.hugepages.size" },
};

#define N_MEMINFO (sizeof(meminfo_facts) / sizeof(meminfo_facts[0]))

/* Store the value of each wanted field of @f in @vals. */
static void meminfo_scan(FILE *f, char vals[][64])
{
	char line[256];
	size_t i;

	while (fgets(line, sizeof(line), f)) {
		for (i = 0; i < N_MEMINFO; i++) {
			size_t n = strlen(meminfo_facts[i].field);
			char *v;

			if (strncmp(line, meminfo_facts[i].field, n))
				continue;
			v = line + n + strspn(line + n, " \t");
			v[strcspn(v, "\n")] = '\0';
			snprintf(vals[i], 64, "%s", v);
		}
	}
}

/**
 * env_collect_memory() - emit the memory.* facts.
 * @s: the sink
 */
void env_collect_memory(const struct env_sink *s)
{
	char vals[N_MEMINFO][64], src[64];
	FILE *f = fopen(MEMINFO, "re");
	size_t i;

	memset(vals, 0, sizeof(vals));
	if (f) {
		meminfo_scan(f, vals);
		fclose(f);
	}
	for (i = 0; i < N_MEMINFO; i++) {
		snprintf(src, sizeof(src), MEMINFO " %s", meminfo_facts[i].field);
		src[strlen(src) - 1] = '\0';
		if (!f)
			env_put_unavail(s, meminfo_facts[i].key, src, "cannot open "
					MEMINFO);
		else if (!vals[i][0])
			env_put_unavail(s, meminfo_facts[i].key, src, "field absent");
		else
			env_put(s, meminfo_facts[i].key, src, "%s", vals[i]);
	}
}
