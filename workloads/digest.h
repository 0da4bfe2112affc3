/* SPDX-License-Identifier: MIT */
/*
 * digest.h - SHA-256 of a function's output, so that results can be
 * compared across runs, thread counts, backends and machines. The hash is
 * OpenSSL's libcrypto (EVP), which uses the CPU's SHA extensions.
 */
#ifndef CVMFN_DIGEST_H
#define CVMFN_DIGEST_H

#include <stddef.h>
#include <stdint.h>

#define DIGEST_BYTES 32
#define DIGEST_HEX_LEN (2 * DIGEST_BYTES + 1)

struct digest {
	void *ctx;                /* EVP_MD_CTX, NULL after final */
	int err;                  /* first failure, reported by final */
};

/**
 * digest_warm() - do libcrypto's one-time set-up (it fetches the SHA-256
 * implementation on first use, about a millisecond) so that the first
 * digest_ns measured is the hash alone. 0 or -errno.
 */
int digest_warm(void);
/** digest_init() - start a SHA-256. 0 or -ENOMEM (then final reports it). */
int digest_init(struct digest *d);
void digest_update(struct digest *d, const void *data, size_t len);
/**
 * digest_final() - finish and write the hash, lowercase hex, NUL-terminated.
 * Frees the context. 0 or -errno (@hex is then an empty string).
 */
int digest_final(struct digest *d, char hex[DIGEST_HEX_LEN]);
/** digest_final_raw() - the same, as 32 raw bytes. 0 or -errno. */
int digest_final_raw(struct digest *d, uint8_t out[DIGEST_BYTES]);

#endif
