// SPDX-License-Identifier: MIT
/*
 * placement.c - the topology side of `pin` and `membind` (placement.h),
 * from hwloc: cores, NUMA nodes and the last-level caches (L3 where the
 * machine has one, else L2) with their CPU sets, converted to and from
 * the glibc cpu_set_t that sched_getaffinity(2) reads back.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef HAVE_HWLOC
#include <hwloc.h>
#include <hwloc/glibc-sched.h>
#endif

#include "placement.h"

int placement_parse(const char *v, struct placement_spec *p)
{
	char *end;
	long n;

	memset(p, 0, sizeof(*p));
	if (!strcmp(v, "none") || !strcmp(v, "core")) {
		p->kind = *v == 'n' ? PLACE_NONE : PLACE_CORE;
		return 0;
	}
	if (!strncmp(v, "numa:", 5))
		p->kind = PLACE_NUMA;
	else if (!strncmp(v, "llc:", 4))
		p->kind = PLACE_LLC;
	else
		return -EINVAL;
	v = strchr(v, ':') + 1;
	if (*v < '0' || *v > '9')
		return -EINVAL;
	errno = 0;
	n = strtol(v, &end, 10);
	if (*end || errno || n > 4095)
		return -EINVAL;
	p->index = (int)n;
	return 0;
}

/* The whole text of @set into @full (PLACEMENT_CPUS_TEXT_MAX bytes). */
static void cpus_text_full(const cpu_set_t *set, char *full)
{
	int cpu, start = -1, o = 0;

	full[0] = '\0';
	for (cpu = 0; cpu <= CPU_SETSIZE; cpu++) {
		int in = cpu < CPU_SETSIZE && CPU_ISSET(cpu, set);

		if (in && start < 0)
			start = cpu;
		if (in || start < 0)
			continue;
		o += snprintf(full + o, PLACEMENT_CPUS_TEXT_MAX - (size_t)o, "%s%d",
			      o ? "," : "", start);
		if (cpu - 1 > start)
			o += snprintf(full + o, PLACEMENT_CPUS_TEXT_MAX - (size_t)o, "-%d", cpu - 1);
		start = -1;
	}
	if (!full[0])
		snprintf(full, PLACEMENT_CPUS_TEXT_MAX, "none");
}

int placement_cpus_text(const cpu_set_t *set, char *buf, size_t len)
{
	char full[PLACEMENT_CPUS_TEXT_MAX];
	size_t cut;

	if (!len)
		return -ENOSPC;
	cpus_text_full(set, full);
	if (strlen(full) < len) {
		memcpy(buf, full, strlen(full) + 1);
		return 0;
	}
	/* whole entries and ",...": cut at the last comma that leaves room */
	cut = len > 5 ? len - 5 : 0;
	while (cut > 0 && full[cut] != ',')
		cut--;
	snprintf(buf, len, "%.*s%s", (int)cut, full, cut ? ",..." : "...");
	return -ENOSPC;
}

#ifdef HAVE_HWLOC
struct placement {
	hwloc_topology_t topo;
	hwloc_obj_type_t llc;         /* HWLOC_OBJ_L3CACHE, or L2 without an L3 */
};

int placement_open(struct placement **out, char *why, size_t len)
{
	struct placement *pl = calloc(1, sizeof(*pl));

	if (!pl)
		return -ENOMEM;
	if (hwloc_topology_init(&pl->topo) < 0) {
		free(pl);
		snprintf(why, len, "hwloc_topology_init failed");
		return -EIO;
	}
	if (hwloc_topology_load(pl->topo) < 0) {
		hwloc_topology_destroy(pl->topo);
		free(pl);
		snprintf(why, len, "hwloc_topology_load failed");
		return -EIO;
	}
	pl->llc = hwloc_get_nbobjs_by_type(pl->topo, HWLOC_OBJ_L3CACHE) > 0 ?
		  HWLOC_OBJ_L3CACHE : HWLOC_OBJ_L2CACHE;
	*out = pl;
	return 0;
}

void placement_close(struct placement *pl)
{
	if (!pl)
		return;
	hwloc_topology_destroy(pl->topo);
	free(pl);
}

const char *placement_llc_name(struct placement *pl)
{
	return pl->llc == HWLOC_OBJ_L3CACHE ? "L3" : "L2";
}

size_t placement_llc_size(struct placement *pl, const cpu_set_t *cpus)
{
	int i, n = hwloc_get_nbobjs_by_type(pl->topo, pl->llc), cpu = -1;
	hwloc_obj_t o;

	for (i = 0; cpus && i < CPU_SETSIZE && cpu < 0; i++)
		if (CPU_ISSET(i, cpus))
			cpu = i;
	for (i = 0; i < n; i++) {
		o = hwloc_get_obj_by_type(pl->topo, pl->llc, (unsigned int)i);
		if (cpu < 0 || hwloc_bitmap_isset(o->cpuset, (unsigned int)cpu))
			return (size_t)o->attr->cache.size;
	}
	return 0;
}

int placement_numa_nodes(struct placement *pl)
{
	int n = hwloc_get_nbobjs_by_type(pl->topo, HWLOC_OBJ_NUMANODE);

	return n > 0 ? n : 1;
}

/* The object of @type number @idx (modulo the count for cores), or NULL. */
static hwloc_obj_t object(struct placement *pl, hwloc_obj_type_t type, int idx, int wrap,
			  int *count)
{
	*count = hwloc_get_nbobjs_by_type(pl->topo, type);
	if (*count <= 0)
		return NULL;
	if (wrap)
		idx %= *count;
	return idx < *count ? hwloc_get_obj_by_type(pl->topo, type, (unsigned int)idx) : NULL;
}

