// SPDX-License-Identifier: MIT
/*
 * sgemm.c - cache-blocked SGEMM for the CNN workloads (image-recognition,
 * cnn-classification) and the LSTM of rnn-generate.
 *
 * Blocking after Goto & van de Geijn, "Anatomy of high-performance matrix
 * multiplication" (TOMS 2008) and BLIS: A (weights) is packed once into
 * SGEMM_MR-row panels; per task a SGEMM_KC x SGEMM_NC block of B is packed
 * into NR-column slivers (L2), SGEMM_MC rows of A are streamed per sliver,
 * and a SGEMM_MR x NR register tile does the products. The tile is written
 * with GCC vector extensions and compiled for SSE2, AVX2 and AVX-512F (a
 * target attribute on each kernel function, which gcc and clang both honour,
 * unlike #pragma GCC target that clang ignores); the widest the CPU has is
 * chosen at run time (CVMFN_SGEMM_ISA=sse2|avx2|avx512 forces one, for
 * tests). FP contraction is off for both compilers: no FMA, so all widths
 * sum every element in the same k order with the same roundings.
 *
 * Threads take (column block, row group) tasks; each task computes its
 * elements over the whole k range, so nothing is reduced across threads.
 */
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "sgemm.h"

#ifdef __clang__
#pragma STDC FP_CONTRACT OFF
#else
#pragma GCC optimize("fp-contract=off")
#endif

#define SGEMM_KC 256
#define SGEMM_MC 96               /* rows of A per sliver pass, x SGEMM_MR */
#define SGEMM_NC 256              /* columns of B per task */
#define SGEMM_NR_MAX 32           /* 2 x 16 floats (AVX-512) */

typedef void (*kernel_fn)(size_t kc, const float *a, const float *b, float *c,
			  size_t ldc, int accumulate);

#define KERNEL_NAME kernel_sse2
#define KERNEL_VW 4
#include "sgemm-kernel.h"

#define KERNEL_NAME kernel_avx2
#define KERNEL_VW 8
#define KERNEL_TARGET "avx2"
#include "sgemm-kernel.h"

#define KERNEL_NAME kernel_avx512
#define KERNEL_VW 16
#define KERNEL_TARGET "avx512f"
#include "sgemm-kernel.h"

static struct {
	kernel_fn fn;
	size_t nr;
	const char *isa;
} kernel = { kernel_sse2, 8, "sse2" };

static pthread_once_t kernel_once = PTHREAD_ONCE_INIT;

static void kernel_choose(void)
{
	const char *force = getenv("CVMFN_SGEMM_ISA");
	int allow512 = !force || !strcmp(force, "avx512");
	int allow2 = allow512 || !strcmp(force, "avx2");

	__builtin_cpu_init();
	if (allow512 && __builtin_cpu_supports("avx512f"))
		kernel = (typeof(kernel)){ kernel_avx512, 32, "avx512" };
	else if (allow2 && __builtin_cpu_supports("avx2"))
		kernel = (typeof(kernel)){ kernel_avx2, 16, "avx2" };
}

