/* SPDX-License-Identifier: MIT */
/*
 * knob-corunner.h - the `corunner` key (knob-corunner.c): its process,
 * for the cell's placement checks, and what its kv kind stores, shared with
 * the co-runner VM's knob (knob-corunner-vm.c).
 */
#ifndef CVMBENCH_KNOB_CORUNNER_H
#define CVMBENCH_KNOB_CORUNNER_H

#include <sys/types.h>

#include "knob.h"

/** corunner_in_vm() - corunner-in = vm: the co-runner VM's knob runs it, not this one. */
int corunner_in_vm(const struct cell *c);
/**
 * corunner_kv_put_window() - a kv co-runner's requests/s in the cell
 * window through @s: @rps over @rows results, the window widened by
 * @widened_ms (corunner.kv_requests_per_s, _results, _widened_ms).
 */
void corunner_kv_put_window(const struct knob_sink *s, double rps, int rows, long widened_ms);
/**
 * corunner_kv_put_alone() - its requests/s alone, before the cell's
 * instances (corunner.kv_alone_*), or a skip row when @ret says no round
 * ended in that window (corunner_kv_alone()).
 */
void corunner_kv_put_alone(const struct knob_sink *s, int ret, double rps, int rows,
			   long widened_ms);
/** corunner_pid() - the running co-runner's pid, or 0 when there is none. */
pid_t corunner_pid(void);

#endif
