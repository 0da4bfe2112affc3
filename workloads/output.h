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
 *
 * Files (--output) are recorded the same way and written by the caller
 * after the end time too (wl_output_write_files(), wlfile.h): invoke()
 * formats what goes into a file, it never opens one.
 */
#ifndef CVMFN_OUTPUT_H
#define CVMFN_OUTPUT_H

#include <stddef.h>
#include <stdint.h>

#include "digest.h"

struct wl_out_seg;
struct wl_instance;

/*
 * Writes a file that is not one buffer (a copy of a database, a hard link
 * to a scratch file) to @path after the end time; 0 or -errno with
 * inst->error set. What it reads must stay unchanged until the next invoke.
 */
typedef int (*wl_out_writer)(struct wl_instance *inst, const char *path, void *arg);

/* One file to write after the end time (wl_out_file*()). */
struct wl_out_file {
	char *path;               /* malloc'd copy */
	const void *data;         /* @len bytes, or ... */
	size_t len;
	wl_out_writer write;      /* ... non-NULL: write(inst, path, arg) */
	void *arg;
	void *owned;              /* freed with the entry */
};

struct wl_output {
	struct wl_out_seg *seg;   /* in the order they were recorded */
	size_t nseg, seg_cap;
	uint8_t *bytes;           /* copied bytes and raw values */
	size_t nbytes, bytes_cap;
	struct wl_out_file *file; /* files to write, in order */
	size_t nfile, file_cap;
	int err;                  /* first failure (-ENOMEM) */
};

/**
 * wl_output_reset() - empty it for the next invoke; keeps its memory but
 * frees what wl_out_file_owned() handed it.
 */
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
 * wl_out_file() - have @len bytes at @data written to @path after the end
 * time. The memory must stay unchanged until the next invoke() or teardown()
 * of the instance; @path is copied. Not part of the digest.
 */
void wl_out_file(struct wl_output *o, const char *path, const void *data, size_t len);
/**
 * wl_out_file_owned() - as wl_out_file() for a malloc'd @buf, which the
 * output frees (at the next reset or free, or now if recording fails).
 */
void wl_out_file_owned(struct wl_output *o, const char *path, void *buf, size_t len);
/** wl_out_file_with() - have @write(inst, @path, @arg) run after the end time. */
void wl_out_file_with(struct wl_output *o, const char *path, wl_out_writer write,
		      void *arg);

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
