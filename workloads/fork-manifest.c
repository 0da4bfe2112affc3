// SPDX-License-Identifier: MIT
/*
 * fork-manifest.c - the table of fork-manifest.h: what a cvmfn holds that
 * a fork from a seed could duplicate, read from the code (entropy.c,
 * rng.c, pool.c, scratch.c, wlfile.c, crud-api.c, random-disk-io.c).
 * `cvmfn fork-check` measures the items that must differ.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "fork-manifest.h"

static const struct fork_item items[] = {
	{ NULL, "entropy buffer (entropy.c: buffered getrandom)", FORK_ENTROPY,
	  MADE_RUNTIME, FORK_REMADE, 1, "entropy_reseed() in the child before it draws" },
	{ NULL, "input and model generator (rng.c, from --seed)", FORK_ENTROPY,
	  MADE_INIT, FORK_COW, 0, "the same bytes by design: every instance's digest agrees" },
	{ NULL, "worker threads and their futexes (pool.c)", FORK_ID,
	  MADE_INIT, FORK_REMADE, 1, "pool_after_fork() starts the workers anew" },
	{ NULL, "process id (ready line, .tmpPID names of crud-api, random-disk-io)",
	  FORK_ID, MADE_CALL, FORK_REMADE, 1, "the kernel gives each child its own" },
	{ NULL, "protocol descriptors (stdin, stdout)", FORK_DESCRIPTOR,
	  MADE_CALL, FORK_REMADE, 1, "passed to each child by SCM_RIGHTS" },
	{ NULL, "the seed's report socket", FORK_DESCRIPTOR, MADE_RUNTIME, FORK_SHARED, 0,
	  "one record per write (SOCK_SEQPACKET): children's reports do not mix" },
	{ NULL, "SHA-256 of libcrypto (digest_warm)", FORK_ENTROPY, MADE_RUNTIME,
	  FORK_COW, 0, "a hash holds no secret; its state is per call" },
	{ NULL, "timers", FORK_TIMER, MADE_RUNTIME, FORK_SHARED, 0,
	  "none armed: waits read CLOCK_MONOTONIC, which is one clock for all" },
	{ NULL, "temporary names of data and output files (wlfile.c: mkstemp)", FORK_ID,
	  MADE_CALL, FORK_REMADE, 1, "mkstemp draws its own name in the child" },
	{ "compression", "scratch directory (scratch.c: mkdtemp in init)", FORK_ID,
	  MADE_INIT, FORK_SHARED, 1, "every warm child would write and remove the same one" },
	{ "crud-api", "scratch directory (scratch.c: mkdtemp in init)", FORK_ID,
	  MADE_INIT, FORK_SHARED, 1, "every warm child would write and remove the same one" },
	{ "random-disk-io", "scratch directory and its file (mkdtemp, open O_EXCL in init)",
	  FORK_DESCRIPTOR, MADE_INIT, FORK_SHARED, 1,
	  "every warm child would share the descriptor and remove the same file" },
};

static const char *const layer_names[] = { "bare", "runtime", "warm" };
static const char *const kind_names[] = { "entropy", "descriptor", "timer", "id" };
static const char *const fate_names[] = { "shared", "copy-on-write", "re-made" };
static const char *const made_names[] = { "runtime", "init", "call" };

const struct fork_item *fork_manifest(size_t *n)
{
	*n = sizeof(items) / sizeof(items[0]);
	return items;
}

int seed_layer_parse(const char *s, enum seed_layer *l)
{
	int i;

	for (i = 0; i <= SEED_WARM; i++)
		if (!strcmp(s, layer_names[i])) {
			*l = (enum seed_layer)i;
			return 0;
		}
	return -EINVAL;
}

const char *seed_layer_name(enum seed_layer l)
{
	return layer_names[l];
}

/* Is @it made by the time the seed of @layer forks (so a child inherits it)? */
static int made_in_seed(const struct fork_item *it, enum seed_layer layer)
{
	return (it->made == MADE_RUNTIME && layer >= SEED_RUNTIME) ||
	       (it->made == MADE_INIT && layer == SEED_WARM);
}

int fork_manifest_gate(const char *workload, enum seed_layer layer, char *why, size_t len)
{
	size_t i;

	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		const struct fork_item *it = &items[i];

		if (it->workload && strcmp(it->workload, workload))
			continue;
		if (it->must_differ && it->fate == FORK_SHARED && made_in_seed(it, layer)) {
			snprintf(why, len, "seed-layer = %s: %s's %s would be shared by every "
				 "child (%s); fork it from runtime", layer_names[layer],
				 workload, it->item, it->how);
			return -EPERM;
		}
	}
	return 0;
}

void fork_manifest_print(const char *workload)
{
	size_t i;

	printf("%-10s %-8s %-13s %-6s %s\n", "kind", "made", "after fork", "differ", "item");
	for (i = 0; i < sizeof(items) / sizeof(items[0]); i++) {
		const struct fork_item *it = &items[i];

		if (it->workload && (!workload || strcmp(it->workload, workload)))
			continue;
		printf("%-10s %-8s %-13s %-6s %s%s%s: %s\n", kind_names[it->kind],
		       made_names[it->made], fate_names[it->fate], it->must_differ ? "yes" : "no",
		       it->workload ? it->workload : "", it->workload ? ": " : "", it->item,
		       it->how);
	}
}
