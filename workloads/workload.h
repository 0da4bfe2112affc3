/* SPDX-License-Identifier: MIT */
/*
 * workload.h - the one ops table every serverless function implements.
 *
 * A workload is a function in the SeBS / FunctionBench sense. cvmfn hosts
 * it in a process: init() builds what a warm container already holds
 * (model loaded, data generated, pool started), invoke() serves one request
 * and records everything it produced in a struct wl_output (output.h), which
 * its caller digests after the function's time is taken; teardown() frees it
 * all.
 * What is known of a workload without its code (name, variants, ...) is
 * its struct workload_info in workload-registry.c, which its ops point at;
 * the list of workloads is workloads/workload-list.h (one line per workload).
 */
#ifndef CVMFN_WORKLOAD_H
#define CVMFN_WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#include "output.h"
#include "pool.h"
#include "workload-registry.h"

#define WL_OPS_VERSION 4

/* Everything a caller may set for one instance of a workload. */
struct wl_params {
	enum wl_size size;
	uint64_t seed;
	int threads;              /* worker threads; 0 = online CPUs */
	struct pool_wait wait;    /* how idle workers wait */
	const char *data_dir;     /* model and generated input files */
	const char *scratch_dir;  /* where scratch directories go; NULL = data_dir */
	const char *input;        /* optional user-supplied input path */
	const char *output;       /* optional path to write the result to */
	const char *variant;      /* workload-specific (e.g. resnet152) */
	const char *key_hex;      /* pyaes: key as 32 hex digits */
	const char *iv_hex;       /* pyaes: IV as 32 hex digits */
	int prepare;              /* create missing model/data files */
};

/* One live instance: the parameters, the pool, and the workload's state. */
struct wl_instance {
	const struct workload_ops *ops;
	struct wl_params params;
	struct pool *pool;        /* started before init with params.threads */
	void *priv;               /* the workload's own state */
	char error[512];          /* first error, set with wl_error() */
	char summary[256];        /* short human-readable result of invoke */
};

struct workload_ops {
	int version;              /* WL_OPS_VERSION */
	const struct workload_info *info;  /* its wl_info_<ident> */
	int uses_threads;         /* 1 if invoke() uses inst->pool */
	/*
	 * Bytes of private state: wl_instance_open() sets inst->priv to that
	 * many zeroed bytes before init() and frees them after teardown(),
	 * also when init() fails. Every workload with state takes it so;
	 * 0: it has none (inst->priv stays NULL).
	 */
	size_t state_size;
	/*
	 * Returns 0 or -errno with inst->error set. A failed init() leaves the
	 * cleaning to teardown(), which wl_instance_open() calls.
	 */
	int (*init)(struct wl_instance *inst);
	/*
	 * One request. Records its output in @out (references stay valid until
	 * the next invoke or teardown); never hashes it. 0 or -errno.
	 */
	int (*invoke)(struct wl_instance *inst, struct wl_output *out);
	/*
	 * Frees what init() built (also half of it, after a failed init),
	 * never inst->priv itself.
	 */
	void (*teardown)(struct wl_instance *inst);
	/*
	 * Optional: after init(), write the inputs generated from the seed
	 * for the Python twin (wlexport.h); `cvmfn prepare` calls it. 0 or
	 * -errno with inst->error set.
	 */
	int (*export_inputs)(struct wl_instance *inst);
};

/**
 * wl_error() - record the first error of an instance and return @err.
 * Later errors do not overwrite the first one.
 */
int wl_error(struct wl_instance *inst, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/** wl_pick() - the value for the instance's size: test, small or large. */
static inline long wl_pick(const struct wl_instance *inst,
			   long test, long small, long large)
{
	switch (inst->params.size) {
	case WL_SIZE_TEST:
		return test;
	case WL_SIZE_SMALL:
		return small;
	default:
		return large;
	}
}

/** workload_ops_find() - the ops of the workload called @name, or NULL. */
const struct workload_ops *workload_ops_find(const char *name);
/**
 * workload_ops_at() - the ops of workload_at(@i) (0 <= @i < workload_count()),
 * or NULL.
 */
const struct workload_ops *workload_ops_at(size_t i);

/**
 * wl_instance_open() - check the variant (wl_variant_check() of ops->info), allocate
 * ops->state_size bytes of state, start the pool and run init. On failure
 * the error is in inst->error and everything already built is released
 * (teardown, then the state).
 */
int wl_instance_open(struct wl_instance *inst, const struct workload_ops *ops,
		     const struct wl_params *params);
/** wl_instance_close() - teardown, free the state and stop the pool. */
void wl_instance_close(struct wl_instance *inst);

#endif
