/* SPDX-License-Identifier: MIT */
/*
 * backend.h - where a function instance runs. A backend starts a cvmfn
 * serving one workload and hands back the two descriptors of the protocol;
 * everything after that (handshake, invoke, quit) is instance.c's.
 * Backends: native (a process here); runc, crun and qemu come later.
 */
#ifndef CVMBENCH_BACKEND_H
#define CVMBENCH_BACKEND_H

#include <stddef.h>

#include "cell.h"
#include "instance.h"

struct backend_env {
	const char *cvmfn;        /* path of the cvmfn binary */
	const char *data_dir;     /* model and data files */
	const char *digest;       /* which calls are hashed (--digest); NULL = every */
};

struct backend_ops {
	const char *name;
	/* 1 if it can run here; else 0 with the reason. NULL = always. */
	int (*supported)(char *why, size_t len);
	/* Start an instance of @c's workload; fills pid, fds and spawn_ns. */
	int (*spawn)(const struct cell *c, const struct backend_env *env,
		     struct instance *in, char *err, size_t errlen);
	/* After instance_close(): remove what spawn created (NULL = nothing). */
	void (*cleanup)(struct instance *in);
};

/** backend_close() - instance_close() and the backend's cleanup. */
void backend_close(const struct backend_ops *be, struct instance *in, double timeout_s);

/* Runs in the forked child: set it up, make @req_rd stdin and @rep_wr
 * stdout, and exec. Never returns. */
typedef void (*backend_child_fn)(void *arg, int req_rd, int rep_wr);

/**
 * backend_fork() - create the two protocol pipes, fork, run @child(@arg)
 * in the child, and give the parent's ends to @in (pid, to_fd, from_fd;
 * spawn_ns just before the fork). Returns 0 or -errno with @err set.
 */
int backend_fork(struct instance *in, backend_child_fn child, void *arg,
		 char *err, size_t errlen);

/** backend_find() - the backend called @name, or NULL. */
const struct backend_ops *backend_find(const char *name);

/**
 * cvmfn_argv() - the argv of `cvmfn CMD` for cell @c into @argv (NULL
 * terminated), with strings in @store: @env's cvmfn and data directory, and
 * for `serve` its --digest policy. Shared by every backend.
 */
void cvmfn_argv(const struct backend_env *env, const char *cmd, const struct cell *c,
		char *store, size_t storelen, char **argv, size_t maxargs);

#endif
