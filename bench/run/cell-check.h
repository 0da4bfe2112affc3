/* SPDX-License-Identifier: MIT */
/*
 * cell-check.h - can a cell run on this machine, and why not: the one
 * decision behind `cvmbench list` and `cvmbench run`, taken before a run
 * spends anything on the cell (no workload preparation, no instance); and
 * which of its probes a run would record as skips.
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
/* Called with each probe a run of the cell would skip, and why. */
typedef void (*cell_probe_skip_fn)(void *ctx, const char *probe, const char *why);

/**
 * cell_probe_skips() - each probe of @c's `probes =` whose rows a run
 * would store as a skip before measuring anything: not a probe of this
 * build, not supported here (probe_ops.supported), or unable to measure
 * this cell under the accelerator its backend will choose (probe_ops.
 * cell_supported with backend_cell_accel(): vmexit on a cell that runs no
 * VM, or runs it under TCG). @fn(@ctx, name, reason) for each, in the
 * cell's order; returns how many. Such a cell still runs; the reasons are
 * the ones the run stores (probe-set.c asks the same functions). A run of
 * accel = auto where /dev/kvm opens may still fall back to TCG (qemu-accel.c):
 * that skip is known only once the VM started.
 */
size_t cell_probe_skips(const struct cell *c, cell_probe_skip_fn fn, void *ctx);

#endif
