// SPDX-License-Identifier: MIT
/*
 * oci-seed.c - a runc / crun cell with a seed-layer: ONE container per cell
 * whose process is `cvmfn seed` at the cell's layer (workloads/zygote.h),
 * and every instance a fork of it inside the container, in its
 * namespaces and cgroup. The container is started detached (`RUNTIME run
 * --detach --pid-file`) with one end of a Unix socket pair as its stdin,
 * which the runtime hands on to the container's process as it is; over it
 * go the seed's records and, with SCM_RIGHTS, each child's protocol pipes
 * (backend-zygote.c's code: zygote-seed.h). The container is journalled
 * like a start's ("oci-container"): the seed exits when the socket closes
 * (also when cvmbench is killed), and `cvmbench restore` deletes what is
 * left. What it measures is backend zygote's, from the host: the
 * children's start split (seed_start) and memory (seed_memory, read from
 * this machine's /proc of the children's pids, found from the seed's
 * children by their pid in the container's pid namespace, NSpid).
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "oci-host.h"
#include "proc-stat.h"

static int seeded(const struct cell *c)
{
	return c->seed_layer[0] && strcmp(c->seed_layer, "none");
}

int oci_seed_supported(const struct cell *c, char *why, size_t len)
{
	if (!seeded(c))
		return 1;
	if (strcmp(c->runtime, "c"))
		snprintf(why, len, "runtime = %s with seed-layer = %s: the seed forks the C "
			 "functions only", c->runtime, c->seed_layer);
	else if (c->cgroup_pool > 0 || c->netns_pool > 0)
		snprintf(why, len, "seed-layer = %s: the cell's instances fork in one container, "
			 "so there is no start to take a pooled cgroup or namespace "
			 "(cgroup-pool, netns-pool)", c->seed_layer);
	else if (strcmp(c->pin, "none"))
		snprintf(why, len, "seed-layer = %s with pin = %s: the children fork in the "
			 "seed's container and keep its CPUs; there is no start to pin",
			 c->seed_layer, c->pin);
	else
		return 1;
	return 0;
}

int oci_seed_begin(struct oci_cell *oc, const struct cell *c, const struct backend_env *env,
		   char *err, size_t errlen)
{
	if (!seeded(c))
		return 0;
	oc->seed = calloc(1, sizeof(*oc->seed));
	if (!oc->seed) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	zygote_state_init(&oc->seed->z, c, env->sink);
	return 0;
}

/* The last pid of /proc/@pid/status's NSpid: its pid in its own namespace. */
static pid_t inner_pid(pid_t pid)
{
	char path[64], line[256], *last;
	pid_t inner = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/%d/status", (int)pid);
	f = fopen(path, "re");
	while (f && fgets(line, sizeof(line), f))
		if (!strncmp(line, "NSpid:", 6)) {
			line[strcspn(line, "\n")] = '\0';
			last = strrchr(line, '\t');
			inner = last ? (pid_t)atoi(last + 1) : -1;
			break;
		}
	if (f)
		fclose(f);
	return inner;
}

/* zygote_host_pid_fn: the seed's child that is @pid in the container. */
static pid_t child_host_pid(void *ctx, pid_t pid)
{
	const struct oci_seed *s = ctx;
	char path[64];
	FILE *f;
	int kid;

	snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)s->z.sc.pid,
		 (int)s->z.sc.pid);
	f = fopen(path, "re");
	if (!f)
		return -errno;
	while (fscanf(f, "%d", &kid) == 1)
		if (inner_pid(kid) == pid) {
			fclose(f);
			return kid;
		}
	fclose(f);
	return -ESRCH;
}

/* Wait up to @timeout_s for our child @pid; its exit status, or -errno. */
static int reap(pid_t pid, double timeout_s)
{
	long long deadline = clock_now_ns() + (long long)(timeout_s * 1e9);
	struct timespec pause = { 0, 1000000 };
	int status;
	pid_t got;

	while ((got = waitpid(pid, &status, WNOHANG)) == 0 && clock_now_ns() < deadline)
		nanosleep(&pause, NULL);
	if (got == pid)
		return WIFEXITED(status) ? WEXITSTATUS(status) : -EINTR;
	if (got == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, NULL, 0);
		return -ETIMEDOUT;
	}
	return -errno;
}

/* The seed's pid on this machine, from the runtime's --pid-file. */
static pid_t read_pid_file(const char *path)
{
	FILE *f = fopen(path, "re");
	int pid = -1;

	if (f && fscanf(f, "%d", &pid) != 1)
		pid = -1;
	if (f)
		fclose(f);
	return (pid_t)pid;
}

/* `RUNTIME run --detach` with a socket as the seed's stdin; 0 or -errno with @err. */
static int run_detached(struct oci_seed *s, const struct cell *c, const struct oci_cell *oc,
			char *err, size_t errlen)
{
	struct oci_runtime_child child = { c, oc, &s->st };
	int sv[2], null, ret;
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv)) {
		snprintf(err, errlen, "socketpair: %s", strerror(errno));
		return -errno;
	}
	null = open("/dev/null", O_WRONLY | O_CLOEXEC);
	pid = null < 0 ? -1 : fork();
	if (pid == 0)
		oci_start_exec(&child, sv[1], null);
	ret = pid < 0 ? -errno : 0;
	close(sv[1]);
	if (null >= 0)
		close(null);
	s->z.sc.sock = sv[0];
	ret = ret ?: reap(pid, 60.0);
	if (ret) {
		snprintf(err, errlen, "%s run --detach %s: %s", oc->runtime, s->st.id,
			 ret == 127 ? "the runtime could not be executed (exit 127)" :
			 ret > 0 ? "failed (the runtime's own message is on stderr above)" :
			 strerror(-ret));
		return ret > 0 ? -EIO : ret;
	}
	s->z.sc.pid = read_pid_file(s->st.pid_file);
	if (s->z.sc.pid <= 0) {
		snprintf(err, errlen, "%s wrote no pid into %s", oc->runtime, s->st.pid_file);
		return -EIO;
	}
	return 0;
}

int oci_seed_start(struct oci_cell *oc, const struct cell *c, const struct backend_env *env,
		   char *err, size_t errlen)
{
	struct oci_seed *s = oc->seed;
	int ret;

	if (!s)
		return 0;
	ret = oci_start_bundle(c, env, oc, &s->st, err, errlen);
	if (ret)
		return ret;
	snprintf(s->st.pid_file, sizeof(s->st.pid_file), "%s/seed.pid", s->st.bundle);
	s->z.host_pid = child_host_pid;
	s->z.host_ctx = s;
	return run_detached(s, c, oc, err, errlen) ?: zygote_seed_ready(&s->z, c, err, errlen);
}

/* Close the seed's socket, give it 2 s to leave, then remove the container. */
void oci_seed_end(struct oci_cell *oc)
{
	struct oci_seed *s = oc->seed;
	struct timespec pause = { 0, 10000000 };
	pid_t seed;
	int i;

	if (!s)
		return;
	seed = s->z.sc.pid;
	zygote_seed_stop(&s->z);
	for (i = 0; seed > 0 && i < 200 && !proc_ended(seed); i++)
		nanosleep(&pause, NULL);
	if (s->st.id[0])
		oci_start_remove(oc, &s->st);
	free(s);
	oc->seed = NULL;
}
