// SPDX-License-Identifier: MIT
/*
 * ksm-state.c - KSM's sysfs counters and the convergence wait (ksm-state.h).
 * Convergence, as the study waits for it: full_scans advances at least
 * twice, and pages_sharing read at the last two scan boundaries differs
 * by at most 1 %. The first advance seen ends a scan that began before the
 * wait (a part of a scan), and KSM merges a page only in the scan after the
 * one that first checksummed it, so two boundaries alone can read 0 and 0
 * on guests that are about to merge (measured: "converged" in 0.3 s with
 * pages_sharing 0 on two fresh guests). So it takes three advances: two
 * whole scans, whose ends are compared. full_scans and pages_sharing are
 * polled every 20 ms; the wait stops when one of the cell's processes ends.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"
#include "ksm-state.h"
#include "procmem.h"
#include "sysfs.h"

static struct {
	pthread_mutex_t mu;
	int done;
	struct ksm_convergence r;
} conv = { PTHREAD_MUTEX_INITIALIZER, 0, { 0 } };

long long ksm_counter(const char *name)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), KSM_SYSFS "/%s", name);
	if (sysfs_read_line(path, buf, sizeof(buf)) <= 0)
		return -1;
	return strtoll(buf, NULL, 10);
}

int ksm_stable(long long a, long long b)
{
	long long d = a > b ? a - b : b - a, m = a > b ? a : b;

	return d * 100 <= m;
}

void ksm_converge_reset(void)
{
	pthread_mutex_lock(&conv.mu);
	conv.done = 0;
	pthread_mutex_unlock(&conv.mu);
}

/* The first of @pids that has ended (a VM that died), or 0. */
static pid_t one_ended(const pid_t *pids, int n)
{
	int i;

	for (i = 0; i < n; i++)
		if (procmem_ended(pids[i]))
			return pids[i];
	return 0;
}

/*
 * Poll until two scan boundaries agree within 1 %, the timeout, or one of
 * @pids ends (what KSM does then is no longer about the cell's VMs).
 */
static void wait_scans(struct ksm_convergence *r, const pid_t *pids, int n)
{
	struct timespec pause = { 0, 20000000 };
	long long t0 = clock_now_ns(), f0 = ksm_counter("full_scans"), last = f0, f;
	long long prev = -1, ps;

	for (;;) {
		f = ksm_counter("full_scans");
		if (f > last) {
			ps = ksm_counter("pages_sharing");
			r->scans = f - f0;
			r->pages_sharing = ps;
			if (r->scans >= 3 && prev >= 0 && ksm_stable(prev, ps)) {
				r->converged = 1;
				break;
			}
			prev = ps;
			last = f;
		}
		r->wait_s = (double)(clock_now_ns() - t0) / 1e9;
		r->ended = one_ended(pids, n);
		if (r->ended)
			break;
		if (r->wait_s >= r->timeout_s) {
			r->timed_out = 1;
			break;
		}
		nanosleep(&pause, NULL);
	}
	r->wait_s = (double)(clock_now_ns() - t0) / 1e9;
}

/* 1 when every process's ksm_stat says it has no mergeable memory. */
static int none_mergeable(const pid_t *pids, int n)
{
	char path[64], buf[1024];
	int i;

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/ksm_stat", (int)pids[i]);
		if (sysfs_read(path, buf, sizeof(buf)) < 0 ||
		    !strstr(buf, "ksm_mergeable: no"))
			return 0;
	}
	return n > 0;
}

static void converge(double timeout_s, const pid_t *pids, int n,
		     struct ksm_convergence *r)
{
	long long run = ksm_counter("run");

	memset(r, 0, sizeof(*r));
	r->timeout_s = timeout_s;
	if (run < 0) {
		snprintf(r->how, sizeof(r->how), "not waited for: no KSM in this kernel");
		return;
	}
	if (run != 1) {
		snprintf(r->how, sizeof(r->how), "not waited for: KSM is not running "
			 "(run = %lld)", run);
		return;
	}
	if (none_mergeable(pids, n)) {
		snprintf(r->how, sizeof(r->how), "not waited for: no instance process has "
			 "mergeable memory (ksm_stat: ksm_mergeable: no)");
		return;
	}
	r->waited = 1;
	wait_scans(r, pids, n);
	if (r->ended)
		snprintf(r->how, sizeof(r->how), "stopped after %.1f s: instance process "
			 "pid %d ended during the wait", r->wait_s, (int)r->ended);
	else if (r->converged)
		snprintf(r->how, sizeof(r->how), "converged: %lld full scans in %.1f s, "
			 "pages_sharing %lld stable within 1 %%", r->scans, r->wait_s,
			 r->pages_sharing);
	else
		snprintf(r->how, sizeof(r->how), "NOT converged: timeout of %.0f s hit "
			 "after %lld full scans (pages_sharing %lld)", timeout_s, r->scans,
			 r->pages_sharing);
}

const struct ksm_convergence *ksm_converge_wait(double timeout_s, const pid_t *pids,
					       int npids)
{
	pthread_mutex_lock(&conv.mu);
	if (!conv.done) {
		converge(timeout_s, pids, npids, &conv.r);
		conv.done = 1;
	}
	pthread_mutex_unlock(&conv.mu);
	return &conv.r;
}
