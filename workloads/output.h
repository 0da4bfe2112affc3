/* SPDX-License-Identifier: MIT */
/*
 * output.h - what one invoke() produced, handed back to its caller.
 *
 * A function records its output here while it runs and does not hash it:
 * cvmfn (run and serve) takes the function's end time first and digests the
 * recorded bytes afterwards, outside the timed window. Recording is cheap:
 * a reference to a buffer the workload keeps (wl_out_ref), or a small copy.
 * The digest is SHA-256 over the recorded bytes in order, exactly the bytes
 * the old in-place digest_update() calls fed.
 */
#ifndef CVMFN_OUTPUT_H
#define CVMFN_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "digest.h"

struct wl_out_seg;

struct wl_output {
	struct wl_out_seg *seg;   /* in the order they were recorded */
	size_t nseg, seg_cap;
	uint8_t *bytes;           /* copied bytes and raw values */
	size_t nbytes, bytes_cap;
	int err;                  /* first failure (-ENOMEM) */
};

/** wl_output_reset() - empty it for the next invoke; keeps its memory. */
void wl_output_reset(struct wl_output *o);
/** wl_output_free() - release its memory. */
void wl_output_free(struct wl_output *o);

/**
 * wl_out_ref() - record @len bytes at @p by reference. The memory must stay
 * unchanged until the next invoke() or teardown() of the instance.
 */
void wl_out_ref(struct wl_output *o, const void *p, size_t len);
/** wl_out_bytes() - record a copy of @len bytes at @p. */
void wl_out_bytes(struct wl_output *o, const void *p, size_t len);
/** wl_out_u64() - record @v as 8 little-endian bytes. */
void wl_out_u64(struct wl_output *o, uint64_t v);
/**
 * wl_out_double() - record @v rounded to @decimals places as text ("%.*f;",
 * "-0.00" written as "0.00"); the text is made when the digest is taken.
 */
void wl_out_double(struct wl_output *o, double v, int decimals);
/** wl_out_str() - record @s with its terminating NUL. */
void wl_out_str(struct wl_output *o, const char *s);

/**
 * wl_output_digest() - SHA-256 of everything recorded, lowercase hex.
 * 0 or -errno (a recording or hashing failure).
 */
int wl_output_digest(const struct wl_output *o, char hex[DIGEST_HEX_LEN]);

/*
 * Which calls of an instance are digested: every one, the first only, or
 * the first and every N-th after it (--digest every | first | N).
 */
struct wl_digest_policy {
	long every;               /* 1 = every call, 0 = first only, N */
};

/** wl_digest_policy_parse() - "every", "first" or N >= 1. 0 or -EINVAL. */
int wl_digest_policy_parse(const char *s, struct wl_digest_policy *p);
/** wl_digest_due() - whether call @index (0 = the instance's first) is hashed. */
int wl_digest_due(const struct wl_digest_policy *p, unsigned long index);

#endif
