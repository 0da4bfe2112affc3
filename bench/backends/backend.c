// SPDX-License-Identifier: MIT
/*
 * backend.c - the list of backends (one line each) and what they share:
 * the fork of an instance, the cvmfn command line, `cvmfn prepare`.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "backend-list.h"
#include "backend.h"
#include "clock.h"
#include "protocol.h"

#define DECLARE_BACKEND(ident) extern const struct backend_ops backend_##ident;
BACKENDS(DECLARE_BACKEND)
#undef DECLARE_BACKEND

/* The backends of backend-list.h; the last slot is backend_test_register()'s. */
#define LIST_BACKEND(ident) &backend_##ident,
static const struct backend_ops *backends[] = { BACKENDS(LIST_BACKEND) NULL };
#undef LIST_BACKEND

#define NBACKENDS (sizeof(backends) / sizeof(backends[0]))

void backend_test_register(const struct backend_ops *be)
{
	backends[NBACKENDS - 1] = be;
}

const struct backend_ops *backend_find(const char *name)
{
	size_t i;

	for (i = 0; i < NBACKENDS; i++)
		if (backends[i] && !strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
}

int backend_boots_guests(const char *name)
{
	const struct backend_ops *be = backend_find(name);

	return be && (be->flags & BACKEND_GUEST);
}

const char *backend_cell_accel(const struct cell *c, char *why, size_t len)
{
	const struct backend_ops *be = backend_find(c->backend);

	if (len)
		why[0] = '\0';
	return be && be->cell_accel ? be->cell_accel(c, why, len) : NULL;
}

void backend_env_facts(env_emit_fn emit, void *ctx)
{
	size_t i;

	for (i = 0; i < NBACKENDS; i++)
		if (backends[i] && backends[i]->env_facts)
			backends[i]->env_facts(emit, ctx);
}

void backend_names(char *buf, size_t len)
{
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < NBACKENDS && used < len; i++)
		if (backends[i])
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "|" : "", backends[i]->name);
}

