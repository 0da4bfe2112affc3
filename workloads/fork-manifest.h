/* SPDX-License-Identifier: MIT */
/*
 * fork-manifest.h - what a process forked from a seed (zygote.c) holds
 * that must be unique: per workload (and for every one, the runtime's
 * items) each item of entropy, descriptor, timer or identifier, when it is
 * made (by the runtime layer, by the function's init, during a call) and
 * what happens to it after fork: shared with the seed and the siblings,
 * copied on write, or re-made in the child. The table is
 * fork-manifest.c; docs/experiments/seed-tree.md prints it.
 */
#ifndef CVMFN_FORK_MANIFEST_H
#define CVMFN_FORK_MANIFEST_H

#include <stddef.h>

/* The seed layers, shallow to deep (docs/experiments/seed-tree.md). */
enum seed_layer { SEED_BARE, SEED_RUNTIME, SEED_WARM };

enum fork_kind { FORK_ENTROPY, FORK_DESCRIPTOR, FORK_TIMER, FORK_ID };
enum fork_fate { FORK_SHARED, FORK_COW, FORK_REMADE };
/* When an item is made: in the runtime layer, in init (warm), during a call. */
enum fork_made { MADE_RUNTIME, MADE_INIT, MADE_CALL };

struct fork_item {
	const char *workload;     /* NULL: every workload (the runtime's) */
	const char *item;
	enum fork_kind kind;
	enum fork_made made;
	enum fork_fate fate;
	int must_differ;          /* 1: two children must never hold the same */
	const char *how;          /* why it is safe, or what makes it unsafe */
};

/** fork_manifest() - the table and its length in *@n. */
const struct fork_item *fork_manifest(size_t *n);
/** seed_layer_parse() - "bare", "runtime", "warm" into *@l; 0 or -EINVAL. */
int seed_layer_parse(const char *s, enum seed_layer *l);
/** seed_layer_name() - the name of @l. */
const char *seed_layer_name(enum seed_layer l);
/**
 * fork_manifest_gate() - may children of @workload be forked from @layer?
 * 0, or -EPERM with @why naming the item that would be shared between
 * children although it must differ (made in the seed, not re-made).
 */
int fork_manifest_gate(const char *workload, enum seed_layer layer, char *why, size_t len);
/** fork_manifest_print() - the items of @workload (and every one's) as a table. */
void fork_manifest_print(const char *workload);

#endif
