/* SPDX-License-Identifier: MIT */
/*
 * pmu-events.h - event names of the pmu probe turned into perf_event_attr:
 * by libpfm4 (pfm_get_os_event_encoding, PFM_OS_PERF_EVENT_EXT) when built
 * with it, else by a small built-in table of the kernel's generic events
 * (the default set and the software fallback; the guest agent is built
 * without optional libraries and uses it).
 */
#ifndef CVMBENCH_PMU_EVENTS_H
#define CVMBENCH_PMU_EVENTS_H

/* libpfm4 carries its own copy of the kernel's header: one of the two. */
#ifdef HAVE_LIBPFM
#include <perfmon/pfmlib_perf_event.h>
#else
#include <linux/perf_event.h>
#endif
#include <stddef.h>

#define PMU_MAX_EVENTS 16

struct pmu_event {
	char name[96];            /* as asked (config, or the default set) */
	char canon[192];          /* libpfm4's fully qualified name, or the table's */
	struct perf_event_attr attr;
};

/* The default set (hardware) and the fallback where it cannot be counted. */
extern const char *const pmu_default_hw[];
extern const size_t pmu_default_hw_count;
extern const char *const pmu_default_sw[];
extern const size_t pmu_default_sw_count;

/**
 * pmu_event_resolve() - encode @name into @e, counting user and kernel
 * (unless the name's own modifiers say otherwise). Returns 0, or -ENOENT
 * with the reason in @err (an unknown name), or another -errno.
 */
int pmu_event_resolve(const char *name, struct pmu_event *e, char *err, size_t len);
/**
 * pmu_event_builtin() - @name from the built-in table only (type and
 * config; no attr defaults): 0, or -ENOENT when the table lacks it.
 */
int pmu_event_builtin(const char *name, struct pmu_event *e);
/**
 * pmu_event_check() - the config check of key pmu-events: 0 if @name
 * resolves here, else -EINVAL with the reason in @err.
 */
int pmu_event_check(const char *name, char *err, size_t len);
/** pmu_event_source() - "software", "tracepoint" or "hardware" for @e. */
const char *pmu_event_source(const struct pmu_event *e);
/** pmu_event_unit() - "ns" for the clock events, "count" for the rest. */
const char *pmu_event_unit(const struct pmu_event *e);
/** pmu_event_resolver() - "libpfm4 X.Y" or "built-in table (no libpfm4)". */
const char *pmu_event_resolver(void);

#endif
