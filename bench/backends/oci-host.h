/* SPDX-License-Identifier: MIT */
/*
 * oci-host.h - the parts the runc and crun backends share: what tells the
 * two runtimes apart (struct oci_runtime), the state of one cell
 * (struct oci_cell, set up by oci-cell.c: shared netns, CPU-quota cgroup,
 * crun's v1 mounts, the cell's rootfs) and the journal's object kinds
 * (oci-objects.c).
 */
#ifndef CVMBENCH_OCI_HOST_H
#define CVMBENCH_OCI_HOST_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "backend.h"
#include "oci-pool.h"
#include "zygote-seed.h"

/* What one OCI runtime can do; one per backend (backend-oci.c). */
struct oci_runtime {
	const char *binary;       /* looked up in PATH unless runtime-path */
	int cgroups_optional;     /* runs with --cgroup-manager=disabled (cgroups = off) */
	int pure_cgroups;         /* refuses a hybrid hierarchy with cgroup2 controllers */
	int bpf_seccomp;          /* takes a prepared filter (run.oci.seccomp_bpf_data) */
};

struct oci_pool;
struct oci_seed;
struct sink;

/* The backend state of one runc / crun cell (oci_cell_setup/teardown). */
struct oci_cell {
	const struct oci_runtime *rt;
	char runtime[PATH_MAX];   /* the runtime binary of the cell */
	long netns_id, quota_id, rootfs_id;
	long v1_id[8];
	int nv1;
	char netns[PATH_MAX];     /* the shared network namespace, if netns_id */
	char quota[PATH_MAX];     /* the CPU-quota cgroup, if quota_id */
	char procs[PATH_MAX + 16];/* its cgroup.procs */
	char rootfs[PATH_MAX];    /* the cell's rootfs, if rootfs_id */
	char base[PATH_MAX];      /* the Debian tree of the `rootfs` key ("": none) */
	int cpuset;               /* the runtime can give a container a cpuset (oci-cpuset.c) */
	struct oci_pool *pool;    /* cgroup-pool > 0: the cell's pooled cgroups (oci-pool.c) */
	struct oci_pool *netns_pool; /* netns-pool > 0: its namespaces with veth pairs */
	char *seccomp_bpf;        /* seccomp = prepared: the filter, base64 */
	struct sink *sink;        /* the cell's rows of its own (the pool's events) */
	struct oci_seed *seed;    /* seed-layer set: the cell's seed container (oci-seed.c) */
	char svc_dir[PATH_MAX];   /* a service cell: its directory, bound on /mnt (oci-svc.c) */
	long svc_dir_id;
};

/* One container: a start's, or a seeded cell's seed (backend-oci.c). */
struct oci_start {
	char id[64];
	char cgroup[OCI_POOL_NAME_MAX];   /* taken from the cell's pool; "" = none */
	char netns[OCI_POOL_NAME_MAX];    /* taken from the cell's netns pool; "" = none */
	char bundle[PATH_MAX];
	char pid_file[PATH_MAX + 16]; /* "": run in the foreground; else --detach, its pid here */
	long journal_id;
};

/* A seeded cell's seed container and what backend-zygote.c keeps of it. */
struct oci_seed {
	struct zygote_state z;
	struct oci_start st;
};

/* What oci_start_exec() runs: @st of cell @c. */
struct oci_runtime_child {
	const struct cell *c;
	const struct oci_cell *oc;
	const struct oci_start *st;
};

/**
 * oci_start_bundle() - a new container id and bundle for @st (journalled
 * first; a seeded cell's runs `cvmfn seed`). 0 or -errno with @err.
 */
int oci_start_bundle(const struct cell *c, const struct backend_env *env,
		     const struct oci_cell *oc, struct oci_start *st, char *err, size_t errlen);
/**
 * oci_start_exec() - in a forked child: `RUNTIME run` of the oci_runtime_child
 * @arg with @rd as stdin and @wr as stdout (backend_child_fn). Never returns.
 */
void oci_start_exec(void *arg, int rd, int wr);
/** oci_start_remove() - remove @st's container and bundle; its pooled objects back. */
void oci_start_remove(const struct oci_cell *oc, struct oci_start *st);

