// SPDX-License-Identifier: MIT
/*
 * backend-oci.c - the runc and crun backends: an instance is
 * `RUNTIME run --bundle DIR ID` in the foreground, terminal false, so the
 * container's cvmfn reads and writes the two protocol pipes directly and
 * instance.c works unchanged. The runtime is found in PATH or given by
 * `runtime-path` (a patched build); it starts in its own process group,
 * on the first `cpus` CPUs and in the cell's CPU-quota cgroup when those
 * are set. What the starts of a cell share (netns, quota cgroup, rootfs)
 * is the cell state of oci-cell.c, made by cell_begin() and prepare(); each
 * start gets its own bundle directory (with a cgroup and a network
 * namespace from the cell's pools, oci-pool.c, when it has them) (config.json: a pinned start's CPUs
 * as the container's cpuset where the runtime can make one, oci-cpuset.c,
 * as cell_param pin.container says) and container id,
 * journalled before the runtime starts, and removed by cleanup() - with
 * `RUNTIME delete --force` only when the runtime left its state behind.
 * A cell with a seed-layer instead starts one container running `cvmfn
 * seed` and forks each instance inside it (oci-seed.c).
 * A service cell (the system suite) starts one container, whose process
 * is the agent running the service (oci-svc.c, bench/run/cell-svc.c).
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
#include "knob-pin.h"
#include "log.h"
#include "oci-bundle.h"
#include "oci-host.h"
#include "oci-pool.h"
#include "rootfs.h"

static const struct oci_runtime runc = { "runc", 0, 0, 0 };
static const struct oci_runtime crun = { "crun", 1, 1, 1 };

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

/* The runtime binary of @c: runtime-path, else @rt's in PATH. */
static int runtime_path(const struct oci_runtime *rt, const struct cell *c, char *out,
			size_t len, char *err, size_t errlen)
{
	if (c->runtime_path[0]) {
		snprintf(out, len, "%s", c->runtime_path);
		if (!access(out, X_OK))
			return 0;
		snprintf(err, errlen, "runtime-path %s: %s", out, strerror(errno));
		return -ENOENT;
	}
	if (!find_in_path(rt->binary, out, len))
		return 0;
	snprintf(err, errlen, "%s is not installed (not in PATH nor in the sbin "
		 "directories; set runtime-path)", rt->binary);
	return -ENOENT;
}

static int supported(const struct oci_runtime *rt, const struct cell *c, char *why,
		     size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);
	char path[PATH_MAX];

	if (c->cpus > 0 && strcmp(c->pin, "none")) {
		snprintf(why, len, "cpus = %d and pin = %s both choose the containers' CPUs: "
			 "set one of them", c->cpus, c->pin);
		return 0;
	}
	if (geteuid()) {
		snprintf(why, len, "%s needs root (containers, cgroups, namespaces)",
			 rt->binary);
		return 0;
	}
	if (find_in_path(rt->binary, path, sizeof(path))) {
		snprintf(why, len, "%s is not installed", rt->binary);
		return 0;
	}
	if (!rt->cgroups_optional && !strcmp(c->cgroups, "off")) {
		snprintf(why, len, "cgroups = off: %s always puts a container in a "
			 "cgroup (crun can run without: --cgroup-manager=disabled)",
			 rt->binary);
		return 0;
	}
	if (!rt->bpf_seccomp && !strcmp(c->seccomp, "prepared")) {
		snprintf(why, len, "seccomp = prepared: %s has no way to take a prepared "
			 "filter (crun's run.oci.seccomp_bpf_data annotation; runc 1.1 always "
			 "compiles the profile itself)", rt->binary);
		return 0;
	}
	if (c->cgroup_pool > 0 && !strcmp(c->cgroups, "off")) {
		snprintf(why, len, "cgroup-pool = %d with cgroups = off: no cgroup to take "
			 "from a pool", c->cgroup_pool);
		return 0;
	}
	if (c->netns_pool > 0 && !strcmp(c->netns, "shared")) {
		snprintf(why, len, "netns-pool = %d with netns = shared: the starts share one "
			 "namespace, a pool gives each its own (set one of them)", c->netns_pool);
		return 0;
	}
	if (c->netns_pool > 0 && oci_ip_find(path, sizeof(path))) {
		snprintf(why, len, "netns-pool = %d: ip (iproute2) is not installed, and it "
			 "makes the veth pairs", c->netns_pool);
		return 0;
	}
	if (c->cpus > ncpu) {
		snprintf(why, len, "cpus = %d: this machine has %ld online CPUs", c->cpus,
			 ncpu);
		return 0;
	}
	return 1;
}

static int runc_supported(const struct cell *c, char *why, size_t len)
{
	return backend_runtime_supported(c, why, len) && supported(&runc, c, why, len) &&
	       oci_seed_supported(c, why, len);
}

static int crun_supported(const struct cell *c, char *why, size_t len)
{
	return backend_runtime_supported(c, why, len) && supported(&crun, c, why, len) &&
	       oci_seed_supported(c, why, len);
}

