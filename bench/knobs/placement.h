/* SPDX-License-Identifier: MIT */
/*
 * placement.h - where on the machine's topology (hwloc) a cell's
 * instances run: the `pin` key's CPU sets and the `membind` key's NUMA
 * nodes, the topology facts the knobs check them against (how many cores,
 * NUMA nodes, last-level caches), and which last-level caches a CPU set
 * touches (the co-runner sanity flag). Built without hwloc every spec but
 * `none` is refused with the reason.
 *
 *   pin = none       the instances float (the scheduler places them)
 *   pin = core       instance i on core i mod cores (all its hardware threads)
 *   pin = numa:N     the CPUs of NUMA node N
 *   pin = llc:N      the CPUs sharing last-level cache N (L3, else L2)
 */
#ifndef CVMBENCH_PLACEMENT_H
#define CVMBENCH_PLACEMENT_H

#include <sched.h>
#include <stddef.h>

enum placement_kind { PLACE_NONE, PLACE_CORE, PLACE_NUMA, PLACE_LLC };

struct placement_spec {
	enum placement_kind kind;
	int index;                /* N of numa:N and llc:N */
};

struct placement;             /* a loaded topology */

/** placement_parse() - @v into @p: 0, or -EINVAL. */
int placement_parse(const char *v, struct placement_spec *p);
/**
 * placement_open() - load this machine's topology. 0, or -errno with
 * the reason in @why (built without hwloc, hwloc failed).
 */
int placement_open(struct placement **pl, char *why, size_t len);
/** placement_close() - free it. */
void placement_close(struct placement *pl);
/**
 * placement_cpus() - the CPUs instance @idx gets under @p. 0, or -ENOENT
 * with the reason in @why (no such NUMA node or cache on this machine).
 */
int placement_cpus(struct placement *pl, const struct placement_spec *p, int idx,
		   cpu_set_t *set, char *why, size_t len);
/** placement_numa_nodes() - NUMA nodes of the machine (>= 1). */
int placement_numa_nodes(struct placement *pl);
/**
 * placement_shared_llc() - the index of a last-level cache that CPUs of
 * both @a and @b sit under, or -1 (none, or no cache known).
 */
int placement_shared_llc(struct placement *pl, const cpu_set_t *a, const cpu_set_t *b);
/**
 * placement_llc_size() - bytes of the last-level cache over the first CPU
 * of @cpus (NULL: the first such cache), or 0 when hwloc knows none.
 */
size_t placement_llc_size(struct placement *pl, const cpu_set_t *cpus);
/** placement_llc_name() - "L3" or "L2": what llc:N counts here. */
const char *placement_llc_name(struct placement *pl);
/**
 * placement_bind_thread() - bind the calling thread to @set with
 * hwloc_set_cpubind(HWLOC_CPUBIND_THREAD); a child it forks inherits it.
 */
int placement_bind_thread(struct placement *pl, const cpu_set_t *set);
/**
 * placement_bind_memory() - bind the calling thread's memory to the NUMA
 * nodes under @cpus (@remote 0) or to every other node (@remote 1), with
 * hwloc_set_membind(HWLOC_MEMBIND_BIND, HWLOC_MEMBIND_THREAD). 0 or -errno
 * (-ENOENT: no such node).
 */
int placement_bind_memory(struct placement *pl, const cpu_set_t *cpus, int remote);
/** placement_unbind_memory() - the calling thread's default policy again. */
void placement_unbind_memory(struct placement *pl);
/*
 * Room for the text of any cpu_set_t: the longest is every other CPU of
 * CPU_SETSIZE 1024 ("0,2,...,1022": 2004 characters and the NUL).
 */
#define PLACEMENT_CPUS_TEXT_MAX 2048

/**
 * placement_cpus_text() - "0-3,6" for @set ("none" when empty). Returns 0,
 * or -ENOSPC when @len is too short: @buf then holds the entries that fit
 * whole, followed by ",...", never a number cut in two. Use a buffer of
 * PLACEMENT_CPUS_TEXT_MAX where the text is stored or handed on.
 */
int placement_cpus_text(const cpu_set_t *set, char *buf, size_t len);

#endif
