// SPDX-License-Identifier: MIT
/*
 * backend-oci.c - the runc and crun backends: an instance is
 * `RUNTIME run --bundle DIR ID` in the foreground, terminal false, so the
 * container's cvmfn reads and writes the two protocol pipes directly and
 * instance.c works unchanged. The runtime is found in PATH or given by
 * `runtime-path` (a patched build); it starts in its own process group,
 * on the first `cpus` CPUs and in the cell's CPU-quota cgroup when those
 * are set. The rootfs is built once per workload and shared; each start
 * gets its own bundle directory (config.json) and container id, journalled
 * before the runtime starts, and removed by cleanup() - with
 * `RUNTIME delete --force` only when the runtime left its state behind.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "backend.h"
#include "journal.h"
#include "log.h"
#include "oci-bundle.h"
#include "oci-host.h"

struct oci_start {
	char runtime[PATH_MAX];
	char id[64];
	char bundle[PATH_MAX];
	long journal_id;
};

/* The rootfs of the current workload, shared by the starts of its cells. */
static struct {
	char key[PATH_MAX * 2];
	char dir[PATH_MAX];
	long journal_id;
} rootfs;

static int find_in_path(const char *name, char *out, size_t len)
{
	static const char *const dirs[] = { "/usr/local/sbin", "/usr/local/bin",
					    "/usr/sbin", "/usr/bin", "/sbin", "/bin" };
	const char *path = getenv("PATH");
	char buf[4096], *tok, *save = NULL;
	size_t i;

	snprintf(buf, sizeof(buf), "%s", path ? path : "");
	for (tok = strtok_r(buf, ":", &save); tok; tok = strtok_r(NULL, ":", &save)) {
		snprintf(out, len, "%s/%s", tok, name);
		if (!access(out, X_OK))
			return 0;
	}
	for (i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(out, len, "%s/%s", dirs[i], name);
		if (!access(out, X_OK))
			return 0;
	}
	return -ENOENT;
}

static int runtime_path(const struct cell *c, char *out, size_t len, char *err,
			size_t errlen)
{
	if (c->runtime_path[0]) {
		snprintf(out, len, "%s", c->runtime_path);
		if (!access(out, X_OK))
			return 0;
		snprintf(err, errlen, "runtime-path %s: %s", out, strerror(errno));
		return -ENOENT;
	}
	if (!find_in_path(c->backend, out, len))
		return 0;
	snprintf(err, errlen, "%s is not installed (not in PATH nor in the sbin "
		 "directories; set runtime-path)", c->backend);
	return -ENOENT;
}

static int supported(const char *name, char *why, size_t len)
{
	char path[PATH_MAX];

	if (geteuid()) {
		snprintf(why, len, "%s needs root (containers, cgroups, namespaces)", name);
		return 0;
	}
	if (find_in_path(name, path, sizeof(path))) {
		snprintf(why, len, "%s is not installed", name);
		return 0;
	}
	return 1;
}

static int runc_supported(char *why, size_t len)
{
	return supported("runc", why, len);
}

static int crun_supported(char *why, size_t len)
{
	return supported("crun", why, len);
}

/* Build (or keep) the rootfs for @c's workload. */
static int rootfs_get(const struct cell *c, const struct backend_env *env,
		      char *err, size_t errlen)
{
	static unsigned int n;
	char key[sizeof(rootfs.key)], dir[PATH_MAX - 64];
	int ret;

	snprintf(key, sizeof(key), "%s\n%s\n%s", c->workload, env->cvmfn, env->data_dir);
	if (rootfs.journal_id > 0 && !strcmp(key, rootfs.key))
		return 0;
	if (rootfs.journal_id > 0 && journal_undo(rootfs.journal_id))
		pr_warn("cannot remove rootfs %s; cvmbench restore retries", rootfs.dir);
	rootfs.journal_id = 0;
	oci_state_dir(dir, sizeof(dir));
	snprintf(rootfs.dir, sizeof(rootfs.dir), "%s/oci", dir);
	mkdir(rootfs.dir, 0700);
	snprintf(rootfs.dir, sizeof(rootfs.dir), "%s/oci/rootfs-%d-%u", dir,
		 (int)getpid(), n++);
	rootfs.journal_id = journal_object("oci-rootfs", rootfs.dir);
	if (rootfs.journal_id < 0) {
		snprintf(err, errlen, "cannot write the journal: %s",
			 strerror((int)-rootfs.journal_id));
		return (int)rootfs.journal_id;
	}
	ret = oci_rootfs_build(c, env, rootfs.dir, err, errlen);
	if (ret) {
		if (journal_forget(rootfs.journal_id))
			pr_warn("journal %s: cannot close the entry of %s", journal_path(),
				rootfs.dir);
		rootfs.journal_id = 0;
		return ret;
	}
	snprintf(rootfs.key, sizeof(rootfs.key), "%s", key);
	return 0;
}