const char *sgemm_isa(void)
{
	pthread_once(&kernel_once, kernel_choose);
	return kernel.isa;
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static size_t div_up(size_t a, size_t b)
{
	return (a + b - 1) / b;
}

static float *alloc_floats(size_t count)
{
	size_t bytes = (count * sizeof(float) + 63) & ~(size_t)63;

	return aligned_alloc(64, bytes ? bytes : 64);
}

int sgemm_pack_a(struct sgemm_a *pa, const float *a, size_t m, size_t k,
		 size_t lda)
{
	size_t panels = div_up(m, SGEMM_MR), p, kk, r;
	float *dst = alloc_floats(panels * k * SGEMM_MR);

	if (!dst)
		return -ENOMEM;
	for (p = 0; p < panels; p++)
		for (kk = 0; kk < k; kk++)
			for (r = 0; r < SGEMM_MR; r++) {
				size_t row = p * SGEMM_MR + r;

				dst[(p * k + kk) * SGEMM_MR + r] =
					row < m ? a[row * lda + kk] : 0.0f;
			}
	pa->m = m;
	pa->k = k;
	pa->panels = dst;
	return 0;
}

void sgemm_a_free(struct sgemm_a *pa)
{
	free(pa->panels);
	pa->panels = NULL;
}

struct sgemm_ctx {
	struct pool *pool;
	int threads;
	float **bpack;            /* per thread: SGEMM_KC x SGEMM_NC */
};

struct sgemm_ctx *sgemm_ctx_create(struct pool *pool)
{
	struct sgemm_ctx *ctx = calloc(1, sizeof(*ctx));
	int i;

	pthread_once(&kernel_once, kernel_choose);
	if (!ctx)
		return NULL;
	ctx->pool = pool;
	ctx->threads = pool_threads(pool);
	ctx->bpack = calloc((size_t)ctx->threads, sizeof(*ctx->bpack));
	if (!ctx->bpack) {
		free(ctx);
		return NULL;
	}
	for (i = 0; i < ctx->threads; i++) {
		ctx->bpack[i] = alloc_floats(SGEMM_KC * SGEMM_NC);
		if (!ctx->bpack[i]) {
			sgemm_ctx_destroy(ctx);
			return NULL;
		}
	}
	return ctx;
}

void sgemm_ctx_destroy(struct sgemm_ctx *ctx)
{
	int i;

	if (!ctx)
		return;
	for (i = 0; ctx->bpack && i < ctx->threads; i++)
		free(ctx->bpack[i]);
	free(ctx->bpack);
	free(ctx);
}

struct sgemm_job {
	const struct sgemm_a *a;
	const float *b;
	float *c;
	size_t ldb, ldc, n;
	const struct sgemm_epilogue *ep;
	float **bpack;
	size_t nblocks, panels, panels_per_group;
};

/* kc rows of one full sliver; a constant @nr lets the copy be inlined. */
static inline void pack_full_sliver(const float *src, size_t ldb, float *out,
				    size_t kc, size_t nr)
{
	size_t kk;

	for (kk = 0; kk < kc; kk++, src += ldb, out += nr)
		memcpy(out, src, nr * sizeof(float));
}

/* Columns [n0, n0 + nc) of rows [k0, k0 + kc) of B into NR-wide slivers. */
static void pack_b(const struct sgemm_job *job, float *dst, size_t k0,
		   size_t kc, size_t n0, size_t nc)
{
	size_t nr = kernel.nr, s, kk, j;

	for (s = 0; s * nr < nc; s++) {
		size_t cols = min_size(nr, nc - s * nr);
		const float *src = job->b + k0 * job->ldb + n0 + s * nr;
		float *out = dst + s * kc * nr;

		if (cols == nr && nr == 32)
			pack_full_sliver(src, job->ldb, out, kc, 32);
		else if (cols == nr && nr == 16)
			pack_full_sliver(src, job->ldb, out, kc, 16);
		else if (cols == nr && nr == 8)
			pack_full_sliver(src, job->ldb, out, kc, 8);
		else
			for (kk = 0; kk < kc; kk++) {
				memcpy(out + kk * nr, src + kk * job->ldb,
				       cols * sizeof(float));
				for (j = cols; j < nr; j++)
					out[kk * nr + j] = 0.0f;
			}
	}
}

/* One register tile; partial tiles go through a full-size scratch tile. */
static void tile(const float *ap, const float *bp, size_t kc, float *c,
		 size_t ldc, size_t rows, size_t cols, int accumulate)
{
	float tmp[SGEMM_MR * SGEMM_NR_MAX];
	size_t nr = kernel.nr, r;

	if (rows == SGEMM_MR && cols == nr) {
		kernel.fn(kc, ap, bp, c, ldc, accumulate);
		return;
	}
	memset(tmp, 0, sizeof(tmp));
	for (r = 0; accumulate && r < rows; r++)
		memcpy(tmp + r * nr, c + r * ldc, cols * sizeof(float));
	kernel.fn(kc, ap, bp, tmp, nr, accumulate);
	for (r = 0; r < rows; r++)
		memcpy(c + r * ldc, tmp + r * nr, cols * sizeof(float));
}

/* Panels [p0, p1) of A times the packed block: every tile, one k block. */
static void block_product(const struct sgemm_job *job, const float *bp,
			  size_t k0, size_t kc, size_t n0, size_t nc,
			  size_t p0, size_t p1)
{
	size_t nr = kernel.nr, k = job->a->k, m = job->a->m, pm, pe, s, p;

	for (pm = p0; pm < p1; pm += SGEMM_MC / SGEMM_MR) {
		pe = min_size(pm + SGEMM_MC / SGEMM_MR, p1);
		for (s = 0; s * nr < nc; s++)
			for (p = pm; p < pe; p++)
				tile(job->a->panels + (p * k + k0) * SGEMM_MR,
				     bp + s * kc * nr, kc,
				     job->c + p * SGEMM_MR * job->ldc + n0 + s * nr,
				     job->ldc, min_size(SGEMM_MR, m - p * SGEMM_MR),
				     min_size(nr, nc - s * nr), k0 > 0);
	}
}

static void epilogue(const struct sgemm_job *job, size_t r0, size_t r1,
		     size_t n0, size_t nc)
{
	const struct sgemm_epilogue *ep = job->ep;
	size_t i, j;

	for (i = r0; i < r1; i++) {
		float *row = job->c + i * job->ldc + n0;
		const float *res = ep->residual ?
			ep->residual + i * job->ldc + n0 : NULL;
		float bias = ep->bias ? ep->bias[i] : 0.0f;

		for (j = 0; j < nc; j++) {
			float v = row[j] + bias;

			if (res)
				v += res[j];
			row[j] = ep->relu && v < 0.0f ? 0.0f : v;
		}
	}
}

static void run_tasks(void *arg, size_t begin, size_t end, int worker)
{
	const struct sgemm_job *job = arg;
	float *bp = job->bpack[worker];
	size_t t, k0;

	for (t = begin; t < end; t++) {
		size_t n0 = (t % job->nblocks) * SGEMM_NC;
		size_t nc = min_size(SGEMM_NC, job->n - n0);
		size_t p0 = (t / job->nblocks) * job->panels_per_group;
		size_t p1 = min_size(p0 + job->panels_per_group, job->panels);

		for (k0 = 0; k0 < job->a->k; k0 += SGEMM_KC) {
			size_t kc = min_size(SGEMM_KC, job->a->k - k0);

			pack_b(job, bp, k0, kc, n0, nc);
			block_product(job, bp, k0, kc, n0, nc, p0, p1);
		}
		if (job->ep)
			epilogue(job, p0 * SGEMM_MR,
				 min_size(p1 * SGEMM_MR, job->a->m), n0, nc);
	}
}

void sgemm_run(struct sgemm_ctx *ctx, const struct sgemm_a *a, const float *b,
	       size_t ldb, size_t n, float *c, size_t ldc,
	       const struct sgemm_epilogue *ep)
{
	struct sgemm_job job = {
		.a = a, .b = b, .c = c, .ldb = ldb, .ldc = ldc, .n = n, .ep = ep,
		.bpack = ctx->bpack,
	};
	size_t want = 4 * (size_t)ctx->threads, groups;

	if (!a->m || !n || !a->k)
		return;
	job.nblocks = div_up(n, SGEMM_NC);
	job.panels = div_up(a->m, SGEMM_MR);
	groups = min_size(job.panels, div_up(want, job.nblocks));
	job.panels_per_group = div_up(job.panels, groups);
	groups = div_up(job.panels, job.panels_per_group);
	pool_for_dynamic(ctx->pool, job.nblocks * groups, 1, run_tasks, &job);
}
