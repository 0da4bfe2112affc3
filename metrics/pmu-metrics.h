/* SPDX-License-Identifier: MIT */
/*
 * pmu-metrics.h - the names under which the pmu probe (pmu.c) stores what
 * it measured, for the probe and the analysis that reads them. Each
 * counted event E of source S (hardware, software, tracepoint) gives the
 * metric "S.E" and its share of the window on a counter "S.E" PMU_RUNNING.
 */
#ifndef CVMBENCH_PMU_METRICS_H
#define CVMBENCH_PMU_METRICS_H

#define PMU_PROBE                  "pmu"
#define PMU_RUNNING                ".running"
/* derived, per window, where the events were counted */
#define PMU_IPC                    "instructions_per_cycle"
#define PMU_MPKI_PREFIX            "mpki."
/* notes (cell_param "pmu.KEY") */
#define PMU_NOTE_SCOPE             "scope"
#define PMU_NOTE_EVENTS            "encodings"
#define PMU_NOTE_RESOLVER          "resolver"
#define PMU_NOTE_FALLBACK          "fallback"

#endif
