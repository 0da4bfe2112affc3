/* SPDX-License-Identifier: MIT */
/*
 * fn-map.h - names of trace functions to dense indexes 0, 1, 2, ... in the
 * order first seen (open addressing, FNV-1a). Memory is the number of
 * distinct names, never the number of invocations.
 */
#ifndef CVMBENCH_FN_MAP_H
#define CVMBENCH_FN_MAP_H

#include <stddef.h>
#include <stdint.h>

struct fn_map {
	char **name;             /* name[i]: the name of index i */
	size_t n, cap_names;
	uint32_t *slot;          /* index + 1, 0 = empty */
	size_t nslot;
};

/**
 * fn_map_get() - the index of @name (length @len), added when @add and new.
 * Returns the index, -ENOENT (absent, !@add) or -ENOMEM.
 */
long fn_map_get(struct fn_map *m, const char *name, size_t len, int add);
/** fn_map_free() - free @m and its names. */
void fn_map_free(struct fn_map *m);

#endif