int backend_fork(struct instance *in, backend_child_fn child, void *arg,
		 char *err, size_t errlen)
{
	int req[2], rep[2], ret;
	pid_t pid;

	if (pipe2(req, O_CLOEXEC))
		goto err_pipe;
	if (pipe2(rep, O_CLOEXEC)) {
		close(req[0]);
		close(req[1]);
		goto err_pipe;
	}
	in->spawn_ns = clock_now_ns();
	pid = fork();
	if (pid == 0)
		child(arg, req[0], rep[1]);
	ret = -errno;
	close(req[0]);
	close(rep[1]);
	if (pid < 0) {
		snprintf(err, errlen, "fork: %s", strerror(-ret));
		close(req[1]);
		close(rep[0]);
		return ret;
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

void backend_close(const struct backend_ops *be, void *state, struct instance *in,
		   double timeout_s)
{
	instance_close(in, timeout_s);
	if (be && be->cleanup)
		be->cleanup(state, in);
}

/* Append @s to @store and return where it starts. */
static char *keep(char *store, size_t storelen, size_t *used, const char *s)
{
	char *p = store + *used;
	int n = snprintf(p, storelen - *used, "%s", s);

	*used += (size_t)n + 1 < storelen - *used ? (size_t)n + 1 : storelen - *used;
	return p;
}

void cvmfn_argv(const struct backend_env *env, const char *cmd, const struct cell *c,
		char *store, size_t storelen, char **argv, size_t maxargs)
{
	char num[32];
	size_t used = 0, n = 0;

	argv[n++] = keep(store, storelen, &used, env->cvmfn);
	argv[n++] = keep(store, storelen, &used, cmd);
	argv[n++] = keep(store, storelen, &used, c->workload);
	argv[n++] = "--size";
	argv[n++] = keep(store, storelen, &used, c->size);
	argv[n++] = "--seed";
	snprintf(num, sizeof(num), "%lld", c->seed);
	argv[n++] = keep(store, storelen, &used, num);
	if (c->variant[0]) {
		argv[n++] = "--variant";
		argv[n++] = keep(store, storelen, &used, c->variant);
	}
	argv[n++] = "--threads";
	snprintf(num, sizeof(num), "%d", c->threads);
	argv[n++] = keep(store, storelen, &used, num);
	argv[n++] = "--wait";
	argv[n++] = keep(store, storelen, &used, c->wait);
	argv[n++] = "--data-dir";
	argv[n++] = keep(store, storelen, &used, env->data_dir);
	if (env->scratch_dir) {
		argv[n++] = "--scratch-dir";
		argv[n++] = keep(store, storelen, &used, env->scratch_dir);
	}
	if (!strcmp(c->runtime, "python") && (!strcmp(cmd, "serve") || !strcmp(cmd, "seed"))) {
		argv[n++] = "--runtime";
		argv[n++] = "python";
	}
	if (env->digest && (!strcmp(cmd, "serve") || !strcmp(cmd, "seed"))) {
		argv[n++] = "--digest";
		argv[n++] = keep(store, storelen, &used, env->digest);
	}
	if (!strcmp(cmd, "seed")) {
		argv[n++] = "--layer";
		argv[n++] = keep(store, storelen, &used, c->seed_layer);
	}
	if (n < maxargs)
		argv[n] = NULL;
}

/*
 * Run @argv, its stderr (and with @with_stdout its stdout) into @msg, first
 * line only; the exit code, or -1 if it did not exit.
 */
static int cvmfn_exec_capture(char **argv, int with_stdout, char *msg, size_t msglen,
			      char *err, size_t errlen)
{
	int pipefd[2], status;
	ssize_t n;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC)) {
		snprintf(err, errlen, "pipe: %s", strerror(errno));
		return -1;
	}
	pid = fork();
	if (pid == 0) {
		dup2(pipefd[1], 2);
		dup2(with_stdout ? pipefd[1] : open("/dev/null", O_WRONLY), 1);
		execv(argv[0], argv);
		dprintf(2, "cannot run %s: %s", argv[0], strerror(errno));
		_exit(127);
	}
	close(pipefd[1]);
	n = read(pipefd[0], msg, msglen - 1);
	msg[n > 0 ? n : 0] = '\0';
	msg[strcspn(msg, "\n")] = '\0';
	close(pipefd[0]);
	if (pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

int cvmfn_prepare_here(const struct cell *c, const struct backend_env *env,
		       char *err, size_t errlen)
{
	char store[1024], *argv[24], msg[512] = "";

	cvmfn_argv(env, "prepare", c, store, sizeof(store), argv, 24);
	if (cvmfn_exec_capture(argv, 0, msg, sizeof(msg), err, errlen)) {
		snprintf(err, errlen, "cvmfn prepare %s failed: %s", c->workload,
			 msg[0] ? msg : "no message");
		return -EIO;
	}
	return 0;
}

int cvmfn_python_check_here(const struct cell *c, const struct backend_env *env,
			    char *err, size_t errlen)
{
	char *argv[] = { (char *)env->cvmfn, "check", (char *)c->workload, "--runtime",
			 "python", NULL };
	char msg[512] = "";
	int code = cvmfn_exec_capture(argv, 1, msg, sizeof(msg), err, errlen);

	if (code == 0)
		return 0;
	snprintf(err, errlen, "runtime = python: %s", msg[0] ? msg : "no message");
	return code == CVMFN_EXIT_UNSUPPORTED ? BACKEND_SKIP : -EIO;
}

int backend_runtime_supported(const struct cell *c, char *why, size_t len)
{
	if (strcmp(c->runtime, "python") || c->rootfs[0])
		return 1;
	snprintf(why, len, "runtime = python: backend %s runs the python3 of a Debian rootfs; "
		 "set rootfs = python (or small for null, hello-world, graph-bfs, map-reduce)",
		 c->backend);
	return 0;
}
