/* SPDX-License-Identifier: MIT */
/*
 * idle-metrics.h - the names under which the idle probe (idle.c) stores
 * what it measured, for the probe that writes them and the analysis that
 * reads them (analysis/idle-cells.c, cell-label.c). Plain string literals:
 * they concatenate into SQL. Meanings: docs/probes/idle.md.
 */
#ifndef CVMBENCH_IDLE_METRICS_H
#define CVMBENCH_IDLE_METRICS_H

#define IDLE_PROBE                 "idle"
/* metric.name, per cell */
#define IDLE_ENTRIES               "idle_entries"
#define IDLE_ENTRIES_PER_S         "idle_entries_per_s"
#define IDLE_ENTRIES_PER_FN_S      "idle_entries_per_fn_s"
#define IDLE_HALT_PER_INVOCATION   "halt_entries_per_invocation"
/* a note (sink_note), stored as cell_param IDLE_PROBE "." IDLE_NOTE_SOURCE */
#define IDLE_NOTE_SOURCE           "entries_source"

#endif
