// SPDX-License-Identifier: MIT
/*
 * backend-native.c - an instance is a `cvmfn serve` child process of
 * cvmbench on this machine, connected by two pipes. It ignores SIGINT
 * (cvmbench decides when it ends) and ends by itself when its stdin closes,
 * so it cannot outlive a killed cvmbench for longer than one call.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

static void exec_child(char **argv, int req_rd, int rep_wr)
{
	signal(SIGINT, SIG_IGN);
	signal(SIGPIPE, SIG_DFL);
	if (dup2(req_rd, 0) < 0 || dup2(rep_wr, 1) < 0)
		_exit(127);
	execv(argv[0], argv);
	dprintf(1, "error cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int native_spawn(const struct cell *c, const struct backend_env *env,
			struct instance *in, char *err, size_t errlen)
{
	char store[1024], *argv[24];
	int req[2], rep[2];
	pid_t pid;

	cvmfn_argv(env->cvmfn, "serve", c, env->data_dir, store, sizeof(store), argv, 24);
	if (pipe2(req, O_CLOEXEC))
		goto err_pipe;
	if (pipe2(rep, O_CLOEXEC)) {
		close(req[0]);
		close(req[1]);
		goto err_pipe;
	}
	in->spawn_ns = mono_ns();
	pid = fork();
	if (pid == 0)
		exec_child(argv, req[0], rep[1]);
	close(req[0]);
	close(rep[1]);
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(errno));
		close(req[1]);
		close(rep[0]);
		return -errno;
	}
	in->pid = pid;
	in->to_fd = req[1];
	in->from_fd = rep[0];
	in->len = 0;
	return 0;
err_pipe:
	snprintf(err, errlen, "pipe: %s", strerror(errno));
	return -errno;
}

const struct backend_ops backend_native = {
	.name = "native",
	.spawn = native_spawn,
};
