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
 * The plan is made in cvmbench (knob-corunner.c); the child runs it.
 */
#ifndef CVMBENCH_CORUNNER_LOAD_H
#define CVMBENCH_CORUNNER_LOAD_H

#include <sched.h>
#include <stddef.h>

#define CORUNNER_MAX_THREADS 256

enum corunner_kind { CORUNNER_CPU, CORUNNER_CACHE, CORUNNER_MEMORY, CORUNNER_KV };

struct corunner_plan {
	enum corunner_kind kind;
	int threads;
	size_t bytes;                             /* each thread's buffer (0: cpu) */
	int pinned;                               /* cpus[] holds each thread's CPUs */
	cpu_set_t cpus[CORUNNER_MAX_THREADS];
};

/** corunner_kind_parse() - "cpu", "cache", "memory", "kv": 0, or -EINVAL. */
int corunner_kind_parse(const char *v, enum corunner_kind *k);
/**
 * corunner_plan_bytes() - each thread's buffer for @kind given the
 * last-level cache's size @llc (bytes; 0 = unknown: 32 MiB assumed).
 */
size_t corunner_plan_bytes(enum corunner_kind kind, size_t llc, int threads);
/** corunner_run() - run @plan in this (child) process; never returns. */
void corunner_run(const struct corunner_plan *plan) __attribute__((noreturn));

#endif
