/* SPDX-License-Identifier: MIT */
/*
 * plan-map.h - which measured function (workload) stands for each trace
 * function (docs/capacity.md, "Mapping"). The rule: the FNV-1a hash of
 * the trace function's name modulo the number of measured functions (in
 * name order), so the mapping depends on neither the trace's order nor
 * the other functions. A map file overrides it: lines
 * `TRACE_FUNCTION,WORKLOAD` (`*` for every function not named), `#`
 * comments.
 */
#ifndef CVMBENCH_PLAN_MAP_H
#define CVMBENCH_PLAN_MAP_H

#include <stdint.h>

#include "fn-map.h"
#include "plan-inputs.h"

/**
 * plan_map_make() - *@map (malloc'd, fns->n entries): the index into
 * in->wl of each trace function of @fns, by the file @path ("" none) and
 * then the rule; counts each workload's trace functions into the
 * measurements. Returns 0, EXIT_USAGE (a bad line, named) or EXIT_FAILED.
 */
int plan_map_make(const struct fn_map *fns, struct plan_inputs *in, const char *path,
		  uint32_t **map);

#endif
