// SPDX-License-Identifier: MIT
/*
 * pool.c - worker pool with spin / block / hybrid waiting on futexes.
 *
 * Workers wait for a new job generation; the caller waits for the pending
 * count to reach zero. Both waits spin first (hybrid), then sleep in
 * FUTEX_WAIT, which idles the CPU: that idle entry is the HLT exit a VM
 * sees. A sleeper count avoids a FUTEX_WAKE syscall when nobody sleeps.
 */
#include <errno.h>
#include <limits.h>
#include <linux/futex.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "pool.h"
#include "wlclock.h"

struct pool_job {
	pool_fn fn;
	void *arg;
	size_t n;
	size_t grain;             /* 0: static chunks */
	atomic_size_t next;       /* dynamic: next index to hand out */
};

struct pool {
	int threads;
	struct pool_wait wait;
	pthread_t *tids;
	struct pool_job job;
	atomic_uint generation;   /* bumped for each job */
	atomic_int stop;
	atomic_int worker_sleepers;
	atomic_int pending;       /* workers still running the job */
	atomic_int caller_sleeping;
};

struct worker_arg {
	struct pool *pool;
	int index;
	unsigned int seen;        /* the generation it starts after */
};

static long futex(atomic_uint *addr, int op, unsigned int val)
{
	return syscall(SYS_futex, addr, op | FUTEX_PRIVATE_FLAG, val, NULL, NULL, 0);
}

/* Spin until *addr != old or the spin budget is spent. 1 if it changed. */
static int spin_while_equal(const struct pool *pool, atomic_uint *addr,
			    unsigned int old)
{
	uint64_t budget_ns, start;
	unsigned int i;

	if (pool->wait.mode == POOL_WAIT_BLOCK)
		return atomic_load(addr) != old;
	budget_ns = (uint64_t)pool->wait.spin_us * 1000;
	start = (uint64_t)wl_now_ns();
	for (i = 0;; i++) {
		if (atomic_load_explicit(addr, memory_order_acquire) != old)
			return 1;
		__builtin_ia32_pause();
		if (pool->wait.mode == POOL_WAIT_SPIN)
			continue;
		if ((i & 63) == 63 && (uint64_t)wl_now_ns() - start >= budget_ns)
			return 0;
	}
}

static void run_chunk(struct pool *pool, int index)
{
	struct pool_job *job = &pool->job;
	size_t begin, end;

	if (!job->grain) {
		begin = job->n * (size_t)index / (size_t)pool->threads;
		end = job->n * (size_t)(index + 1) / (size_t)pool->threads;
		if (begin < end)
			job->fn(job->arg, begin, end, index);
		return;
	}
	for (;;) {
		begin = atomic_fetch_add(&job->next, job->grain);
		if (begin >= job->n)
			return;
		end = begin + job->grain < job->n ? begin + job->grain : job->n;
		job->fn(job->arg, begin, end, index);
	}
}

static void wait_for_generation(struct pool *pool, unsigned int seen)
{
	while (!spin_while_equal(pool, &pool->generation, seen)) {
		atomic_fetch_add(&pool->worker_sleepers, 1);
		futex(&pool->generation, FUTEX_WAIT, seen);
		atomic_fetch_sub(&pool->worker_sleepers, 1);
	}
}

static void *worker_main(void *p)
{
	struct worker_arg *wa = p;
	struct pool *pool = wa->pool;
	int index = wa->index;
	unsigned int seen = wa->seen;

	free(wa);
	for (;;) {
		wait_for_generation(pool, seen);
		seen = atomic_load(&pool->generation);
		if (atomic_load(&pool->stop))
			return NULL;
		run_chunk(pool, index);
		if (atomic_fetch_sub(&pool->pending, 1) == 1 &&
		    atomic_load(&pool->caller_sleeping))
			futex((atomic_uint *)&pool->pending, FUTEX_WAKE, 1);
	}
}

static void wait_for_workers(struct pool *pool)
{
	atomic_uint *pending = (atomic_uint *)&pool->pending;
	unsigned int v;

	while ((v = atomic_load(pending)) != 0) {
		if (spin_while_equal(pool, pending, v))
			continue;
		atomic_store(&pool->caller_sleeping, 1);
		if (atomic_load(pending) == v)
			futex(pending, FUTEX_WAIT, v);
		atomic_store(&pool->caller_sleeping, 0);
	}
}

static void post_generation(struct pool *pool)
{
	atomic_fetch_add(&pool->generation, 1);
	if (atomic_load(&pool->worker_sleepers))
		futex(&pool->generation, FUTEX_WAKE, INT_MAX);
}

static void pool_run(struct pool *pool, size_t n, size_t grain, pool_fn fn,
		     void *arg)
{
	pool->job.fn = fn;
	pool->job.arg = arg;
	pool->job.n = n;
	pool->job.grain = grain;
	atomic_store(&pool->job.next, 0);
	if (pool->threads == 1) {
		run_chunk(pool, 0);
		return;
	}
	atomic_store(&pool->pending, pool->threads - 1);
	post_generation(pool);
	run_chunk(pool, 0);
	wait_for_workers(pool);
}

void pool_for(struct pool *pool, size_t n, pool_fn fn, void *arg)
{
	pool_run(pool, n, 0, fn, arg);
}

void pool_for_dynamic(struct pool *pool, size_t n, size_t grain, pool_fn fn,
		      void *arg)
{
	pool_run(pool, n, grain ? grain : 1, fn, arg);
}

int pool_threads(const struct pool *pool)
{
	return pool->threads;
}

static int pool_start_workers(struct pool *pool)
{
	int i;

	for (i = 1; i < pool->threads; i++) {
		struct worker_arg *wa = malloc(sizeof(*wa));

		if (!wa)
			return -ENOMEM;
		wa->pool = pool;
		wa->index = i;
		wa->seen = atomic_load(&pool->generation);
		if (pthread_create(&pool->tids[i], NULL, worker_main, wa)) {
			free(wa);
			pool->threads = i;
			return -EAGAIN;
		}
	}
	return 0;
}

struct pool *pool_create(int threads, const struct pool_wait *wait)
{
	struct pool *pool;

	if (threads < 1)
		threads = 1;
	pool = calloc(1, sizeof(*pool));
	if (!pool)
		return NULL;
	pool->threads = threads;
	pool->wait = *wait;
	pool->tids = calloc((size_t)threads, sizeof(*pool->tids));
	if (!pool->tids) {
		free(pool);
		return NULL;
	}
	if (pool_start_workers(pool)) {
		pool_destroy(pool);
		return NULL;
	}
	return pool;
}

void pool_destroy(struct pool *pool)
{
	int i;

	if (!pool)
		return;
	atomic_store(&pool->stop, 1);
	post_generation(pool);
	for (i = 1; i < pool->threads; i++)
		pthread_join(pool->tids[i], NULL);
	free(pool->tids);
	free(pool);
}

int pool_after_fork(struct pool *pool)
{
	atomic_store(&pool->worker_sleepers, 0);
	atomic_store(&pool->pending, 0);
	atomic_store(&pool->caller_sleeping, 0);
	return pool_start_workers(pool) ? -EAGAIN : 0;
}
