// SPDX-License-Identifier: MIT
/* backend.c - the list of backends and the cvmfn command line they share. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"

extern const struct backend_ops backend_native;
extern const struct backend_ops backend_runc, backend_crun;

static const struct backend_ops *const backends[] = {
	&backend_native,
	&backend_runc,
	&backend_crun,
};

const struct backend_ops *backend_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(backends) / sizeof(backends[0]); i++)
		if (!strcmp(backends[i]->name, name))
			return backends[i];
	return NULL;
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
	in->spawn_ns = mono_ns();
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

void backend_close(const struct backend_ops *be, struct instance *in, double timeout_s)
{
	instance_close(in, timeout_s);
	if (be && be->cleanup)
		be->cleanup(in);
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
	argv[n++] = "--threads";
	snprintf(num, sizeof(num), "%d", c->threads);
	argv[n++] = keep(store, storelen, &used, num);
	argv[n++] = "--wait";
	argv[n++] = keep(store, storelen, &used, c->wait);
	argv[n++] = "--data-dir";
	argv[n++] = keep(store, storelen, &used, env->data_dir);
	if (env->digest && !strcmp(cmd, "serve")) {
		argv[n++] = "--digest";
		argv[n++] = keep(store, storelen, &used, env->digest);
	}
	if (n < maxargs)
		argv[n] = NULL;
}
