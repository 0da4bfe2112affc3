// SPDX-License-Identifier: MIT
/* plan-map.c - trace functions to measured functions (plan-map.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "plan-map.h"

#define UNMAPPED UINT32_MAX

static uint64_t name_hash(const char *s)
{
	uint64_t h = 1469598103934665603ULL;

	while (*s) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

static long wl_index(const struct plan_inputs *in, const char *wl)
{
	int i;

	for (i = 0; i < in->nwl; i++)
		if (!strcmp(in->wl[i], wl))
			return i;
	return -1;
}

/* One `TRACE_FUNCTION,WORKLOAD` line into @map (@all: the `*` entry). */
static int map_line(const struct fn_map *fns, const struct plan_inputs *in, char *line,
		    const char *where, uint32_t *map, long *all)
{
	char *comma = strchr(line, ','), *wl;
	long w, f;

	line[strcspn(line, "\r\n")] = '\0';
	if (!*line || *line == '#')
		return 0;
	if (!comma) {
		pr_err("%s: '%s': want TRACE_FUNCTION,WORKLOAD", where, line);
		return EXIT_USAGE;
	}
	*comma = '\0';
	wl = comma + 1;
	w = wl_index(in, wl);
	if (w < 0) {
		pr_err("%s: workload '%s' is not a measured function of this plan", where, wl);
		return EXIT_USAGE;
	}
	if (!strcmp(line, "*")) {
		*all = w;
		return 0;
	}
	f = fn_map_get((struct fn_map *)fns, line, strlen(line), 0);
	if (f >= 0)
		map[f] = (uint32_t)w;
	else
		pr_warn("%s: trace function '%s' is not in the trace: line ignored", where, line);
	return 0;
}

static int read_file(const struct fn_map *fns, const struct plan_inputs *in,
		     const char *path, uint32_t *map, long *all)
{
	char line[1024], where[1100];
	FILE *f = fopen(path, "r");
	int n = 0, r = 0;

	if (!f) {
		pr_err("plan: map %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	while (!r && fgets(line, sizeof(line), f)) {
		snprintf(where, sizeof(where), "%s:%d", path, ++n);
		r = map_line(fns, in, line, where, map, all);
	}
	fclose(f);
	return r;
}

int plan_map_make(const struct fn_map *fns, struct plan_inputs *in, const char *path,
		  uint32_t **out)
{
	uint32_t *map = malloc((fns->n ? fns->n : 1) * sizeof(*map));
	long all = -1;
	size_t f;
	int p, r = 0;

	if (!map)
		return EXIT_FAILED;
	for (f = 0; f < fns->n; f++)
		map[f] = UNMAPPED;
	if (*path)
		r = read_file(fns, in, path, map, &all);
	for (f = 0; f < fns->n && !r; f++) {
		if (map[f] == UNMAPPED)
			map[f] = all >= 0 ? (uint32_t)all
				: (uint32_t)(name_hash(fns->name[f]) % (uint64_t)in->nwl);
		for (p = 0; p < in->nplat; p++)
			in->m[p * in->nwl + map[f]].trace_fns++;
	}
	if (r)
		free(map);
	else
		*out = map;
	return r;
}
