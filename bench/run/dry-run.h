/* SPDX-License-Identifier: MIT */
/* dry-run.h - the cells of a config as `cvmbench run --dry-run` lists them. */
#ifndef CVMBENCH_DRY_RUN_H
#define CVMBENCH_DRY_RUN_H

#include <stddef.h>
#include <stdio.h>

#include "cell.h"

int dry_run_print(FILE *f, const struct cell *cells, size_t n, int verbose);

#endif
