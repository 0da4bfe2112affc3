/* SPDX-License-Identifier: MIT */
/*
 * sgemm-kernel.h - the SGEMM register tile, included by sgemm.c once per
 * vector width (SSE2, AVX2, AVX-512) with KERNEL_NAME and KERNEL_VW (floats
 * per vector) defined, and KERNEL_TARGET (the target attribute's string, e.g.
 * "avx2") for a width beyond the x86-64 baseline.
 *
 * It computes an SGEMM_MR x (2 * KERNEL_VW) tile of C from a packed A
 * sliver (kc x SGEMM_MR) and a packed B sliver (kc x 2 * KERNEL_VW). Each
 * element is summed in k order with a separate multiply and add, so every
 * width gives the same bits.
 */
#ifndef KERNEL_NAME
#error "define KERNEL_NAME and KERNEL_VW before including sgemm-kernel.h"
#endif

#ifdef KERNEL_TARGET
__attribute__((target(KERNEL_TARGET)))
#endif
static void KERNEL_NAME(size_t kc, const float *a, const float *b, float *c,
			size_t ldc, int accumulate)
{
	typedef float vec __attribute__((vector_size(KERNEL_VW * 4)));
	vec acc[SGEMM_MR][2];
	size_t k;
	int i;

	for (i = 0; i < SGEMM_MR; i++) {
		if (accumulate) {
			memcpy(&acc[i][0], c + i * ldc, sizeof(vec));
			memcpy(&acc[i][1], c + i * ldc + KERNEL_VW, sizeof(vec));
		} else {
			memset(&acc[i], 0, sizeof(acc[i]));
		}
	}
	for (k = 0; k < kc; k++) {
		vec b0, b1;

		memcpy(&b0, b, sizeof(vec));
		memcpy(&b1, b + KERNEL_VW, sizeof(vec));
#pragma GCC unroll 8
		for (i = 0; i < SGEMM_MR; i++) {
			acc[i][0] += a[i] * b0;
			acc[i][1] += a[i] * b1;
		}
		a += SGEMM_MR;
		b += 2 * KERNEL_VW;
	}
	for (i = 0; i < SGEMM_MR; i++) {
		memcpy(c + i * ldc, &acc[i][0], sizeof(vec));
		memcpy(c + i * ldc + KERNEL_VW, &acc[i][1], sizeof(vec));
	}
}

#undef KERNEL_NAME
#undef KERNEL_VW
#undef KERNEL_TARGET