int placement_cpus(struct placement *pl, const struct placement_spec *p, int idx,
		   cpu_set_t *set, char *why, size_t len)
{
	static const char *const what[] = { "", "core", "NUMA node", "cache" };
	hwloc_obj_type_t type = p->kind == PLACE_CORE ? HWLOC_OBJ_CORE :
				p->kind == PLACE_NUMA ? HWLOC_OBJ_NUMANODE : pl->llc;
	hwloc_obj_t o;
	int count;

	if (p->kind == PLACE_NONE) {
		snprintf(why, len, "pin = none places nothing");
		return -EINVAL;
	}
	o = object(pl, type, p->kind == PLACE_CORE ? idx : p->index, p->kind == PLACE_CORE,
		   &count);
	if (!o || !o->cpuset || hwloc_bitmap_iszero(o->cpuset)) {
		snprintf(why, len, "%s:%d: this machine has %d %s%s (hwloc; indexes from 0)",
			 p->kind == PLACE_NUMA ? "numa" : "llc", p->index, count > 0 ? count : 0,
			 p->kind == PLACE_LLC ? placement_llc_name(pl) : what[p->kind],
			 p->kind == PLACE_LLC ? " last-level cache(s)" : "(s)");
		return -ENOENT;
	}
	hwloc_cpuset_to_glibc_sched_affinity(pl->topo, o->cpuset, set, sizeof(*set));
	return 0;
}

int placement_shared_llc(struct placement *pl, const cpu_set_t *a, const cpu_set_t *b)
{
	hwloc_bitmap_t x = hwloc_bitmap_alloc(), y = hwloc_bitmap_alloc();
	int i, n = hwloc_get_nbobjs_by_type(pl->topo, pl->llc), found = -1;

	if (!x || !y)
		goto out;
	hwloc_cpuset_from_glibc_sched_affinity(pl->topo, x, a, sizeof(*a));
	hwloc_cpuset_from_glibc_sched_affinity(pl->topo, y, b, sizeof(*b));
	for (i = 0; i < n && found < 0; i++) {
		hwloc_obj_t o = hwloc_get_obj_by_type(pl->topo, pl->llc, (unsigned int)i);

		if (hwloc_bitmap_intersects(o->cpuset, x) && hwloc_bitmap_intersects(o->cpuset, y))
			found = i;
	}
out:
	hwloc_bitmap_free(x);
	hwloc_bitmap_free(y);
	return found;
}

int placement_bind_thread(struct placement *pl, const cpu_set_t *set)
{
	hwloc_bitmap_t b = hwloc_bitmap_alloc();
	int ret;

	if (!b)
		return -ENOMEM;
	hwloc_cpuset_from_glibc_sched_affinity(pl->topo, b, set, sizeof(*set));
	ret = hwloc_set_cpubind(pl->topo, b, HWLOC_CPUBIND_THREAD) ? -errno : 0;
	hwloc_bitmap_free(b);
	return ret;
}

int placement_bind_memory(struct placement *pl, const cpu_set_t *cpus, int remote)
{
	hwloc_bitmap_t c = hwloc_bitmap_alloc(), n = hwloc_bitmap_alloc();
	int ret = -ENOMEM;

	if (!c || !n)
		goto out;
	hwloc_cpuset_from_glibc_sched_affinity(pl->topo, c, cpus, sizeof(*cpus));
	hwloc_cpuset_to_nodeset(pl->topo, c, n);
	if (remote)
		hwloc_bitmap_andnot(n, hwloc_topology_get_topology_nodeset(pl->topo), n);
	ret = hwloc_bitmap_iszero(n) ? -ENOENT :
	      hwloc_set_membind(pl->topo, n, HWLOC_MEMBIND_BIND,
				HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET) ? -errno : 0;
out:
	hwloc_bitmap_free(c);
	hwloc_bitmap_free(n);
	return ret;
}

void placement_unbind_memory(struct placement *pl)
{
	hwloc_set_membind(pl->topo, hwloc_topology_get_topology_nodeset(pl->topo),
			  HWLOC_MEMBIND_DEFAULT, HWLOC_MEMBIND_THREAD | HWLOC_MEMBIND_BYNODESET);
}
#else
struct placement {
	int unused;
};

int placement_open(struct placement **out, char *why, size_t len)
{
	*out = NULL;
	snprintf(why, len, "placement needs hwloc: built without it");
	return -ENOTSUP;
}

void placement_close(struct placement *pl)
{
	(void)pl;
}

const char *placement_llc_name(struct placement *pl)
{
	(void)pl;
	return "?";
}

int placement_numa_nodes(struct placement *pl)
{
	(void)pl;
	return 1;
}

size_t placement_llc_size(struct placement *pl, const cpu_set_t *cpus)
{
	(void)pl, (void)cpus;
	return 0;
}

int placement_cpus(struct placement *pl, const struct placement_spec *p, int idx,
		   cpu_set_t *set, char *why, size_t len)
{
	(void)pl, (void)p, (void)idx, (void)set;
	snprintf(why, len, "placement needs hwloc: built without it");
	return -ENOTSUP;
}

int placement_shared_llc(struct placement *pl, const cpu_set_t *a, const cpu_set_t *b)
{
	(void)pl, (void)a, (void)b;
	return -1;
}

int placement_bind_thread(struct placement *pl, const cpu_set_t *set)
{
	(void)pl, (void)set;
	return -ENOTSUP;
}

int placement_bind_memory(struct placement *pl, const cpu_set_t *cpus, int remote)
{
	(void)pl, (void)cpus, (void)remote;
	return -ENOTSUP;
}

void placement_unbind_memory(struct placement *pl)
{
	(void)pl;
}
#endif
