// SPDX-License-Identifier: MIT
/*
 * compare-find.c - where one cell stands in what cmp_pairs() made: the
 * confidential (or other) side of a compared pair, the baseline of one,
 * a side of a refused pair, or none. For a figure that draws cells of one
 * run and puts beside each what `compare` says of its pair (the
 * vmexit-rate figure), so that it takes compare's numbers, never its own.
 */
#include <stdint.h>
#include <string.h>

#include <cjson/cJSON.h>

#include "compare.h"
#include "summary.h"

/* Whether the cells array @arr (cells_json: run, cell_key) holds the cell. */
static int holds(const cJSON *arr, int64_t run, const char *cell_key)
{
	const cJSON *c, *k;

	cJSON_ArrayForEach(c, arr) {
		k = cJSON_GetObjectItem(c, "cell_key");
		if (summary_id(c, "run") == run &&
		    cJSON_IsString(k) && !strcmp(k->valuestring, cell_key))
			return 1;
	}
	return 0;
}

/**
 * cmp_pair_of() - the pair of @top (cmp_pairs() of one database) that
 * holds the cell @cell_key of run @run, and in *@role how: CMP_ROLE_SIDE
 * (its "cells"), CMP_ROLE_BASE (its "base_cells"), each or'ed with
 * CMP_ROLE_REFUSED when the pair is in "refused". A cell that is the side
 * of one pair and the baseline of none is found as the side first.
 * Returns the pair, or NULL (*@role = 0) when no pair holds the cell.
 */
const cJSON *cmp_pair_of(const cJSON *top, int64_t run, const char *cell_key, int *role)
{
	static const char *const lists[] = { "pairs", "refused" };
	static const char *const arrs[] = { "cells", "base_cells" };
	const cJSON *p;
	size_t l, a;

	for (a = 0; a < 2; a++)
		for (l = 0; l < 2; l++)
			cJSON_ArrayForEach(p, cJSON_GetObjectItem(top, lists[l])) {
				if (!holds(cJSON_GetObjectItem(p, arrs[a]), run, cell_key))
					continue;
				*role = (a ? CMP_ROLE_BASE : CMP_ROLE_SIDE) |
					(l ? CMP_ROLE_REFUSED : 0);
				return p;
			}
	*role = 0;
	return NULL;
}