/*
 * Can a pinned start's CPUs be its container's cpuset? In oc->cpuset; a
 * pinned cell says how its containers got their CPUs (pin.container).
 */
static void cpuset_check(struct oci_cell *oc, const struct cell *c,
			 const struct backend_env *env)
{
	char why[300], words[400];

	oc->cpuset = oci_cpuset_usable(c, why, sizeof(why));
	if (!strcmp(c->pin, "none") || !env->note)
		return;
	if (oc->cpuset)
		snprintf(words, sizeof(words), "cpuset: each container's config.json "
			 "linux.resources.cpu.cpus");
	else
		snprintf(words, sizeof(words), "inherited affinity only, no cpuset: %s", why);
	env->note(env->note_ctx, "pin.container", words);
}

static int cell_begin(const struct oci_runtime *rt, const struct cell *c,
		      const struct backend_env *env, void **state, char *err, size_t errlen)
{
	struct oci_cell *oc = calloc(1, sizeof(*oc));
	int ret;

	if (!oc) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	oc->rt = rt;
	oc->sink = env->sink;
	ret = runtime_path(rt, c, oc->runtime, sizeof(oc->runtime), err, errlen);
	ret = ret ?: oci_cell_setup(oc, c, err, errlen);
	if (ret) {
		free(oc);
		return ret;
	}
	ret = oci_cell_prepared(oc, c, err, errlen);
	if (ret) {
		oci_cell_teardown(oc);
		free(oc);
		return ret;
	}
	cpuset_check(oc, c, env);
	ret = oci_seed_begin(oc, c, env, err, errlen);
	if (ret) {
		oci_cell_teardown(oc);
		free(oc);
		return ret;
	}
	*state = oc;
	return 0;
}

static int runc_cell_begin(const struct cell *c, const struct backend_env *env,
			   void **state, char *err, size_t errlen)
{
	return cell_begin(&runc, c, env, state, err, errlen);
}

static int crun_cell_begin(const struct cell *c, const struct backend_env *env,
			   void **state, char *err, size_t errlen)
{
	return cell_begin(&crun, c, env, state, err, errlen);
}

/* The Debian tree of the `rootfs` key (built if not cached), noted in the cell. */
static int debian_root(struct oci_cell *oc, const struct cell *c,
		       const struct backend_env *env, char *err, size_t errlen)
{
	struct rootfs r;
	int ret;

	if (!c->rootfs[0])
		return 0;
	ret = rootfs_build(c->rootfs, &r, err, errlen);
	if (ret)
		return ret;
	snprintf(oc->base, sizeof(oc->base), "%s", r.tree);
	if (env->note) {
		env->note(env->note_ctx, "rootfs.name", r.name);
		env->note(env->note_ctx, "rootfs.hash", r.hash);
	}
	return 0;
}

/*
 * Model files in the data directory, then the cell's rootfs from them; a
 * service cell (no model files) has the agent and its directory instead.
 */
static int oci_prepare(const struct cell *c, const struct backend_env *env, void *state,
		       char *err, size_t errlen)
{
	if (env->service)
		return debian_root(state, c, env, err, errlen) ?:
		       oci_cell_rootfs(state, c, env, err, errlen) ?:
		       oci_svc_prepare(state, err, errlen);
	return cvmfn_prepare_here(c, env, err, errlen) ?:
	       debian_root(state, c, env, err, errlen) ?:
	       oci_cell_rootfs(state, c, env, err, errlen) ?:
	       oci_seed_start(state, c, env, err, errlen);
}

/* A seeded cell: the seed's checks after the calls (zygote_verify()). */
static int oci_verify(void *state, const struct cell *c, char *why, size_t len)
{
	struct oci_cell *oc = state;

	return oc->seed ? zygote_verify(&oc->seed->z, c, why, len) : 0;
}

static void oci_cell_end(void *state)
{
	oci_seed_end(state);
	oci_cell_teardown(state);
	free(state);
}

