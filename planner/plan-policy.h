/* SPDX-License-Identifier: MIT */
/*
 * plan-policy.h - the keep-alive policies the simulator runs and how a
 * command line names them (docs/capacity.md):
 *   ttl:DUR | ttl10 | ttl20     fixed keep-alive after each invocation
 *   hybrid[:RANGE]              ATC 2020 hybrid histogram (range default 4h)
 *   lru:SIZE                    keep until evicted, least recently used first
 *   gdsf:SIZE                   FaasCache Greedy-Dual-Size-Frequency
 *   predictive[:VALUE]          Reducio-style: keep while the Poisson rate
 *                               estimate times VALUE ($ per second of cold
 *                               start avoided) exceeds the memory's price
 *   layered                     Warm -> Runtime -> Bare (needs per-layer
 *                               metrics: a skip until a database has them)
 */
#ifndef CVMBENCH_PLAN_POLICY_H
#define CVMBENCH_PLAN_POLICY_H

enum plan_policy_kind {
	POLICY_TTL, POLICY_HYBRID, POLICY_LRU, POLICY_GDSF, POLICY_PREDICTIVE, POLICY_LAYERED
};

struct plan_policy {
	enum plan_policy_kind kind;
	double param;            /* ttl: s; hybrid: range s; predictive: $/s; lru/gdsf: bytes */
	double budget;           /* bytes of warm memory at most; 0: none */
	char label[48];          /* as stored and printed, e.g. "ttl:600" */
};

/* The per-layer metrics the layered policy needs (docs/capacity.md). */
#define LAYER_METRICS "layer_warm_mem_kb, layer_runtime_mem_kb, layer_bare_mem_kb, " \
	"layer_runtime_start_s, layer_bare_start_s"

/**
 * plan_policy_parse() - @s as a policy into *@p. Returns 0 or EXIT_USAGE
 * after naming what is wrong (an unknown policy, a budget below 1 MiB).
 */
int plan_policy_parse(const char *s, struct plan_policy *p);
/** plan_policy_name() - the name of @k ("ttl", "hybrid", ...). */
const char *plan_policy_name(enum plan_policy_kind k);

#endif
