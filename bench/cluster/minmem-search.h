/* SPDX-License-Identifier: MIT */
/*
 * minmem-search.h - `cvmbench minmem` (minmem-search.c): the minimum guest
 * memory of one function and VM type, by a search over memory sizes with
 * real boots, each step a run of one qemu cell into the database.
 */
#ifndef CVMBENCH_MINMEM_SEARCH_H
#define CVMBENCH_MINMEM_SEARCH_H

#include <stddef.h>

#include "db-minmem.h"

/*
 * The experiment of every step's config: the planner leaves these cells out
 * of a platform's measurements (planner/plan-inputs.c), they are squeezed.
 */
#define MINMEM_EXPERIMENT "minmem-step"
/* The smallest guest the VM description takes (vm-check.c): below it is bad input. */
#define MINMEM_FLOOR_MIB 64

/**
 * struct minmem_args - what every search of one `minmem` shares: the
 * database, the folder the step configs are written to (kept: each is a
 * config `cvmbench run` takes), the cells' keys, the run options.
 */
struct minmem_args {
	const char *db, *config_dir, *data_dir, *cvmfn;
	const char *size, *accel;
	int from_mib, to_mib, step_mib, invocations;
	double threshold_pct, wait_lock;
};

/** struct minmem_answer - a search's answer: @min_mib (0: none, @why says). */
struct minmem_answer {
	int min_mib;
	double baseline_ms, at_min_ms;
	int steps;
	char why[512];
};

/**
 * minmem_check() - @a's range against the floor and itself: 0, or -EINVAL
 * with @why naming the value.
 */
int minmem_check(const struct minmem_args *a, char *why, size_t len);
/**
 * minmem_search() - the search for @workload on @vm_type (confidential:
 * none, model, sev-snp, tdx): the baseline at to_mib must pass (every call
 * ok); then the smallest size on the from_mib + k * step_mib grid at which
 * every call is ok and the median stays within threshold_pct of the
 * baseline's, by bisection (a size that fails is taken to fail below too).
 * Steps already run by an earlier minmem with the same config are kept.
 * Returns an exit code (exitcode.h): EXIT_OK with an answer (or none, why
 * says), EXIT_INTERRUPTED, EXIT_USAGE or EXIT_FAILED when a step could not
 * be run or stored.
 */
int minmem_search(const struct minmem_args *a, const char *workload, const char *vm_type,
		  struct minmem_answer *ans);

#endif
