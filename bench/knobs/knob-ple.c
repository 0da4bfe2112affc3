// SPDX-License-Identifier: MIT
/*
 * knob-ple.c - the `ple` key: pause-loop exiting of the host's KVM for the
 * cell, ple = default | off. PLE is a module parameter: kvm_intel's
 * ple_gap, kvm_amd's pause_filter_count (0 = off). Both are read-only at
 * run time (0444): turning PLE off means reloading the module with the
 * parameter while no VM uses KVM, which cvmbench does not do, so `off` is
 * measured only where PLE is off already; everywhere else the cell is
 * skipped with the reason (no such module loaded: no KVM module to set;
 * loaded with PLE on: the reload it would need). Nothing is changed.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "knob.h"
#include "sysfs.h"

static const struct {
	const char *module, *param;
} ple_params[] = {
	{ "kvm_intel", "ple_gap" },
	{ "kvm_amd", "pause_filter_count" },
};

static char ple_applied[160];

/* The loaded module's parameter: index into ple_params and its value, or -1. */
static int ple_find(char *value, size_t len)
{
	char path[160];
	size_t i;

	for (i = 0; i < sizeof(ple_params) / sizeof(ple_params[0]); i++) {
		snprintf(path, sizeof(path), "/sys/module/%s/parameters/%s",
			 ple_params[i].module, ple_params[i].param);
		if (sysfs_read_line(path, value, len) >= 0)     /* under the test root, if set */
			return (int)i;
	}
	return -1;
}

static int ple_supported(const struct cell *c, char *why, size_t len)
{
	char value[32];
	int i;

	if (strcmp(c->ple, "off"))
		return 1;
	i = ple_find(value, sizeof(value));
	if (i < 0) {
		snprintf(why, len, "ple = off: neither kvm_intel (ple_gap) nor kvm_amd "
			 "(pause_filter_count) is loaded here: no pause-loop exiting to turn off");
		return 0;
	}
	if (strcmp(value, "0")) {
		snprintf(why, len, "ple = off: %s is loaded with %s = %s, read-only at run time; "
			 "turning PLE off needs reloading %s with %s=0 while no VM runs, which "
			 "cvmbench does not do", ple_params[i].module, ple_params[i].param, value,
			 ple_params[i].module, ple_params[i].param);
		return 0;
	}
	snprintf(ple_applied, sizeof(ple_applied), "off (already: %s %s = 0)",
		 ple_params[i].module, ple_params[i].param);
	return 1;
}

static int ple_apply(const struct cell *c, char *why, size_t len)
{
	ple_applied[0] = '\0';
	return ple_supported(c, why, len) ? 0 : KNOB_SKIP;
}

/* Nothing was changed: nothing to undo (knobs_restore() calls every knob's). */
static void ple_restore(const struct cell *c)
{
	(void)c;
	ple_applied[0] = '\0';
}

static void ple_describe(const struct cell *c, char *buf, size_t len)
{
	(void)c;
	snprintf(buf, len, "%s", ple_applied);
}

const struct knob_ops knob_ple = {
	.name = "ple",
	.supported = ple_supported,
	.apply = ple_apply,
	.restore = ple_restore,
	.describe = ple_describe,
};
