/* SPDX-License-Identifier: MIT */
/*
 * sgemm.h - single-precision matrix multiply (SGEMM) for the CNN and RNN
 * workloads: C = A * B + bias [+ residual] [ReLU].
 *
 * A (the weights) is packed once, at model load, into row panels; B (an
 * im2col matrix or activations) is packed per cache block. The blocking is
 * the GotoBLAS / BLIS one (kc x nc panel of B in L2, MR x NR register tile).
 * Every output element is the sum of its products in k order 0 .. K-1,
 * with separate multiply and add (no FMA): the result does not depend on
 * the thread count, the blocking or the vector width the CPU offers.
 */
#ifndef CVMFN_SGEMM_H
#define CVMFN_SGEMM_H

#include <stddef.h>

#include "pool.h"

/* Rows of one packed A panel (and of the register tile). */
#define SGEMM_MR 6

/* A matrix packed into ceil(m / SGEMM_MR) panels of k x SGEMM_MR floats. */
struct sgemm_a {
	size_t m, k;
	float *panels;
};

/* What is applied to each output element after the sum. */
struct sgemm_epilogue {
	const float *bias;        /* per row, or NULL */
	const float *residual;    /* same shape and stride as C, or NULL */
	int relu;
};

/* Per-thread packing buffers and the kernel chosen for this CPU. */
struct sgemm_ctx;

/**
 * sgemm_pack_a() - pack the row-major @m x @k matrix @a (row stride @lda).
 * Returns 0 or -ENOMEM.
 */
int sgemm_pack_a(struct sgemm_a *pa, const float *a, size_t m, size_t k,
		size_t lda);

/** sgemm_a_free() - release a packed matrix; a zeroed one is fine. */
void sgemm_a_free(struct sgemm_a *pa);

/**
 * sgemm_ctx_create() - packing buffers for every thread of @pool. NULL on
 * out of memory.
 */
struct sgemm_ctx *sgemm_ctx_create(struct pool *pool);

/** sgemm_ctx_destroy() - free a context; NULL is fine. */
void sgemm_ctx_destroy(struct sgemm_ctx *ctx);

/**
 * sgemm_run() - C (m x @n, row stride @ldc) = A (m x k) * B (k x @n, row
 * stride @ldb), then the epilogue @ep (may be NULL). Threads of the
 * context's pool split C into row and column blocks.
 */
void sgemm_run(struct sgemm_ctx *ctx, const struct sgemm_a *a, const float *b,
	      size_t ldb, size_t n, float *c, size_t ldc,
	      const struct sgemm_epilogue *ep);

/** sgemm_isa() - the vector width in use: "avx512", "avx2" or "sse2". */
const char *sgemm_isa(void);

#endif
