/* SPDX-License-Identifier: MIT */
/*
 * trace-gen.h - seeded synthetic traces in the Azure Functions 2019 format
 * (trace-azure19.h): per-minute invocation counts of each function.
 * Kinds: poisson, periodic, diurnal, bursty, and mix (per-function daily
 * rates spanning orders of magnitude as Shahrad et al., ATC 2020, measured).
 * docs/capacity.md says what each kind draws.
 */
#ifndef CVMBENCH_TRACE_GEN_H
#define CVMBENCH_TRACE_GEN_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

enum trace_kind { TRACE_POISSON, TRACE_PERIODIC, TRACE_DIURNAL, TRACE_BURSTY, TRACE_MIX };

struct trace_gen {
	enum trace_kind kind;
	size_t functions;
	unsigned minutes;        /* 1440: one day */
	double rate;             /* mean invocations per minute per function */
	double period;           /* periodic: minutes between invocations (>= 1) */
	uint64_t seed;
};

/** trace_kind_parse() - @s as a kind into *@k; -EINVAL when unknown. */
int trace_kind_parse(const char *s, enum trace_kind *k);
/** trace_kind_name() - the name of @k. */
const char *trace_kind_name(enum trace_kind k);
/**
 * trace_gen_write() - write the trace @g describes to @out; the number of
 * invocations into *@total. Returns 0 or -EIO.
 */
int trace_gen_write(FILE *out, const struct trace_gen *g, uint64_t *total);
/** trace_poisson() - a Poisson(@lambda) count drawn from @r. */
struct stats_rng;
unsigned trace_poisson(struct stats_rng *r, double lambda);

#endif
