// SPDX-License-Identifier: MIT
/*
 * cell-svc-ct.c - a service cell's container (runc, crun; cell-svc-ct.h):
 * whether it can run here (loadgen same, rootfs system, a network
 * namespace the runtime makes, the agent and cvmload built); started as
 * the backend starts any container (backend_ops.spawn: bundle
 * and container id journalled, bench/backends/backend-oci.c), its process
 * the agent (bench/backends/oci-svc.c); and the server's pid on this
 * machine, found among the runtime's descendants in /proc: the process
 * named as the server (/proc/PID/comm) whose parent is the agent.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cell-svc-ct.h"
#include "paths.h"
#include "proc-tree.h"

/* Is @name built beside the running cvmbench (where the backend copies it from)? */
static int beside_cvmbench(const char *name)
{
	char path[PATH_MAX];

	return !exe_beside(name, path, sizeof(path));
}

int svc_ct_runnable(const struct cell *c, const struct svc_info *svc, char *why, size_t len)
{
	if (strcmp(c->loadgen, "same")) {
		snprintf(why, len, "loadgen = %s: backend %s runs the server in a container on "
			 "its own loopback (its own network namespace), the load generator "
			 "beside it (loadgen = same)", c->loadgen, c->backend);
		return 0;
	}
	if (strcmp(c->rootfs, "system")) {
		snprintf(why, len, "workload %s is a service: its container needs rootfs = "
			 "system (the servers and load generators the guests run), not '%s'",
			 c->workload, c->rootfs);
		return 0;
	}
	if (strcmp(c->netns, "new") || c->netns_pool > 0) {
		snprintf(why, len, "workload %s is a service: its container needs a network "
			 "namespace the runtime makes (netns = new, netns-pool = 0): only there "
			 "does the runtime bring its loopback up", c->workload);
		return 0;
	}
	if (!beside_cvmbench("cvmbench-agent") ||
	    (!strcmp(svc->loadgen, "cvmload") && !beside_cvmbench("cvmload"))) {
		snprintf(why, len, "workload %s in a container: %s is not built next to "
			 "cvmbench (make)", c->workload,
			 beside_cvmbench("cvmbench-agent") ? "cvmload" :
			 "cvmbench-agent (it runs the service there)");
		return 0;
	}
	return 1;
}

int svc_ct_open(const struct cell_ctx *ctx, const struct backend_ops *be, void *state,
		struct instance *in, char *why, size_t len)
{
	memset(in, 0, sizeof(*in));
	in->pid = -1;
	in->to_fd = in->from_fd = -1;
	if (!be->spawn) {
		snprintf(why, len, "backend %s starts no container", be->name);
		return -EINVAL;
	}
	return be->spawn(ctx->cell, &ctx->env, state, in, why, len);
}

void svc_ct_close(const struct backend_ops *be, void *state, struct instance *in)
{
	if (in->pid > 0 || in->to_fd >= 0)
		backend_close(be, state, in, 5.0);
	in->pid = -1;
}

/* /proc/@pid/comm into @comm; 0 or -errno. */
static int comm_of(pid_t pid, char *comm, size_t len)
{
	char path[64];
	FILE *f;
	int ok;

	snprintf(path, sizeof(path), "/proc/%d/comm", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	ok = fgets(comm, (int)len, f) != NULL;
	fclose(f);
	if (!ok)
		return -EIO;
	comm[strcspn(comm, "\n")] = '\0';
	return 0;
}

/* The parent of @pid (/proc/PID/status PPid), or -1. */
static pid_t parent_of(pid_t pid)
{
	char path[64], line[256];
	FILE *f;
	int ppid = -1;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "PPid: %d", &ppid) == 1)
			break;
	if (f)
		fclose(f);
	return (pid_t)ppid;
}

pid_t svc_ct_server(const struct instance *in, const char *server)
{
	char comm[64], pcomm[64];
	pid_t *pids, found = 0;
	size_t n, i;

	if (in->pid <= 0 || proc_tree(&in->pid, 1, &pids, &n))
		return 0;
	for (i = 1; i < n && !found; i++)
		if (!comm_of(pids[i], comm, sizeof(comm)) && !strcmp(comm, server) &&
		    !comm_of(parent_of(pids[i]), pcomm, sizeof(pcomm)) &&
		    !strcmp(pcomm, "cvmbench-agent"))
			found = pids[i];
	free(pids);
	return found;
}
