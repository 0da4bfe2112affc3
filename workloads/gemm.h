/* SPDX-License-Identifier: MIT */
/*
 * gemm.h - blocked DGEMM (C += A * B) split over a worker pool, used by
 * matmul. Per C element, the sum order depends on GEMM_KC only (see gemm.c).
 */
#ifndef CVMFN_GEMM_H
#define CVMFN_GEMM_H

#include <stddef.h>

#include "pool.h"

#define GEMM_MC 64
#define GEMM_KC 256
#define GEMM_NC 512

struct gemm;

/** gemm_create() - packing buffers for @m x @n x @k on @threads threads. */
struct gemm *gemm_create(size_t m, size_t n, size_t k, int threads);

/** gemm_destroy() - free; NULL is fine. */
void gemm_destroy(struct gemm *g);

/** gemm_run() - C += A * B, row-major with leading dimensions lda/ldb/ldc. */
void gemm_run(struct gemm *g, struct pool *pool, const double *a, size_t lda,
	      const double *b, size_t ldb, double *c, size_t ldc);

#endif
