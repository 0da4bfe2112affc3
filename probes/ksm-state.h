/* SPDX-License-Identifier: MIT */
/*
 * ksm-state.h - the host's KSM as the memory probes see it: its sysfs
 * counters, and the wait for it to converge before a cell's steady-state
 * sample. The wait is made once per cell window, by whichever of the
 * hostmem and ksm probes stops first; the other reads its result.
 */
#ifndef CVMBENCH_KSM_STATE_H
#define CVMBENCH_KSM_STATE_H

#include <stddef.h>
#include <sys/types.h>

#define KSM_SYSFS "/sys/kernel/mm/ksm"

/** ksm_counter() - the number in KSM_SYSFS/@name, or -1 when absent or unreadable. */
long long ksm_counter(const char *name);

/*
 * How the wait went. @waited 0: KSM was not running (run != 1), nothing
 * was waited for. @converged: full_scans advanced at least twice and
 * pages_sharing changed by 1 % or less between the last two scans;
 * @timed_out: @timeout_s passed first.
 */
struct ksm_convergence {
	int waited, converged, timed_out;
	double wait_s, timeout_s;
	long long scans;              /* full scans seen during the wait */
	long long pages_sharing;      /* at the last scan seen */
	pid_t ended;                  /* a process that ended during the wait, or 0 */
	char how[256];                /* in words, for the cell's notes */
};

/** ksm_stable() - 1 if @b is within 1 % of @a (both counts of pages). */
int ksm_stable(long long a, long long b);
/** ksm_converge_reset() - a new cell window: the next wait waits again. */
void ksm_converge_reset(void);
/**
 * ksm_converge_wait() - wait (at most @timeout_s) for KSM to converge, once
 * per window since the last reset; later calls return the first result.
 * Not waited for when none of @pids has mergeable memory (ksm_stat says
 * "ksm_mergeable: no" for each): full_scans does not advance then.
 */
const struct ksm_convergence *ksm_converge_wait(double timeout_s, const pid_t *pids,
					       int npids);

#endif
