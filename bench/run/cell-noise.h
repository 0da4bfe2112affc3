/* SPDX-License-Identifier: MIT */
/* cell-noise.h - the machine's load around a cell, stored as its metrics. */
#ifndef CVMBENCH_CELL_NOISE_H
#define CVMBENCH_CELL_NOISE_H

#include "cell-ctx.h"
#include "noise.h"

int cell_noise_store(const struct cell_ctx *ctx, const struct noise *n);

#endif
