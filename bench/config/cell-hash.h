/* SPDX-License-Identifier: MIT */
/*
 * cell-hash.h - the hash behind a cell's key (cell-hash.c).
 */
#ifndef CVMBENCH_CELL_HASH_H
#define CVMBENCH_CELL_HASH_H

#include <stdint.h>

/**
 * cell_hash() - the 32-bit hash in a cell's key "EXPERIMENT-XXXXXXXX": FNV-1a
 * (64 bits, folded to 32) of the lines of @spec whose key is not at its
 * default, sorted, then of "#SALT" if @salt is not 0. A key added with a
 * default leaves every existing hash as it was (docs/configs.md).
 * The hash goes to *@out. Returns 0 or -ENOMEM.
 */
int cell_hash(const char *spec, int salt, uint32_t *out);

/**
 * cell_pair_hash() - the pair key of a cell (docs/compare.md): FNV-1a (64
 * bits) of the lines of @spec whose key is not at its default, sorted, as
 * cell_hash(), but without the line of the pairing dimension @dim (e.g.
 * "confidential", "backend") and without "repeat"; with @dim confidential
 * also without guest-accept, a key of the confidential side only. Two cells
 * with one pair key differ at most in @dim (and guest-accept) and their
 * repeat. Returns 0 or -ENOMEM.
 */
int cell_pair_hash(const char *spec, const char *dim, uint64_t *out);

#endif
