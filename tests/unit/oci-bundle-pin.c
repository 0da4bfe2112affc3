// SPDX-License-Identifier: MIT
/*
 * tests/unit/oci-bundle-pin.c - the `pin` key reaches a runc / crun
 * container as its cpuset: the config.json the backend writes for a start
 * (oci_bundle_write()), parsed back with cJSON, carries
 * linux.resources.cpu.cpus = the CPUs the pin knob bound the spawning
 * thread to (pin_spawn_cpus(); checked against the kernel's own
 * sched_getaffinity(2) of that thread), and none when the cell is
 * unpinned or no spawn is in progress; the `cpus` key's "0-N" without a
 * pin, as before; cpus and pin together are refused (a cell that cannot
 * run here); cgroups = off gives a container no cpuset, with the reason.
 * Built without hwloc the pinned half is a skip.
 * No root, no runtime: a temp directory.
 */
#include <cjson/cJSON.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cell.h"
#include "knob-pin.h"
#include "oci-bundle.h"
#include "oci-host.h"
#include "placement.h"
#include "tap.h"

extern const struct knob_ops knob_pin;

static char tmp[PATH_MAX / 2];

/* A cell as config_expand() would give it, for the bits config.json reads. */
static void cell_init(struct cell *c, const char *pin, int cpus)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->workload, sizeof(c->workload), "null");
	snprintf(c->backend, sizeof(c->backend), "runc");
	snprintf(c->cgroups, sizeof(c->cgroups), "on");
	snprintf(c->seccomp, sizeof(c->seccomp), "on");
	snprintf(c->pin, sizeof(c->pin), "%s", pin);
	c->cpu_quota = 100;
	c->cpus = cpus;
	c->instances = 1;
}

/*
 * Write start @n's config.json for @c with @cpus (NULL: none) and read back
 * linux.resources.cpu.cpus into @out ("" when absent, "(bad)" unparsable).
 */
static void bundle_cpus(const struct cell *c, const char *cpus, int n, char *out, size_t len)
{
	char dir[PATH_MAX], path[PATH_MAX + 16], err[512], *text = NULL;
	struct oci_bundle_opts o = { .rootfs = "/rootfs", .dir = dir, .id = "cvmbench-test", .cpus = cpus };
	cJSON *j, *v;
	FILE *f;
	long sz;

	snprintf(dir, sizeof(dir), "%s/b%d", tmp, n);
	snprintf(out, len, "(bad)");
	if (oci_bundle_write(c, &o, err, sizeof(err))) {
		printf("# oci_bundle_write: %s\n", err);
		return;
	}
	snprintf(path, sizeof(path), "%s/config.json", dir);
	f = fopen(path, "re");
	if (f && !fseek(f, 0, SEEK_END) && (sz = ftell(f)) > 0 && !fseek(f, 0, SEEK_SET) &&
	    (text = calloc(1, (size_t)sz + 1)) && fread(text, 1, (size_t)sz, f) != (size_t)sz)
		text[0] = '\0';
	if (f)
		fclose(f);
	j = text ? cJSON_Parse(text) : NULL;
	free(text);
	if (!j)
		return;
	v = cJSON_GetObjectItemCaseSensitive(j, "linux");
	v = cJSON_GetObjectItemCaseSensitive(v, "resources");
	v = cJSON_GetObjectItemCaseSensitive(v, "cpu");
	v = cJSON_GetObjectItemCaseSensitive(v, "cpus");
	snprintf(out, len, "%s", cJSON_IsString(v) ? v->valuestring : "");
	cJSON_Delete(j);
}

/* pin = core: instance 0's spawn writes its CPUs, as the kernel reads them back. */
static void test_pinned(void)
{
	char why[512] = "", spawn[160] = "", kernel[160] = "", got[160];
	struct cell c;
	cpu_set_t set;
	int ret, in;

	cell_init(&c, "core", 0);
	ret = knob_pin.apply(&c, why, sizeof(why));
	if (ret) {
		for (ret = 0; ret < 4; ret++)
			printf("ok %d # SKIP pin = core cannot be applied here: %s\n", ++tap_count, why);
		return;
	}
	ret = pin_spawn_enter(0);
	in = pin_spawn_cpus(spawn, sizeof(spawn));
	if (!sched_getaffinity(0, sizeof(set), &set))
		placement_cpus_text(&set, kernel, sizeof(kernel));
	tap_ok(!ret && in && spawn[0] && !strcmp(spawn, kernel),
	       "pin = core, instance 0's spawn: pin_spawn_cpus '%s', the thread's affinity '%s'",
	       spawn, kernel);
	bundle_cpus(&c, in ? spawn : NULL, 1, got, sizeof(got));
	tap_ok(spawn[0] && !strcmp(got, spawn),
	       "  its config.json: linux.resources.cpu.cpus = '%s'", got);
	pin_spawn_leave();
	tap_ok(!pin_spawn_cpus(spawn, sizeof(spawn)), "  after the spawn: no CPUs to write");
	c.cpus = 2;
	bundle_cpus(&c, kernel, 2, got, sizeof(got));
	tap_ok(!strcmp(got, kernel), "  the pin's CPUs, not the cpus key's 0-1 ('%s')", got);
	knob_pin.restore(&c);
}

int main(void)
{
	char why[512] = "", spawn[160], got[160], cmd[PATH_MAX];
	struct cell c;

	tap_plan(10);
	snprintf(tmp, sizeof(tmp), "/tmp/oci-bundle-pin-XXXXXX");
	if (!mkdtemp(tmp))
		return 1;
	test_pinned();

	cell_init(&c, "none", 0);
	knob_pin.apply(&c, why, sizeof(why));
	tap_ok(!pin_spawn_enter(0) && !pin_spawn_cpus(spawn, sizeof(spawn)),
	       "pin = none: no CPUs for the spawn");
	bundle_cpus(&c, NULL, 3, got, sizeof(got));
	tap_ok(!got[0], "  and config.json has no linux.resources.cpu.cpus ('%s')", got);
	pin_spawn_leave();
	knob_pin.restore(&c);
	cell_init(&c, "none", 2);
	bundle_cpus(&c, NULL, 4, got, sizeof(got));
	tap_ok(!strcmp(got, "0-1"), "unpinned, cpus = 2: cpu.cpus '0-1' as before ('%s')", got);
	cell_init(&c, "core", 1);
	tap_ok(!backend_find("runc")->supported(&c, why, sizeof(why)) &&
	       !strcmp(why, "cpus = 1 and pin = core both choose the containers' CPUs: set one "
		       "of them"), "runc, cpus = 1 and pin = core: cannot run (%s)", why);
	tap_ok(!backend_find("crun")->supported(&c, why, sizeof(why)) && strstr(why, "both choose"),
	       "  crun likewise");
	cell_init(&c, "core", 0);
	snprintf(c.cgroups, sizeof(c.cgroups), "off");
	tap_ok(!oci_cpuset_usable(&c, why, sizeof(why)) && strstr(why, "cgroups = off"),
	       "cgroups = off: no cpuset for the container (%s)", why);
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmp);
	if (system(cmd))
		return 1;
	return tap_done();
}