/**
 * The seed of a cell with a seed-layer (oci-seed.c): oci_seed_supported()
 * 1, or 0 with @why; oci_seed_begin() in cell_begin, oci_seed_start() in
 * prepare (the container, up to "seeded"), oci_seed_end() in cell_end. Each
 * does nothing for a cell without a seed-layer.
 */
int oci_seed_supported(const struct cell *c, char *why, size_t len);
int oci_seed_begin(struct oci_cell *oc, const struct cell *c, const struct backend_env *env,
		   char *err, size_t errlen);
int oci_seed_start(struct oci_cell *oc, const struct cell *c, const struct backend_env *env,
		   char *err, size_t errlen);
void oci_seed_end(struct oci_cell *oc);

/**
 * oci_cell_setup() - journal and create @c's shared objects in @oc (crun's
 * v1 mounts, the shared netns, the quota cgroup). 0, BACKEND_SKIP or
 * -errno with @why; on failure nothing is left.
 */
int oci_cell_setup(struct oci_cell *oc, const struct cell *c, char *why, size_t len);
/**
 * oci_cell_prepared() - what `cgroup-pool`, `netns-pool` and `seccomp = prepared` make
 * before the starts: the pool (filled, refilling) and the compiled filter;
 * their costs through @oc->sink. 0 or -errno with @why; on failure @oc's
 * pool is closed (oci_cell_teardown() does the rest).
 */
int oci_cell_prepared(struct oci_cell *oc, const struct cell *c, char *why, size_t len);
/** oci_cell_rootfs() - journal and build the cell's rootfs. 0 or -errno with @err. */
int oci_cell_rootfs(struct oci_cell *oc, const struct cell *c,
		    const struct backend_env *env, char *err, size_t errlen);
/** oci_cell_teardown() - remove what setup and rootfs made (journal undo). */
void oci_cell_teardown(struct oci_cell *oc);

/** oci_state_dir() - the directory of the journal (bundles go below it). */
void oci_state_dir(char *buf, size_t len);

/**
 * oci_run_wait() - run @argv (no shell) with stdio on /dev/null, wait up to
 * @timeout_s, kill it after that. Returns its exit status, or -errno.
 */
int oci_run_wait(char *const argv[], double timeout_s);
/** oci_run_wait_in() - oci_run_wait() in the network namespace of file @netns. */
int oci_run_wait_in(char *const argv[], const char *netns, double timeout_s);

/**
 * oci_orphans_end() - SIGKILL every process of program @runtime that has
 * container @id as an argument (a killed run's orphaned runtime), and wait
 * up to 2 s for them to be gone. Returns how many it found.
 */
int oci_orphans_end(const char *runtime, const char *id);
/** oci_cgroup_remove() - move what is left in cgroup @dir to its parent, remove it. */
int oci_cgroup_remove(const char *dir);
/** oci_cgroups_remove_named() - oci_cgroup_remove() of @name in every hierarchy. */
void oci_cgroups_remove_named(const char *name);
/**
 * oci_netns_bind() - a new network namespace bound onto the file @path
 * (made; a child unshares and bind-mounts its namespace there, as a pause
 * container holds one). 0, or -errno with nothing left.
 */
int oci_netns_bind(const char *path);
/** oci_netns_unbind() - unmount and remove @path (the oci-netns undo). */
int oci_netns_unbind(const char *path);
/** oci_container_remove() - the oci-container undo, for the backend itself. */
int oci_container_remove(const char *runtime, const char *id, const char *bundle);

/**
 * oci_cpuset_usable() - can the runtime put @c's containers in a cpuset of
 * their own here (a cpuset controller, cgroups not off)? 1, or 0 with the
 * reason in @why (oci-cpuset.c).
 */
int oci_cpuset_usable(const struct cell *c, char *why, size_t len);

/**
 * oci_svc_prepare() - after the cell's rootfs: the agent and cvmload in its
 * /data, the service's directory (journalled: restore removes it). 0 or
 * -errno with @err.
 */
int oci_svc_prepare(struct oci_cell *oc, char *err, size_t errlen);

#endif
