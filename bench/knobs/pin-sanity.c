// SPDX-License-Identifier: MIT
/*
 * pin-sanity.c - the cell's setup flags (knob-pin.h pin_sanity()): what
 * the study's setup notes warn against, read from the machine as it is
 * during the cell: a VM whose vCPU threads float, and a co-runner whose
 * CPUs (sched_getaffinity of its process) sit under a last-level cache
 * (hwloc) that the instance's CPUs sit under too.
 */
#include <sched.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "knob-pin.h"
#include "placement.h"

static void corunner_llc(pid_t pid, pid_t corunner,
			 void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	struct placement *pl;
	char why[256], a_txt[96], b_txt[96], msg[512];
	cpu_set_t a, b;
	int llc;

	if (sched_getaffinity(pid, sizeof(a), &a) || sched_getaffinity(corunner, sizeof(b), &b))
		return;
	if (placement_open(&pl, why, sizeof(why)))
		return;
	llc = placement_shared_llc(pl, &a, &b);
	if (llc >= 0) {
		placement_cpus_text(&a, a_txt, sizeof(a_txt));
		placement_cpus_text(&b, b_txt, sizeof(b_txt));
		snprintf(msg, sizeof(msg), "the co-runner (CPUs %s) shares %s cache %d with the "
			 "instance (CPUs %s)", b_txt, placement_llc_name(pl), llc, a_txt);
		put(ctx, "sanity.corunner_shares_llc", msg);
	}
	placement_close(pl);
}

void pin_sanity(const char *backend, pid_t pid, pid_t corunner,
		void (*put)(void *ctx, const char *key, const char *value), void *ctx)
{
	if (backend_boots_guests(backend) && !pin_vcpus_pinned())
		put(ctx, "sanity.vcpus_unpinned", "the VMs' vCPU threads are not pinned: "
		    "they float over the host's CPUs");
	if (pid > 0 && corunner > 0)
		corunner_llc(pid, corunner, put, ctx);
}
