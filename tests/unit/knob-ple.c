// SPDX-License-Identifier: MIT
/*
 * tests/unit/knob-ple.c - the ple knob on fake trees (CVMBENCH_SYSROOT):
 * no KVM vendor module: ple = off is a skip saying so; kvm_intel with
 * ple_gap 128: a skip naming the value and the reload it would need;
 * kvm_amd with pause_filter_count 0: off already, applied and said;
 * ple = default needs nothing. Nothing is written to the tree. It has a
 * restore op: knobs_restore() calls every knob's (without one every run
 * crashed at the end of its first cell).
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell.h"
#include "fake-file.h"
#include "knob.h"
#include "tap.h"

extern const struct knob_ops knob_ple;

static char root[PATH_MAX / 2];

static void tree(const char *module, const char *param, const char *value)
{
	char cmd[3 * sizeof(root) + 128], rel[160];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s/sys' && mkdir -p '%s/sys/module/%s/parameters'",
		 root, root, module ? module : "none");
	if (system(cmd))
		return;
	if (module) {
		snprintf(rel, sizeof(rel), "/sys/module/%s/parameters/%s", module, param);
		fake_file_put(root, rel, value);
	}
}

int main(void)
{
	struct cell c = { .ple = "off" };
	char why[512] = "", desc[PATH_MAX] = "";

	tap_plan(7);
	snprintf(root, sizeof(root), "/tmp/knob-ple-XXXXXX");
	if (!mkdtemp(root))
		return 1;
	setenv("CVMBENCH_SYSROOT", root, 1);
	tree(NULL, NULL, NULL);
	tap_ok(!knob_ple.supported(&c, why, sizeof(why)) &&
	       strstr(why, "neither kvm_intel (ple_gap) nor kvm_amd"), "no module: %s", why);
	tree("kvm_intel", "ple_gap", "128\n");
	tap_ok(knob_ple.apply(&c, why, sizeof(why)) == KNOB_SKIP &&
	       strstr(why, "ple_gap = 128, read-only") && strstr(why, "reloading kvm_intel"),
	       "PLE on: apply is a skip: %s", why);
	tree("kvm_amd", "pause_filter_count", "0\n");
	tap_ok(knob_ple.apply(&c, why, sizeof(why)) == 0, "pause_filter_count 0: applies");
	knob_ple.describe(&c, desc, sizeof(desc));
	tap_ok(!strcmp(desc, "off (already: kvm_amd pause_filter_count = 0)"),
	       "and says it was off already (%s)", desc);
	snprintf(c.ple, sizeof(c.ple), "default");
	tree(NULL, NULL, NULL);
	tap_ok(knob_ple.supported(&c, why, sizeof(why)) &&
	       knob_ple.apply(&c, why, sizeof(why)) == 0, "ple = default: always");
	knob_ple.describe(&c, desc, sizeof(desc));
	tap_ok(!desc[0], "and says nothing");
	/* knobs_restore() calls every applied knob's restore: a NULL one crashed runs */
	tap_ok(knob_ple.restore != NULL, "ple has a restore op (knobs_restore calls it)");
	if (knob_ple.restore)
		knob_ple.restore(&c);
	snprintf(desc, sizeof(desc), "rm -rf '%s'", root);
	return system(desc) ? 1 : tap_done();
}
