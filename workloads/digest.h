/* SPDX-License-Identifier: MIT */
/*
 * digest.h - SHA-256 of a function's output, so that results can be
 * compared across runs, thread counts, backends and machines.
 */
#ifndef CVMFN_DIGEST_H
#define CVMFN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define DIGEST_BYTES 32
#define DIGEST_HEX_LEN (2 * DIGEST_BYTES + 1)

struct digest {
	uint32_t state[8];
	uint64_t bytes;
	uint8_t block[64];
	size_t fill;
};

void digest_init(struct digest *d);
void digest_update(struct digest *d, const void *data, size_t len);
/** digest_final() - finish and write the hash, lowercase hex, NUL-terminated. */
void digest_final(struct digest *d, char hex[DIGEST_HEX_LEN]);
void digest_final_raw(struct digest *d, uint8_t out[DIGEST_BYTES]);

/* Helpers that feed values in a fixed byte order (little endian). */
void digest_u64(struct digest *d, uint64_t v);
/** digest_double() - feeds the value rounded to @decimals places, as text. */
void digest_double(struct digest *d, double v, int decimals);
void digest_str(struct digest *d, const char *s);

#endif
