/* SPDX-License-Identifier: MIT */
/*
 * cell-check.h - can a cell run on this machine, and why not: the one
 * decision behind `cvmbench list` and `cvmbench run`, taken before a run
 * spends anything on the cell (no workload preparation, no instance).
 */
#ifndef CVMBENCH_CELL_CHECK_H
#define CVMBENCH_CELL_CHECK_H

#include <stddef.h>

#include "cell.h"

/**
 * cell_runnable() - 1 if @c can be measured here; 0 with the reason in
 * @why when its backend is missing or cannot run, or one of its settings
 * (knobs: idle policy, OCI host settings) cannot be applied. Changes nothing.
 */
int cell_runnable(const struct cell *c, char *why, size_t len);
/**
 * cell_probes_runnable() - 1 if every probe of @c can measure here; else 0
 * with "probe NAME: reason" of the first that cannot. Such a cell still
 * runs: the probe's rows are a skip with the same reason.
 */
int cell_probes_runnable(const struct cell *c, char *why, size_t len);

#endif