int oci_start_bundle(const struct cell *c, const struct backend_env *env,
		     const struct oci_cell *oc, struct oci_start *st, char *err, size_t errlen)
{
	static unsigned int seq;
	char dir[PATH_MAX - 128], name[PATH_MAX * 2 + 80], pin[PIN_CPUS_TEXT_MAX];
	char netns[PATH_MAX];
	struct oci_bundle_opts o;
	int pinned = oc->cpuset ? pin_spawn_cpus(pin, sizeof(pin)) : 0;

	if (pinned < 0) {         /* never a part of the list in the container's cpuset */
		snprintf(err, errlen, "the pinned CPU list does not fit in %zu bytes", sizeof(pin));
		return pinned;
	}
	oci_state_dir(dir, sizeof(dir));
	snprintf(st->id, sizeof(st->id), "cvmbench-%d-%u", (int)getpid(), seq++);
	snprintf(st->bundle, sizeof(st->bundle), "%s/oci/%s", dir, st->id);
	snprintf(name, sizeof(name), "%s\t%s\t%s", oc->runtime, st->id, st->bundle);
	st->journal_id = journal_object("oci-container", name);
	if (st->journal_id < 0) {
		snprintf(err, errlen, "cannot write the journal: %s",
			 strerror((int)-st->journal_id));
		return (int)st->journal_id;
	}
	if (oc->pool && oci_pool_take(oc->pool, st->cgroup, sizeof(st->cgroup)))
		st->cgroup[0] = '\0';     /* drained: the runtime makes its own */
	if (oc->netns_pool && (oci_pool_take(oc->netns_pool, st->netns, sizeof(st->netns)) ||
			       oci_netns_pool_path(st->netns, netns, sizeof(netns)))) {
		snprintf(err, errlen, "netns pool: cannot make a namespace for a start");
		return -EIO;
	}
	o = (struct oci_bundle_opts){ oc->rootfs, st->bundle, st->id,
				     st->netns[0] ? netns : oc->netns_id > 0 ? oc->netns : NULL,
				     env->digest,
				     pinned > 0 ? pin : NULL, st->cgroup[0] ? st->cgroup : NULL,
				     oc->seccomp_bpf, oc->base[0] ? oc->base : NULL,
				     oc->seed ? c->seed_layer : NULL,
				     oc->svc_dir_id > 0 ? oc->svc_dir : NULL };
	return oci_bundle_write(c, &o, err, errlen);
}

void oci_start_exec(void *arg, int rd, int wr)
{
	const struct cell *c = ((struct oci_runtime_child *)arg)->c;
	const struct oci_cell *oc = ((struct oci_runtime_child *)arg)->oc;
	const struct oci_start *st = ((struct oci_runtime_child *)arg)->st;
	char *argv[12];
	const char *procs = oc->quota_id > 0 ? oc->procs : NULL;
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
	argv[n++] = (char *)oc->runtime;
	if (!strcmp(c->cgroups, "off"))
		argv[n++] = "--cgroup-manager=disabled";
	argv[n++] = "run";
	if (st->pid_file[0]) {
		argv[n++] = "--detach";
		argv[n++] = "--pid-file";
		argv[n++] = (char *)st->pid_file;
	}
	argv[n++] = "--bundle";
	argv[n++] = (char *)st->bundle;
	argv[n++] = (char *)st->id;
	argv[n] = NULL;
	execv(argv[0], argv);
	dprintf(1, "error cannot run %s: %s\n", argv[0], strerror(errno));
	_exit(127);
}

static int start_runtime(const struct cell *c, const struct oci_cell *oc,
			 struct oci_start *st, struct instance *in, char *err, size_t errlen)
{
	struct oci_runtime_child child = { c, oc, st };

	return backend_fork(in, oci_start_exec, &child, err, errlen);
}

void oci_start_remove(const struct oci_cell *oc, struct oci_start *st)
{
	/* removed: the entry is closed; else restore tries again */
	if (st->id[0] && !oci_container_remove(oc->runtime, st->id, st->bundle) &&
	    journal_forget(st->journal_id))
		pr_warn("journal %s: cannot close the entry of container %s", journal_path(),
			st->id);
	if (st->cgroup[0])
		oci_pool_give(oc->pool, st->cgroup);   /* after the container is gone */
	if (st->netns[0])
		oci_pool_give(oc->netns_pool, st->netns);
}

static void oci_cleanup(void *state, struct instance *in)
{
	struct oci_cell *oc = state;
	struct oci_start *st = in->priv;

	if (oc->seed) {
		zygote_cleanup(&oc->seed->z, in);
		return;
	}
	if (!st)
		return;
	oci_start_remove(oc, st);
	free(st);
	in->priv = NULL;
}

static int oci_spawn(const struct cell *c, const struct backend_env *env, void *state,
		     struct instance *in, char *err, size_t errlen)
{
	struct oci_cell *oc = state;
	struct oci_start *st;
	int ret;

	if (oc->seed)
		return zygote_spawn(c, env, &oc->seed->z, in, err, errlen);
	st = calloc(1, sizeof(*st));
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	in->priv = st;
	ret = oci_start_bundle(c, env, oc, st, err, errlen);
	ret = ret ?: start_runtime(c, oc, st, in, err, errlen);
	if (ret)
		oci_cleanup(state, in);
	return ret;
}

const struct backend_ops backend_runc = {
	.name = "runc",
	.flags = BACKEND_CGROUPS | BACKEND_SEED_LAYER,
	.supported = runc_supported,
	.cell_begin = runc_cell_begin,
	.prepare = oci_prepare,
	.spawn = oci_spawn,
	.verify = oci_verify,
	.cleanup = oci_cleanup,
	.cell_end = oci_cell_end,
};

const struct backend_ops backend_crun = {
	.name = "crun",
	.flags = BACKEND_CGROUPS | BACKEND_SEED_LAYER,
	.supported = crun_supported,
	.cell_begin = crun_cell_begin,
	.prepare = oci_prepare,
	.spawn = oci_spawn,
	.verify = oci_verify,
	.cleanup = oci_cleanup,
	.cell_end = oci_cell_end,
};