/* A new container id and bundle for one start, journalled first. */
static int bundle_make(const struct cell *c, const struct backend_env *env,
		       struct oci_start *st, char *err, size_t errlen)
{
	static unsigned int seq;
	char dir[PATH_MAX - 128], name[PATH_MAX * 2 + 80];
	struct oci_bundle_opts o;

	oci_state_dir(dir, sizeof(dir));
	snprintf(st->id, sizeof(st->id), "cvmbench-%d-%u", (int)getpid(), seq++);
	snprintf(st->bundle, sizeof(st->bundle), "%s/oci/%s", dir, st->id);
	snprintf(name, sizeof(name), "%s\t%s\t%s", st->runtime, st->id, st->bundle);
	st->journal_id = journal_object("oci-container", name);
	if (st->journal_id < 0) {
		snprintf(err, errlen, "cannot write the journal: %s",
			 strerror((int)-st->journal_id));
		return (int)st->journal_id;
	}
	o = (struct oci_bundle_opts){ rootfs.dir, st->bundle, st->id, oci_host_netns(),
				     env->digest };
	return oci_bundle_write(c, &o, err, errlen);
}

struct runtime_child {
	const struct cell *c;
	const struct oci_start *st;
};

static void exec_runtime(void *arg, int rd, int wr)
{
	const struct cell *c = ((struct runtime_child *)arg)->c;
	const struct oci_start *st = ((struct runtime_child *)arg)->st;
	char *argv[8];
	const char *procs = oci_host_quota_procs();
	int n = 0, i, fd;
	cpu_set_t set;

	setpgid(0, 0);
	signal(SIGPIPE, SIG_DFL);
	if (c->cpus > 0) {
		CPU_ZERO(&set);
		for (i = 0; i < c->cpus; i++)
			CPU_SET(i, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	if (procs && (fd = open(procs, O_WRONLY)) >= 0) {
		if (write(fd, "0", 1) < 0)
			_exit(126);
		close(fd);
	}
	if (dup2(rd, 0) < 0 || dup2(wr, 1) < 0)
		_exit(127);
	argv[n++] = (char *)st->runtime;
	if (!strcmp(c->cgroups, "off"))
		argv[n++] = "--cgroup-manager=disabled";
	argv[n++] = "run";
	argv[n++] = "--bundle";
	argv[n++] = (char *)st->bundle;
	argv[n++] = (char *)st->id;
	argv[n] = NULL;
	execv(argv[0], argv);
	dprintf(1, "error cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int start_runtime(const struct cell *c, struct oci_start *st,
			 struct instance *in, char *err, size_t errlen)
{
	struct runtime_child child = { c, st };

	return backend_fork(in, exec_runtime, &child, err, errlen);
}

static void oci_cleanup(struct instance *in)
{
	struct oci_start *st = in->priv;

	if (!st)
		return;
	/* removed: the entry is closed; else restore tries again */
	if (st->id[0] && !oci_container_remove(st->runtime, st->id, st->bundle) &&
	    journal_forget(st->journal_id))
		pr_warn("journal %s: cannot close the entry of container %s", journal_path(),
			st->id);
	free(st);
	in->priv = NULL;
}

static int oci_spawn(const struct cell *c, const struct backend_env *env,
		     struct instance *in, char *err, size_t errlen)
{
	struct oci_start *st = calloc(1, sizeof(*st));
	int ret;

	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	in->priv = st;
	ret = runtime_path(c, st->runtime, sizeof(st->runtime), err, errlen);
	ret = ret ?: rootfs_get(c, env, err, errlen);
	ret = ret ?: bundle_make(c, env, st, err, errlen);
	ret = ret ?: start_runtime(c, st, in, err, errlen);
	if (ret)
		oci_cleanup(in);
	return ret;
}

const struct backend_ops backend_runc = {
	.name = "runc",
	.supported = runc_supported,
	.spawn = oci_spawn,
	.cleanup = oci_cleanup,
};

const struct backend_ops backend_crun = {
	.name = "crun",
	.supported = crun_supported,
	.spawn = oci_spawn,
	.cleanup = oci_cleanup,
};
