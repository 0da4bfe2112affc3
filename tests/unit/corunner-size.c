// SPDX-License-Identifier: MIT
/*
 * tests/unit/corunner-size.c - the co-runner's buffer sizes and their rules
 * (bench/knobs/corunner-load.c corunner_plan_size(), corunner_budget()),
 * against numbers worked out by hand from the rule in corunner-load.h:
 * budget = min(MemTotal / 16, 256 MiB); cache = LLC / threads, or the
 * budget / threads when the LLC is larger; memory = 2 x max(4 x LLC, 64 MiB)
 * (32 MiB assumed without an LLC), or budget / threads while its halves still
 * exceed the LLC, else a skip. Machines: B (an L3 of 532676608 B = 508 MiB as
 * its hypervisor's CPUID says, MemTotal 24683548 kB), a desktop's 32 MiB L3,
 * no cache known, a 1 GiB guest.
 */
#include <errno.h>
#include <string.h>

#include "corunner-load.h"
#include "tap.h"

#define B_L3 532676608UL
#define B_MEM_KB 24683548LL

/* @kind, @threads on an LLC of @llc and @budget: the return, size and rule into @p. */
static int size(struct corunner_plan *p, enum corunner_kind kind, int threads, size_t llc,
		size_t budget, char *why, size_t len)
{
	memset(p, 0, sizeof(*p));
	p->kind = kind;
	p->threads = threads;
	why[0] = '\0';
	return corunner_plan_size(p, llc, budget, why, len);
}

static void check(const char *what, enum corunner_kind kind, int threads, size_t llc,
		  size_t budget, int want_ret, size_t want_bytes, const char *want_rule)
{
	struct corunner_plan p;
	char why[256];
	int ret = size(&p, kind, threads, llc, budget, why, sizeof(why));
	const char *rule = corunner_size_rule_name(p.rule);

	if (want_ret) {
		tap_ok(ret == want_ret && why[0], "%s: skipped (%d): %s", what, ret, why);
		return;
	}
	tap_ok(!ret && p.bytes == want_bytes && !strcmp(rule, want_rule),
	       "%s: %zu bytes (want %zu), rule %s (want %s)", what, p.bytes, want_bytes, rule,
	       want_rule);
}

int main(void)
{
	const size_t mib = 1024 * 1024, b_budget = corunner_budget(B_MEM_KB);
	struct corunner_plan p;
	char why[256];

	tap_plan(14);
	tap_ok(b_budget == 256 * mib, "budget on B (24 GB): the 256 MiB ceiling (%zu)", b_budget);
	tap_ok(corunner_budget(1048576) == 64 * mib, "budget of a 1 GiB guest: 1/16, 64 MiB");
	tap_ok(corunner_budget(-1) == 256 * mib, "budget, MemTotal unknown: the ceiling");

	check("B, cache, 1 thread: the L3 over the budget, capped", CORUNNER_CACHE, 1, B_L3,
	      b_budget, 0, 256 * mib, "budget");
	check("B, cache, 3 threads: budget / 3, whole lines", CORUNNER_CACHE, 3, B_L3, b_budget,
	      0, 89478464, "budget");
	check("B, memory: halves of 128 MiB cannot exceed 508 MiB", CORUNNER_MEMORY, 1, B_L3,
	      b_budget, -E2BIG, 0, NULL);
	size(&p, CORUNNER_MEMORY, 1, B_L3, b_budget, why, sizeof(why));
	tap_contains(why, "each half of a thread's buffer would be 131072 KiB (the co-runner's "
		     "memory budget, 262144 KiB, over 1 thread(s)), not more than the LLC's "
		     "520192 KiB", "B, memory: the reason names the half, the budget and the LLC");

	check("32 MiB L3, cache, 2 threads: 16 MiB each", CORUNNER_CACHE, 2, 32 * mib, b_budget,
	      0, 16 * mib, "llc");
	check("32 MiB L3, memory, 1 thread: 2 x 128 MiB fits", CORUNNER_MEMORY, 1, 32 * mib,
	      b_budget, 0, 256 * mib, "4x-llc");
	check("32 MiB L3, memory, 2 threads: capped to 128 MiB (halves 64 > 32)",
	      CORUNNER_MEMORY, 2, 32 * mib, b_budget, 0, 128 * mib, "budget");
	check("4 MiB L3, memory: 2 x 64 MiB", CORUNNER_MEMORY, 1, 4 * mib, b_budget, 0,
	      128 * mib, "4x-llc");

	check("no LLC, cache: skipped", CORUNNER_CACHE, 1, 0, b_budget, -ENODEV, 0, NULL);
	check("no LLC, memory: 32 MiB assumed", CORUNNER_MEMORY, 1, 0, b_budget, 0, 256 * mib,
	      "no-llc");
	check("cpu: no buffer", CORUNNER_CPU, 4, B_L3, b_budget, 0, 0, "none");
	return tap_done();
}
