// SPDX-License-Identifier: MIT
/*
 * gemm.c - blocked DGEMM in the GotoBLAS shape, in portable C: B is packed
 * into KC x 4 column strips, each thread packs its GEMM_MC x KC panel of A
 * into 4 x KC row strips, and a 4 x 4 micro-kernel keeps the sixteen C
 * values in eight two-wide vector registers (GCC vector extensions, so it
 * compiles to SSE2 on any x86-64 and to NEON on arm64).
 *
 * Summation order per C element: for each k block (ascending), the block's
 * products are summed in k order from zero, then added to C. It depends
 * on GEMM_KC only, never on threads or on which thread ran a panel.
 */
#include <stdlib.h>
#include <string.h>

#include "gemm.h"

typedef double v2d __attribute__((vector_size(16)));

struct gemm {
	size_t m, n, k;
	size_t nstrips;           /* ceil(n / 4) column strips of B */
	double *bpack;            /* k x (nstrips * 4), strip-major per k block */
	double **apack;           /* per thread: GEMM_MC x GEMM_KC */
	int threads;
};

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

static double *alloc_doubles(size_t count)
{
	size_t bytes = (count * sizeof(double) + 63) & ~(size_t)63;

	return aligned_alloc(64, bytes ? bytes : 64);
}

struct gemm *gemm_create(size_t m, size_t n, size_t k, int threads)
{
	struct gemm *g = calloc(1, sizeof(*g));
	int i;

	if (!g)
		return NULL;
	g->m = m;
	g->n = n;
	g->k = k;
	g->nstrips = (n + 3) / 4;
	g->threads = threads < 1 ? 1 : threads;
	g->bpack = alloc_doubles(k * g->nstrips * 4);
	g->apack = calloc((size_t)g->threads, sizeof(*g->apack));
	if (!g->bpack || !g->apack) {
		gemm_destroy(g);
		return NULL;
	}
	for (i = 0; i < g->threads; i++) {
		g->apack[i] = alloc_doubles(GEMM_MC * GEMM_KC);
		if (!g->apack[i]) {
			gemm_destroy(g);
			return NULL;
		}
	}
	return g;
}

void gemm_destroy(struct gemm *g)
{
	int i;

	if (!g)
		return;
	if (g->apack)
		for (i = 0; i < g->threads; i++)
			free(g->apack[i]);
	free(g->apack);
	free(g->bpack);
	free(g);
}

struct gemm_job {
	struct gemm *g;
	const double *a, *b;
	double *c;
	size_t lda, ldb, ldc;
};

/* Strip @js of k block @kb: kc rows of 4 columns, zero past column n. */
static void pack_b_strip(const struct gemm_job *job, size_t kb, size_t js)
{
	const struct gemm *g = job->g;
	size_t kc = min_size(GEMM_KC, g->k - kb), kk, col;
	double *dst = g->bpack + kb * g->nstrips * 4 + js * kc * 4;

	for (kk = 0; kk < kc; kk++) {
		const double *row = job->b + (kb + kk) * job->ldb;

		for (col = 0; col < 4; col++) {
			size_t j = js * 4 + col;

			dst[kk * 4 + col] = j < g->n ? row[j] : 0.0;
		}
	}
}

static void pack_b_range(void *arg, size_t begin, size_t end, int worker)
{
	const struct gemm_job *job = arg;
	size_t item;

	(void)worker;
	for (item = begin; item < end; item++) {
		size_t kblock = item / job->g->nstrips, js = item % job->g->nstrips;

		pack_b_strip(job, kblock * GEMM_KC, js);
	}
}

/* Rows [i0, i0 + mc) x columns [kb, kb + kc) of A into 4-row strips. */
static void pack_a_panel(const struct gemm_job *job, double *dst, size_t i0,
			 size_t mc, size_t kb, size_t kc)
{
	size_t is, kk, r;

	for (is = 0; is < (mc + 3) / 4; is++)
		for (kk = 0; kk < kc; kk++)
			for (r = 0; r < 4; r++) {
				size_t i = is * 4 + r;

				dst[(is * kc + kk) * 4 + r] = i < mc ?
					job->a[(i0 + i) * job->lda + kb + kk] : 0.0;
			}
}

/* C[rows x cols] += (4 x kc strip of A) * (kc x 4 strip of B). */
static void micro_kernel(size_t kc, const double *ap, const double *bp,
			 double *c, size_t ldc, size_t rows, size_t cols)
{
	v2d acc[4][2] = { { { 0 } } };
	double out[4][4];
	size_t kk, r, col;

	for (kk = 0; kk < kc; kk++) {
		v2d b0 = *(const v2d *)(bp + kk * 4);
		v2d b1 = *(const v2d *)(bp + kk * 4 + 2);

		for (r = 0; r < 4; r++) {
			v2d a = { ap[kk * 4 + r], ap[kk * 4 + r] };

			acc[r][0] += a * b0;
			acc[r][1] += a * b1;
		}
	}
	memcpy(out, acc, sizeof(out));
	for (r = 0; r < rows; r++)
		for (col = 0; col < cols; col++)
			c[r * ldc + col] += out[r][col];
}

/* One k block of one row panel: every 4 x 4 tile of the panel. */
static void panel_kblock(const struct gemm_job *job, const double *ap,
			 size_t i0, size_t mc, size_t kb, size_t kc)
{
	const struct gemm *g = job->g;
	const double *bblock = g->bpack + kb * g->nstrips * 4;
	size_t jb, js, is;

	for (jb = 0; jb < g->n; jb += GEMM_NC) {
		size_t jend = min_size(jb + GEMM_NC, g->n);

		for (js = jb / 4; js * 4 < jend; js++) {
			size_t cols = min_size(4, g->n - js * 4);

			for (is = 0; is * 4 < mc; is++)
				micro_kernel(kc, ap + is * kc * 4, bblock + js * kc * 4,
					     job->c + (i0 + is * 4) * job->ldc + js * 4,
					     job->ldc, min_size(4, mc - is * 4), cols);
		}
	}
}

static void row_panels(void *arg, size_t begin, size_t end, int worker)
{
	const struct gemm_job *job = arg;
	const struct gemm *g = job->g;
	double *ap = g->apack[worker];
	size_t panel, kb;

	for (panel = begin; panel < end; panel++) {
		size_t i0 = panel * GEMM_MC, mc = min_size(GEMM_MC, g->m - i0);

		for (kb = 0; kb < g->k; kb += GEMM_KC) {
			size_t kc = min_size(GEMM_KC, g->k - kb);

			pack_a_panel(job, ap, i0, mc, kb, kc);
			panel_kblock(job, ap, i0, mc, kb, kc);
		}
	}
}

void gemm_run(struct gemm *g, struct pool *pool, const double *a, size_t lda,
	      const double *b, size_t ldb, double *c, size_t ldc)
{
	struct gemm_job job = { g, a, b, c, lda, ldb, ldc };
	size_t kblocks = (g->k + GEMM_KC - 1) / GEMM_KC;

	if (!g->m || !g->n || !g->k)
		return;
	pool_for(pool, kblocks * g->nstrips, pack_b_range, &job);
	pool_for_dynamic(pool, (g->m + GEMM_MC - 1) / GEMM_MC, 1, row_panels, &job);
}
