/* SPDX-License-Identifier: MIT */
/*
 * tpcount-abab.h - counter-off and counter-on rounds of getpid calls,
 * interleaved in pairs whose order alternates (off on, on off, off on ...),
 * so a drift of the machine's speed cancels; the cost per counted event is
 * the median of the pairs' differences with its interval (stats-paired.h).
 */
#ifndef CVMBENCH_TPCOUNT_ABAB_H
#define CVMBENCH_TPCOUNT_ABAB_H

#include <stddef.h>

#include "stats-paired.h"
#include "tpcount.h"

#define TPCOUNT_ABAB_MAX_PAIRS 1000

/* The figures of one way of counting. */
struct tpcount_abab {
	double on_ns;             /* ns per call with the counters, median of the on rounds */
	double rd_ns;             /* ns a read costs per counted event, median */
	struct stats_paired cost; /* ns added per counted event: on - off per pair */
};

/**
 * tpcount_abab_run() - @pairs pairs of rounds of @calls getpid calls each,
 * one with no counter and one with the counters of @spec opened with
 * @flags (opened, enabled, read and closed outside the timed calls, every
 * count checked); the figures into @r. Returns 0, or -errno (@why).
 */
int tpcount_abab_run(const struct tpcount_spec *spec, unsigned int flags, long calls, int pairs,
		   struct tpcount_abab *r, char *why, size_t whylen);

#endif
