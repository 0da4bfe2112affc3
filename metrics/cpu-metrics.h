/* SPDX-License-Identifier: MIT */
/*
 * cpu-metrics.h - the names under which the cpu probe (cpu.c) stores what
 * it measured, for the probe and the analysis that reads them
 * (analysis/idle-cells.c). Plain string literals: they concatenate into SQL.
 */
#ifndef CVMBENCH_CPU_METRICS_H
#define CVMBENCH_CPU_METRICS_H

#define CPU_PROBE                  "cpu"
/* metric.name, per cell */
#define CPU_BURNT                  "burnt"
#define CPU_BURNT_PCT              "burnt_pct"

#endif
