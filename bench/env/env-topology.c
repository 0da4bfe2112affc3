// SPDX-License-Identifier: MIT
/*
 * env-topology.c - processor and memory topology: packages, cores, PUs
 * (hardware threads), NUMA nodes and caches (L1d, L1i, L2, L3: size and
 * count) from hwloc, disallowed CPUs included so that the counts describe
 * the machine rather than this process's cpuset. Built without hwloc, it
 * says so in topology.hwloc and counts PUs with sysconf(3) only. The
 * sysconf(3) counts of online and configured CPUs are always emitted.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#ifdef HAVE_HWLOC
#include <hwloc.h>
#endif

#include "env-local.h"

#ifdef HAVE_HWLOC
static const struct {
	hwloc_obj_type_t type;
	const char *key;
	const char *src;
} topo_counts[] = {
	{ HWLOC_OBJ_PACKAGE, "topology.packages", "hwloc HWLOC_OBJ_PACKAGE count" },
	{ HWLOC_OBJ_CORE, "topology.cores", "hwloc HWLOC_OBJ_CORE count" },
	{ HWLOC_OBJ_PU, "topology.pus", "hwloc HWLOC_OBJ_PU count" },
	{ HWLOC_OBJ_NUMANODE, "topology.numa_nodes", "hwloc HWLOC_OBJ_NUMANODE count" },
};

static const struct {
	hwloc_obj_type_t type;
	const char *key;
	const char *src;
} topo_caches[] = {
	{ HWLOC_OBJ_L1CACHE, "topology.cache.l1d", "hwloc HWLOC_OBJ_L1CACHE" },
	{ HWLOC_OBJ_L1ICACHE, "topology.cache.l1i", "hwloc HWLOC_OBJ_L1ICACHE" },
	{ HWLOC_OBJ_L2CACHE, "topology.cache.l2", "hwloc HWLOC_OBJ_L2CACHE" },
	{ HWLOC_OBJ_L3CACHE, "topology.cache.l3", "hwloc HWLOC_OBJ_L3CACHE" },
};

/* "<size> KiB x <count>", sizes of the first instance; "none" if absent. */
static void topo_put_cache(const struct env_sink *s, hwloc_topology_t topo,
			   size_t i)
{
	int n = hwloc_get_nbobjs_by_type(topo, topo_caches[i].type);
	hwloc_obj_t obj;

	if (n <= 0) {
		env_put(s, topo_caches[i].key, topo_caches[i].src, "none");
		return;
	}
	obj = hwloc_get_obj_by_type(topo, topo_caches[i].type, 0);
	env_put(s, topo_caches[i].key, topo_caches[i].src, "%llu KiB x %d",
		(unsigned long long)obj->attr->cache.size / 1024, n);
}

static void topo_put_hwloc(const struct env_sink *s)
{
	hwloc_topology_t topo;
	unsigned int v = hwloc_get_api_version();
	size_t i;

	env_put(s, "topology.hwloc", "HWLOC_VERSION at build, hwloc_get_api_version()",
		"%s (API %u.%u.%u)", HWLOC_VERSION, v >> 16, (v >> 8) & 0xff,
		v & 0xff);
	if (hwloc_topology_init(&topo) < 0)
		goto fail;
#if HWLOC_API_VERSION >= 0x00020100
	hwloc_topology_set_flags(topo, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED);
#endif
	if (hwloc_topology_load(topo) < 0) {
		hwloc_topology_destroy(topo);
		goto fail;
	}
	for (i = 0; i < sizeof(topo_counts) / sizeof(topo_counts[0]); i++)
		env_put(s, topo_counts[i].key, topo_counts[i].src, "%d",
			hwloc_get_nbobjs_by_type(topo, topo_counts[i].type));
	for (i = 0; i < sizeof(topo_caches) / sizeof(topo_caches[0]); i++)
		topo_put_cache(s, topo, i);
	hwloc_topology_destroy(topo);
	return;
fail:
	for (i = 0; i < sizeof(topo_counts) / sizeof(topo_counts[0]); i++)
		env_put_unavail(s, topo_counts[i].key, topo_counts[i].src,
				"hwloc topology load failed");
}
#else
static void topo_put_hwloc(const struct env_sink *s)
{
	static const char *const keys[] = {
		"topology.packages", "topology.cores", "topology.numa_nodes",
	};
	size_t i;

	env_put(s, "topology.hwloc", "build configuration",
		"unsupported: built without hwloc");
	for (i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		env_put_unavail(s, keys[i], "build configuration",
				"built without hwloc");
	env_put(s, "topology.pus", "sysconf(_SC_NPROCESSORS_ONLN)", "%ld",
		sysconf(_SC_NPROCESSORS_ONLN));
}
#endif

/**
 * env_collect_topology() - emit the topology.* facts.
 * @s: the sink
 */
void env_collect_topology(const struct env_sink *s)
{
	topo_put_hwloc(s);
	env_put(s, "topology.online_cpus", "sysconf(_SC_NPROCESSORS_ONLN)", "%ld",
		sysconf(_SC_NPROCESSORS_ONLN));
	env_put(s, "topology.configured_cpus", "sysconf(_SC_NPROCESSORS_CONF)",
		"%ld", sysconf(_SC_NPROCESSORS_CONF));
}
