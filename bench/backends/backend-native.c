// SPDX-License-Identifier: MIT
/*
 * backend-native.c - an instance is a `cvmfn serve` child process of
 * cvmbench on this machine, connected by two pipes. It ignores SIGINT
 * (cvmbench decides when it ends) and ends by itself when its stdin closes,
 * so it cannot outlive a killed cvmbench for longer than one call.
 * runtime = python: the same cvmfn executes this machine's /usr/bin/python3
 * on its Python twin; prepare checks the twin's modules first (a missing
 * one skips the cell, naming its Debian package).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

static void exec_child(void *arg, int req_rd, int rep_wr)
{
	char **argv = arg;

	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(req_rd, 0) < 0 || dup2(rep_wr, 1) < 0)
		_exit(127);
	execv(argv[0], argv);
	dprintf(1, "error cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int native_prepare(const struct cell *c, const struct backend_env *env,
			  void *state, char *err, size_t errlen)
{
	(void)state;
	return cvmfn_prepare_here(c, env, err, errlen) ?:
	       (strcmp(c->runtime, "python") ? 0 : cvmfn_python_check_here(c, env, err, errlen));
}

static int native_spawn(const struct cell *c, const struct backend_env *env, void *state,
			struct instance *in, char *err, size_t errlen)
{
	(void)state;
	char store[1024], *argv[24];

	cvmfn_argv(env, "serve", c, store, sizeof(store), argv, 24);
	return backend_fork(in, exec_child, argv, err, errlen);
}

/* The rootfs key is a container's or a guest's root: not this machine's. */
static int native_supported(const struct cell *c, char *why, size_t len)
{
	if (!c->rootfs[0])
		return 1;
	snprintf(why, len, "rootfs = %s: backend native runs on this machine's own root "
		 "(runc, crun and qemu take a rootfs)", c->rootfs);
	return 0;
}

const struct backend_ops backend_native = {
	.name = "native",
	.supported = native_supported,
	.prepare = native_prepare,
	.spawn = native_spawn,
};
