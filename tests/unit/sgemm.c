// SPDX-License-Identifier: MIT
/*
 * tests/unit/sgemm.c - the SGEMM of the CNN workloads against a plain
 * triple loop: bit for bit (both sum each element in k order, no FMA), on
 * odd shapes that leave partial register tiles and k blocks, with bias,
 * residual and ReLU, on 1 and 3 threads. Prints the GFLOP/s of a ResNet-50
 * layer1 3x3 convolution shape (512 x 3136 x 576) on 1 and 2 threads.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sgemm.h"
#include "tap.h"

#pragma GCC optimize("fp-contract=off")

struct shape {
	size_t m, n, k;
};

static const struct shape shapes[] = {
	{ 1, 1, 1 }, { 5, 7, 3 }, { 6, 32, 256 }, { 13, 70, 300 },
	{ 64, 1000, 147 }, { 100, 1, 513 }, { 37, 257, 611 },
};

static float *random_floats(size_t n, unsigned int *state)
{
	float *v = malloc(n * sizeof(float) + 1);
	size_t i;

	for (i = 0; v && i < n; i++)
		v[i] = (float)(rand_r(state) % 2001 - 1000) / 997.0f;
	return v;
}

static void reference(const struct shape *s, const float *a, const float *b,
		      const float *bias, const float *res, float *c)
{
	size_t i, j, k;

	for (i = 0; i < s->m; i++)
		for (j = 0; j < s->n; j++) {
			float sum = 0.0f;

			for (k = 0; k < s->k; k++)
				sum += a[i * s->k + k] * b[k * s->n + j];
			sum = sum + bias[i];
			sum += res[i * s->n + j];
			c[i * s->n + j] = sum < 0.0f ? 0.0f : sum;
		}
}

/* 1 if sgemm_run() on @threads threads equals the reference bit for bit. */
static int check_shape(const struct shape *s, int threads)
{
	struct pool_wait wait = { POOL_WAIT_HYBRID, POOL_DEFAULT_SPIN_US };
	struct pool *pool = pool_create(threads, &wait);
	struct sgemm_ctx *ctx = pool ? sgemm_ctx_create(pool) : NULL;
	unsigned int seed = (unsigned int)(s->m * 131 + s->n * 7 + s->k);
	float *a = random_floats(s->m * s->k, &seed);
	float *b = random_floats(s->k * s->n, &seed);
	float *bias = random_floats(s->m, &seed);
	float *res = random_floats(s->m * s->n, &seed);
	float *want = random_floats(s->m * s->n, &seed);
	float *got = random_floats(s->m * s->n, &seed);
	struct sgemm_epilogue ep = { bias, res, 1 };
	struct sgemm_a pa = { 0 };
	int same = 0;

	if (ctx && a && b && bias && res && want && got &&
	    !sgemm_pack_a(&pa, a, s->m, s->k, s->k)) {
		reference(s, a, b, bias, res, want);
		sgemm_run(ctx, &pa, b, s->n, s->n, got, s->n, &ep);
		same = !memcmp(want, got, s->m * s->n * sizeof(float));
	}
	sgemm_a_free(&pa);
	free(a), free(b), free(bias), free(res), free(want), free(got);
	sgemm_ctx_destroy(ctx);
	pool_destroy(pool);
	return same;
}

static double seconds(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Best of 5 runs of the 512 x 3136 x 576 product, in GFLOP/s. */
static double rate(int threads)
{
	const size_t m = 512, n = 3136, k = 576;
	struct pool_wait wait = { POOL_WAIT_HYBRID, POOL_DEFAULT_SPIN_US };
	struct pool *pool = pool_create(threads, &wait);
	struct sgemm_ctx *ctx = sgemm_ctx_create(pool);
	unsigned int seed = 1;
	float *a = random_floats(m * k, &seed), *b = random_floats(k * n, &seed);
	float *c = malloc(m * n * sizeof(float));
	struct sgemm_a pa = { 0 };
	double best = 1e9;
	int r;

	if (ctx && a && b && c && !sgemm_pack_a(&pa, a, m, k, k))
		for (r = 0; r < 5; r++) {
			double t0 = seconds(), dt;

			sgemm_run(ctx, &pa, b, n, n, c, n, NULL);
			dt = seconds() - t0;
			best = dt < best ? dt : best;
		}
	sgemm_a_free(&pa);
	free(a), free(b), free(c);
	sgemm_ctx_destroy(ctx);
	pool_destroy(pool);
	return 2.0 * (double)(m * n * k) / best / 1e9;
}

int main(void)
{
	size_t i, nshapes = sizeof(shapes) / sizeof(shapes[0]);
	double r1, r2;

	tap_plan((int)(2 * nshapes + 1));
	for (i = 0; i < nshapes; i++) {
		tap_ok(check_shape(&shapes[i], 1), "%zux%zux%zu on 1 thread equals the plain loop bit for bit",
		       shapes[i].m, shapes[i].n, shapes[i].k);
		tap_ok(check_shape(&shapes[i], 3), "%zux%zux%zu on 3 threads equals the plain loop bit for bit",
		       shapes[i].m, shapes[i].n, shapes[i].k);
	}
	r1 = rate(1);
	r2 = rate(2);
	tap_ok(r1 > 0.1 && r2 > 0.1, "sgemm (%s) 512x3136x576: %.1f GFLOP/s on 1 thread, %.1f on 2",
	       sgemm_isa(), r1, r2);
	return tap_done();
}
