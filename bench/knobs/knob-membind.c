// SPDX-License-Identifier: MIT
/*
 * knob-membind.c - the `membind` key: membind = none | local | remote,
 * the NUMA node(s) the instances' memory comes from, relative to the CPUs
 * `pin` gives them. On a machine with one NUMA node (hwloc) all memory is
 * local: `local` changes nothing and says so, `remote` skips the cell with
 * the reason. With more nodes the cell's thread is bound around each
 * spawn (hwloc_set_membind, HWLOC_MEMBIND_BIND | THREAD: a forked child
 * keeps the policy across exec) to the nodes of the instance's pinned CPUs
 * (local) or to the others (remote), then set back to the default. Nothing
 * on the host changes, so nothing is journalled.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "knob-membind.h"
#include "knob-pin.h"
#include "placement.h"

static struct {
	struct placement *pl;         /* NULL: nothing to bind */
	int remote;
	int nodes;
} mb;

/* 0, or -errno with @why; *@pl the topology when the spawns must bind. */
static int membind_check(const struct cell *c, struct placement **pl, int *nodes,
			 char *why, size_t len)
{
	struct placement_spec p;
	int ret;

	*pl = NULL;
	*nodes = 1;
	if (!strcmp(c->membind, "none"))
		return 0;
	ret = placement_open(pl, why, len);
	if (ret)
		return ret;
	*nodes = placement_numa_nodes(*pl);
	if (*nodes == 1 && !strcmp(c->membind, "remote"))
		ret = -ENOENT, snprintf(why, len, "membind = remote: this machine has one NUMA "
					"node (hwloc), so there is no remote memory");
	else if (*nodes > 1 && (placement_parse(c->pin, &p) || p.kind == PLACE_NONE))
		ret = -EINVAL, snprintf(why, len, "membind = %s needs pin (core, numa:N, llc:N) "
					"to say which node is local", c->membind);
	if (ret || *nodes == 1) {
		placement_close(*pl);
		*pl = NULL;
	}
	return ret;
}

static int membind_supported(const struct cell *c, char *why, size_t len)
{
	struct placement *pl;
	int nodes, ret = membind_check(c, &pl, &nodes, why, len);

	placement_close(pl);
	return !ret;
}

static int membind_apply(const struct cell *c, char *why, size_t len)
{
	memset(&mb, 0, sizeof(mb));
	if (membind_check(c, &mb.pl, &mb.nodes, why, len))
		return KNOB_SKIP;
	mb.remote = !strcmp(c->membind, "remote");
	return 0;
}

static void membind_restore(const struct cell *c)
{
	(void)c;
	membind_spawn_leave();
	placement_close(mb.pl);
	memset(&mb, 0, sizeof(mb));
}

static void membind_describe(const struct cell *c, char *buf, size_t len)
{
	buf[0] = '\0';
	if (!strcmp(c->membind, "none"))
		return;
	if (mb.nodes <= 1)
		snprintf(buf, len, "one NUMA node: all memory is local, nothing bound");
	else
		snprintf(buf, len, "%s: bound to the NUMA node(s) %s the instance's pinned CPUs",
			 c->membind, mb.remote ? "away from" : "of");
}

int membind_spawn_enter(int idx)
{
	cpu_set_t set;

	if (!mb.pl || !pin_instance_cpus(idx, &set))
		return 0;
	return placement_bind_memory(mb.pl, &set, mb.remote);
}

void membind_spawn_leave(void)
{
	if (mb.pl)
		placement_unbind_memory(mb.pl);
}

const struct knob_ops knob_membind = {
	.name = "membind",
	.supported = membind_supported,
	.apply = membind_apply,
	.restore = membind_restore,
	.describe = membind_describe,
};
