/* SPDX-License-Identifier: MIT */
/*
 * plan-num.h - the numbers on the planner's command lines: a plain number
 * in a range, a seed, a duration (600, 600s, 10m, 4h) and a memory size
 * (512MiB, 8GiB; a bare number is MiB). Each says what is wrong, naming
 * the option, and returns EXIT_USAGE; 0 when the value is good.
 */
#ifndef CVMBENCH_PLAN_NUM_H
#define CVMBENCH_PLAN_NUM_H

#include <stdint.h>

int plan_num(const char *opt, const char *arg, double min, double max, double *out);
int plan_seed(const char *opt, const char *arg, uint64_t *out);
/** plan_seconds() - a duration in seconds; "inf" allowed when @inf_ok. */
int plan_seconds(const char *opt, const char *arg, int inf_ok, double *out);
/** plan_bytes() - a memory size in bytes (> 0). */
int plan_bytes(const char *opt, const char *arg, double *out);

#endif
