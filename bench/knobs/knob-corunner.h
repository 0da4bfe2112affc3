/* SPDX-License-Identifier: MIT */
/*
 * knob-corunner.h - the `corunner` key (knob-corunner.c): its process,
 * for the cell's placement checks.
 */
#ifndef CVMBENCH_KNOB_CORUNNER_H
#define CVMBENCH_KNOB_CORUNNER_H

#include <sys/types.h>

#include "knob.h"

/** corunner_pid() - the running co-runner's pid, or 0 when there is none. */
pid_t corunner_pid(void);

#endif
