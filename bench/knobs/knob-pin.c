// SPDX-License-Identifier: MIT
/*
 * knob-pin.c - the `pin` key (knob-pin.h): pin = none | core | numa:N |
 * llc:N for the instances of the native and container backends, with
 * hwloc_set_cpubind(HWLOC_CPUBIND_THREAD) on cvmbench's own thread around
 * each spawn, so the instance (and a container runtime with its container)
 * starts on those CPUs; cvmbench's thread gets its CPUs back at once. The
 * qemu backend binds its VMs' vCPU threads, found with QMP query-cpus-fast,
 * once each VM is up (pin-vcpu.c, which takes each vCPU's CPUs from here
 * and says here how many VMs it pinned). A container's runtime moves it
 * into a cgroup, whose cpuset would reset the affinity it inherited, so
 * the runc and crun backends also write the CPUs of the spawn in progress
 * (pin_spawn_cpus()) into its config.json.
 * Nothing on the host changes, so nothing is journalled.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "knob-pin.h"
#include "placement.h"
#include "proc-tree.h"

_Static_assert(PIN_CPUS_TEXT_MAX == PLACEMENT_CPUS_TEXT_MAX, "knob-pin.h's copy of the size");

static struct {
	struct placement *pl;         /* NULL: unpinned */
	struct placement_spec spec;
	cpu_set_t saved;
	int saved_ok;
	int vms_pinned;               /* VMs whose vCPUs pin_vcpus() bound */
	int spawning;                 /* between pin_spawn_enter() and _leave() */
	cpu_set_t spawn_set;          /* the CPUs of that spawn */
} pin;

/* Can @c's pin be applied here? 0, or -errno with @why; *@pl the topology. */
static int pin_check(const struct cell *c, struct placement **pl, char *why, size_t len)
{
	struct placement_spec p;
	cpu_set_t set;
	int ret;

	*pl = NULL;
	if (placement_parse(c->pin, &p) || p.kind == PLACE_NONE)
		return 0;
	ret = placement_open(pl, why, len);
	if (!ret)
		ret = placement_cpus(*pl, &p, 0, &set, why, len);
	if (ret) {
		placement_close(*pl);
		*pl = NULL;
	}
	return ret;
}

static int pin_supported(const struct cell *c, char *why, size_t len)
{
	struct placement *pl;
	int ret = pin_check(c, &pl, why, len);

	placement_close(pl);
	return !ret;
}

static int pin_apply(const struct cell *c, char *why, size_t len)
{
	memset(&pin, 0, sizeof(pin));
	if (pin_check(c, &pin.pl, why, len))
		return KNOB_SKIP;
	if (!pin.pl)
		return 0;
	placement_parse(c->pin, &pin.spec);
	pin.saved_ok = !sched_getaffinity(0, sizeof(pin.saved), &pin.saved);
	return 0;
}

static void pin_restore(const struct cell *c)
{
	(void)c;
	pin_spawn_leave();
	placement_close(pin.pl);
	memset(&pin, 0, sizeof(pin));
}

static void pin_describe(const struct cell *c, char *buf, size_t len)
{
	char cpus[128];
	size_t o = 0;
	cpu_set_t set;
	int i;

	int vm = backend_boots_guests(c->backend), n = vm ? c->vms * c->vcpus : c->instances;

	buf[0] = '\0';
	for (i = 0; pin.pl && i < n && i < 8 && o < len; i++) {
		if (!pin_instance_cpus(i, &set))
			break;
		placement_cpus_text(&set, cpus, sizeof(cpus));
		o += (size_t)snprintf(buf + o, len - o, "%s%s %d: CPUs %s", i ? "; " : "",
				      vm ? "vCPU" : "instance", i, cpus);
	}
}

int pin_instance_cpus(int idx, cpu_set_t *set)
{
	char why[256];

	CPU_ZERO(set);
	return pin.pl && !placement_cpus(pin.pl, &pin.spec, idx, set, why, sizeof(why));
}

int pin_spawn_enter(int idx)
{
	cpu_set_t set;

	int ret;

	if (!pin_instance_cpus(idx, &set))
		return 0;
	ret = placement_bind_thread(pin.pl, &set);
	pin.spawning = !ret;
	pin.spawn_set = set;
	return ret;
}

int pin_spawn_cpus(char *buf, size_t len)
{
	if (!pin.pl || !pin.spawning)
		return 0;
	return placement_cpus_text(&pin.spawn_set, buf, len) ?: 1;
}

void pin_spawn_leave(void)
{
	pin.spawning = 0;
	if (pin.pl && pin.saved_ok)
		sched_setaffinity(0, sizeof(pin.saved), &pin.saved);
}

int pin_obtained(pid_t pid, char *buf, size_t len)
{
	cpu_set_t set;

	if (sched_getaffinity(pid, sizeof(set), &set))
		return -errno;
	return placement_cpus_text(&set, buf, len);
}

void pin_vcpus_note(void)
{
	pin.vms_pinned++;
}

int pin_vcpus_pinned(void)
{
	return pin.vms_pinned;
}

int pin_obtained_child(pid_t pid, char *buf, size_t len)
{
	pid_t *tree = NULL;
	size_t n = 0;
	int ret = proc_tree(&pid, 1, &tree, &n);

	if (!ret)
		ret = n > 1 ? pin_obtained(tree[n - 1], buf, len) : -ESRCH;
	free(tree);
	return ret;
}

const struct knob_ops knob_pin = {
	.name = "pin",
	.supported = pin_supported,
	.apply = pin_apply,
	.restore = pin_restore,
	.describe = pin_describe,
};
