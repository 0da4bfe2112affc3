// SPDX-License-Identifier: MIT
/*
 * pmu-events.c - event names to perf_event_attr (pmu-events.h). With
 * libpfm4 every name it knows (generic perf names such as `cycles`, the
 * host PMU's own events such as `amd64_fam19h_zen4::RETIRED_INSTRUCTIONS`,
 * with modifiers); without it only the built-in generic names below, whose
 * encodings are the kernel's perf ABI (tests/unit/pmu-events.c checks them
 * against libpfm4's).
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pmu-events.h"

const char *const pmu_default_hw[] = {
	"cycles", "instructions", "cache-references", "cache-misses", "branch-misses",
	"dTLB-load-misses",
};
const size_t pmu_default_hw_count = sizeof(pmu_default_hw) / sizeof(pmu_default_hw[0]);

const char *const pmu_default_sw[] = {
	"task-clock", "context-switches", "cpu-migrations", "page-faults", "minor-faults",
	"major-faults",
};
const size_t pmu_default_sw_count = sizeof(pmu_default_sw) / sizeof(pmu_default_sw[0]);

#define HW_CACHE(cache, op, result) \
	((cache) | ((op) << 8) | ((result) << 16))

static const struct {
	const char *name;
	unsigned int type;
	unsigned long long config;
} builtin[] = {
	{ "cycles", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CPU_CYCLES },
	{ "instructions", PERF_TYPE_HARDWARE, PERF_COUNT_HW_INSTRUCTIONS },
	{ "cache-references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES },
	{ "cache-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES },
	{ "branch-misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_BRANCH_MISSES },
	{ "dTLB-load-misses", PERF_TYPE_HW_CACHE,
	  HW_CACHE(PERF_COUNT_HW_CACHE_DTLB, PERF_COUNT_HW_CACHE_OP_READ,
		   PERF_COUNT_HW_CACHE_RESULT_MISS) },
	{ "task-clock", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_TASK_CLOCK },
	{ "context-switches", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CONTEXT_SWITCHES },
	{ "cpu-migrations", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_CPU_MIGRATIONS },
	{ "page-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS },
	{ "minor-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MIN },
	{ "major-faults", PERF_TYPE_SOFTWARE, PERF_COUNT_SW_PAGE_FAULTS_MAJ },
};

static void attr_init(struct perf_event_attr *a)
{
	a->size = sizeof(*a);
	a->exclude_hv = 1;
	a->read_format = PERF_FORMAT_TOTAL_TIME_ENABLED | PERF_FORMAT_TOTAL_TIME_RUNNING;
}

int pmu_event_builtin(const char *name, struct pmu_event *e)
{
	size_t i;

	for (i = 0; i < sizeof(builtin) / sizeof(builtin[0]); i++) {
		if (strcmp(builtin[i].name, name))
			continue;
		e->attr.type = builtin[i].type;
		e->attr.config = builtin[i].config;
		snprintf(e->canon, sizeof(e->canon), "perf generic %s (type %u config %#llx)",
			 name, builtin[i].type, builtin[i].config);
		return 0;
	}
	return -ENOENT;
}

#ifdef HAVE_LIBPFM
static int pfm_ret = PFM_ERR_NOINIT;
static pthread_once_t pfm_once = PTHREAD_ONCE_INIT;

static void pfm_init_once(void)
{
	pfm_ret = pfm_initialize();
}

static int pfm_resolve(const char *name, struct pmu_event *e, char *err, size_t len)
{
	pfm_perf_encode_arg_t arg;
	char *fstr = NULL;
	int ret;

	pthread_once(&pfm_once, pfm_init_once);
	if (pfm_ret != PFM_SUCCESS) {
		snprintf(err, len, "libpfm4 did not initialise: %s", pfm_strerror(pfm_ret));
		return -ENODEV;
	}
	memset(&arg, 0, sizeof(arg));
	arg.attr = &e->attr;
	arg.fstr = &fstr;
	arg.size = sizeof(arg);
	ret = pfm_get_os_event_encoding(name, PFM_PLM0 | PFM_PLM3, PFM_OS_PERF_EVENT_EXT,
					&arg);
	if (ret != PFM_SUCCESS) {
		snprintf(err, len, "libpfm4 cannot encode event '%s': %s", name,
			 pfm_strerror(ret));
		return -ENOENT;
	}
	snprintf(e->canon, sizeof(e->canon), "%s", fstr ? fstr : name);
	free(fstr);
	return 0;
}

const char *pmu_event_resolver(void)
{
	static char buf[48];
	int v = pfm_get_version();

	snprintf(buf, sizeof(buf), "libpfm4 (API %d.%d)", PFM_MAJ_VERSION(v), PFM_MIN_VERSION(v));
	return buf;
}
#else
const char *pmu_event_resolver(void)
{
	return "built-in table (built without libpfm4)";
}
#endif

int pmu_event_resolve(const char *name, struct pmu_event *e, char *err, size_t len)
{
	int ret;

	memset(e, 0, sizeof(*e));
	if (!*name || strlen(name) >= sizeof(e->name)) {
		snprintf(err, len, "bad event name '%.60s'", name);
		return -ENOENT;
	}
	snprintf(e->name, sizeof(e->name), "%s", name);
#ifdef HAVE_LIBPFM
	ret = pfm_resolve(name, e, err, len);
#else
	ret = pmu_event_builtin(name, e);
	if (ret)
		snprintf(err, len, "unknown event '%s' (built without libpfm4: only the "
			 "generic names of the default and software sets)", name);
#endif
	if (!ret)
		attr_init(&e->attr);
	return ret;
}

int pmu_event_check(const char *name, char *err, size_t len)
{
	struct pmu_event e;

	return pmu_event_resolve(name, &e, err, len) ? -EINVAL : 0;
}

const char *pmu_event_source(const struct pmu_event *e)
{
	if (e->attr.type == PERF_TYPE_SOFTWARE)
		return "software";
	if (e->attr.type == PERF_TYPE_TRACEPOINT)
		return "tracepoint";
	return "hardware";
}

const char *pmu_event_unit(const struct pmu_event *e)
{
	if (e->attr.type == PERF_TYPE_SOFTWARE &&
	    (e->attr.config == PERF_COUNT_SW_TASK_CLOCK ||
	     e->attr.config == PERF_COUNT_SW_CPU_CLOCK))
		return "ns";
	return "count";
}
