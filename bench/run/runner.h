/* SPDX-License-Identifier: MIT */
/*
 * runner.h - `cvmbench run`: load a config, expand it, and measure each
 * cell into the database (cell-run.c does one cell).
 */
#ifndef CVMBENCH_RUNNER_H
#define CVMBENCH_RUNNER_H

#include "runner-opts.h"

/** runner_run() - the whole run; returns an exit code (exitcode.h). */
int runner_run(const struct runner_opts *o);

#endif
