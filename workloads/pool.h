/* SPDX-License-Identifier: MIT */
/*
 * pool.h - a worker pool that waits the way OpenMP and PyTorch pools do.
 *
 * Between jobs a worker spins for a while, then blocks on a futex. Blocking
 * is what makes a vCPU go idle, and under the guest's HLT idle policy every
 * idle entry is a HLT exit to the hypervisor: the pool keeps that real.
 */
#ifndef CVMFN_POOL_H
#define CVMFN_POOL_H

#include <stddef.h>

#include "pool-wait.h"

struct pool;

/*
 * A parallel-for body: called once per index in [begin, end) chunk.
 * @worker is 0 .. threads-1 (0 is the calling thread).
 */
typedef void (*pool_fn)(void *arg, size_t begin, size_t end, int worker);

/** pool_create() - start @threads - 1 workers (the caller is worker 0). NULL on error. */
struct pool *pool_create(int threads, const struct pool_wait *wait);
/** pool_destroy() - stop and join the workers. NULL is fine. */
void pool_destroy(struct pool *pool);
/**
 * pool_after_fork() - in a child forked from a process that owns @pool,
 * start its workers anew (fork copies only the calling thread; the
 * others' slots are reused), so the pool and every pointer to it stay
 * valid. 0, or -EAGAIN when a thread cannot start.
 */
int pool_after_fork(struct pool *pool);
/** pool_threads() - the number of threads including the caller. */
int pool_threads(const struct pool *pool);

/**
 * pool_for() - run @fn over [0, n) split into contiguous chunks, one per
 * thread, and wait until all are done. Chunks are split the same way for
 * the same n and thread count; results that must not depend on the thread
 * count must not depend on the chunking.
 */
void pool_for(struct pool *pool, size_t n, pool_fn fn, void *arg);

/**
 * pool_for_dynamic() - like pool_for() but threads take chunks of @grain
 * indices from a shared counter: for uneven work.
 */
void pool_for_dynamic(struct pool *pool, size_t n, size_t grain,
		      pool_fn fn, void *arg);

#endif
