/* SPDX-License-Identifier: MIT */
/*
 * corunner-load.h - what the co-runner's threads do (key corunner-kind):
 *
 *   cpu      spin on a counter in a register: CPU time, no memory traffic
 *   cache    write every cache line of a buffer the size of the last-level
 *            cache (hwloc), over and over: the instance's lines are evicted
 *   memory   copy between two buffers far larger than the last-level cache
 *            (a STREAM-like copy): memory bandwidth
 *   kv       no threads of its own: a redis-server under redis-benchmark load
 *            (corunner-kv.h), N connections, the server on the first object
 *            of corunner-pin and the load generator on the second
 *
 * Buffer sizes (corunner_plan_size(), stored as cell_param corunner.size_bytes
 * and corunner.size_rule): a co-runner's buffers together use at most its
 * budget, MemTotal / 16 and never more than 256 MiB, so that it leaves the
 * instances their memory and has faulted its pages in within about a second
 * even where faults are slow (a PVM guest: ~250 MB/s when busy). Hypervisors
 * report caches of any size through CPUID (B: an L3 of 508 MB per core):
 *
 *   cache    llc: the LLC / threads; budget: the LLC exceeds the budget, each
 *            thread holds budget / threads (part of the cache as reported);
 *            no LLC known: the cell is skipped
 *   memory   4x-llc: 2 x max(4 x LLC, 64 MiB) each; no-llc: the same with
 *            an LLC of 32 MiB assumed; budget: that exceeds the budget,
 *            budget / threads each while each half still exceeds the LLC;
 *            else the cell is skipped (it could not stream beyond the cache)
 *
 * The plan is made in cvmbench (knob-corunner.c); the child runs it.
 */
#ifndef CVMBENCH_CORUNNER_LOAD_H
#define CVMBENCH_CORUNNER_LOAD_H

#include <sched.h>
#include <stddef.h>

#define CORUNNER_MAX_THREADS 256
#define MIB (1024UL * 1024UL)
/* the memory budget of a co-runner's buffers: MemTotal / SHARE, at most MAX */
#define CORUNNER_BUDGET_SHARE 16
#define CORUNNER_BUDGET_MAX (256 * MIB)
/* the LLC a memory co-runner assumes when hwloc knows none */
#define CORUNNER_LLC_ASSUMED (32 * MIB)

enum corunner_kind { CORUNNER_CPU, CORUNNER_CACHE, CORUNNER_MEMORY, CORUNNER_KV };

enum corunner_size_rule {
	CORUNNER_SIZE_NONE,     /* cpu, kv: no buffer */
	CORUNNER_SIZE_LLC,      /* cache: the LLC / threads */
	CORUNNER_SIZE_BUDGET,   /* cache or memory: capped, the budget / threads */
	CORUNNER_SIZE_4X_LLC,   /* memory: 2 x max(4 x LLC, 64 MiB) */
	CORUNNER_SIZE_NO_LLC,   /* memory, no LLC known: as 4x-llc of CORUNNER_LLC_ASSUMED */
};
struct corunner_plan {
	enum corunner_kind kind;
	int threads;
	size_t bytes;                             /* each thread's buffer (0: cpu) */
	enum corunner_size_rule rule;             /* why bytes is what it is */
	size_t llc, budget;                       /* what the rule was given */
	int pinned;                               /* cpus[] holds each thread's CPUs */
	cpu_set_t cpus[CORUNNER_MAX_THREADS];
};

/** corunner_kind_parse() - "cpu", "cache", "memory", "kv": 0, or -EINVAL. */
int corunner_kind_parse(const char *v, enum corunner_kind *k);
/**
 * corunner_budget() - the memory a co-runner's buffers may use together:
 * 1/CORUNNER_BUDGET_SHARE of @mem_total_kb (MemTotal), at most
 * CORUNNER_BUDGET_MAX (unknown MemTotal, <= 0: the maximum).
 */
size_t corunner_budget(long long mem_total_kb);
/**
 * corunner_plan_size() - each thread's buffer of @p (kind, threads set) for
 * an LLC of @llc bytes (0: none known) and a @budget (corunner_budget()),
 * with the rule that chose it (see the top of this file). 0, or -ENODEV
 * (cache, no LLC known) or -E2BIG (memory: the budget cannot exceed the
 * LLC) with @why: the cell is skipped.
 */
int corunner_plan_size(struct corunner_plan *p, size_t llc, size_t budget, char *why,
		       size_t len);
/** corunner_size_rule_name() - "llc", "budget", ... (cell_param corunner.size_rule). */
const char *corunner_size_rule_name(enum corunner_size_rule r);
/** corunner_run() - run @plan in this (child) process; never returns. */
void corunner_run(const struct corunner_plan *plan) __attribute__((noreturn));

#endif
