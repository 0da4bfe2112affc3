// SPDX-License-Identifier: MIT
/*
 * matmul.c - FunctionBench's "matmul" function: multiply two random N x N
 * matrices of doubles (numpy.dot there, a cache-blocked multi-threaded
 * DGEMM in gemm.c here) and report the rate.
 *
 * Sizes (N): test 64, small 512, large 2048 (the study's size; FunctionBench
 * takes N as the request parameter, 2048 is its heavy setting). A and B are
 * uniform in [-1, 1), generated from the seed in init (a warm container has
 * its inputs); invoke computes C = A * B. The digest is C's raw bytes: its
 * sum order is fixed (see gemm.h), so it does not depend on the thread
 * count. --output FILE writes A, B and C as raw little-endian doubles,
 * row-major, one after the other (3 * N * N * 8 bytes), for checking
 * against numpy.
 */
#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "gemm.h"
#include "rng.h"
#include "wlclock.h"
#include "wlexport.h"
#include "wlfile.h"
#include "workload.h"

struct matmul_state {
	size_t n;
	double *abc;              /* A, B and C, n * n each, contiguous */
	struct gemm *gemm;
};

static void fill_uniform(double *m, size_t count, uint64_t seed, uint64_t stream)
{
	struct rng r;
	size_t i;

	rng_seed_stream(&r, seed, stream);
	for (i = 0; i < count; i++)
		m[i] = 2.0 * rng_unit(&r) - 1.0;
}

static int matmul_check_params(struct wl_instance *inst)
{
	if (inst->params.input)
		return wl_error(inst, -EINVAL,
				"matmul takes no --input: A and B come from the seed");
	return 0;
}

static void matmul_teardown(struct wl_instance *inst)
{
	struct matmul_state *st = inst->priv;

	gemm_destroy(st->gemm);
	free(st->abc);
}

static int matmul_init(struct wl_instance *inst)
{
	struct matmul_state *st;
	size_t n = (size_t)wl_pick(inst, 64, 512, 2048);
	int err = matmul_check_params(inst);

	if (err)
		return err;
	st = inst->priv;
	st->n = n;
	st->abc = malloc(3 * n * n * sizeof(double));
	st->gemm = gemm_create(n, n, n, pool_threads(inst->pool));
	if (!st->abc || !st->gemm)
		return wl_error(inst, -ENOMEM, "out of memory for %zu x %zu matrices", n, n);
	fill_uniform(st->abc, n * n, inst->params.seed, 'A');
	fill_uniform(st->abc + n * n, n * n, inst->params.seed, 'B');
	return 0;
}

static int matmul_invoke(struct wl_instance *inst, struct wl_output *out)
{
	struct matmul_state *st = inst->priv;
	size_t n = st->n, i;
	double *a = st->abc, *b = a + n * n, *c = b + n * n;
	double t0, secs, gflops, trace = 0.0;
	int threads = pool_threads(inst->pool);

	t0 = wl_now_s();
	memset(c, 0, n * n * sizeof(double));
	gemm_run(st->gemm, inst->pool, a, n, b, n, c, n);
	secs = wl_now_s() - t0;
	gflops = 2.0 * (double)n * (double)n * (double)n / secs * 1e-9;
	wl_out_u64(out, n);
	wl_out_ref(out, c, n * n * sizeof(double));
	for (i = 0; i < n; i++)
		trace += c[i * n + i];
	snprintf(inst->summary, sizeof(inst->summary),
		 "N=%zu trace=%.6f %.2f GFLOP/s (%.2f per thread, %d threads)",
		 n, trace, gflops, gflops / threads, threads);
	if (inst->params.output)
		wl_out_file(out, inst->params.output, st->abc, 3 * n * n * sizeof(double));
	return 0;
}

/* For the Python twin: "a-b", A then B as raw little-endian doubles, row-major. */
static int matmul_export(struct wl_instance *inst)
{
	struct matmul_state *st = inst->priv;

	return wl_export_write(inst, "a-b", st->abc, 2 * st->n * st->n * sizeof(double));
}

const struct workload_ops wl_matmul = {
	.version = WL_OPS_VERSION,
	.info = &wl_info_matmul,
	.uses_threads = 1,
	.state_size = sizeof(struct matmul_state),
	.init = matmul_init,
	.invoke = matmul_invoke,
	.teardown = matmul_teardown,
	.export_inputs = matmul_export,
};
