/* SPDX-License-Identifier: MIT */
/*
 * oci-bundle.h - OCI bundles for the runc and crun backends: a minimal
 * root filesystem per workload (the static cvmfn and the workload's model
 * and data files) shared by the starts of a cell, and one config.json per
 * start, built with cJSON (with the `pin` key's CPUs as the container's
 * cpuset when the start is pinned).
 */
#ifndef CVMBENCH_OCI_BUNDLE_H
#define CVMBENCH_OCI_BUNDLE_H

#include <stddef.h>

#include "backend.h"
#include "cell.h"

/* What one start's config.json says beyond the cell itself. */
struct oci_bundle_opts {
	const char *rootfs;       /* absolute path of the root filesystem */
	const char *dir;          /* the bundle directory (config.json goes here) */
	const char *id;           /* container id; also the cgroup's name */
	const char *netns_path;   /* join this network namespace; NULL = a new one */
	const char *digest;       /* cvmfn serve --digest; NULL = its default */
	const char *cpus;         /* the pin's CPUs ("0-3,6"): linux.resources.cpu.cpus; NULL = none */
	const char *cgroup;       /* cgroupsPath's name (a pooled cgroup); NULL = @id */
	const char *seccomp_bpf;  /* a prepared filter (base64) for crun's annotation; NULL = none */
	const char *base;         /* a Debian tree (rootfs key) as the read-only root, @rootfs's
				     cvmfn and data bound into it; NULL = @rootfs is the root */
	const char *seed_layer;   /* run `cvmfn seed --layer L` (oci-seed.c); NULL = serve */
	const char *svc_dir;      /* a service cell: its directory, bound read-write on /mnt,
				     and the process is /data/cvmbench-agent --stdio; NULL = cvmfn */
};

/**
 * oci_rootfs_build() - create @dir holding /cvmfn and /data with the files
 * of @c's workload from @env->data_dir (hard links where possible, else
 * copies). Returns 0 or -errno with the reason in @err; on failure nothing
 * is left.
 */
int oci_rootfs_build(const struct cell *c, const struct backend_env *env,
		     const char *dir, char *err, size_t errlen);

/**
 * oci_bundle_write() - create the directory @o->dir and write its
 * config.json for one start of @c. 0 or -errno with the reason in @err.
 */
int oci_bundle_write(const struct cell *c, const struct oci_bundle_opts *o,
		     char *err, size_t errlen);

/** oci_seccomp_profile() - the seccomp section (a cJSON object, caller frees). */
struct cJSON *oci_seccomp_profile(void);
/** oci_seccomp_allowed() - the profile's allowed system calls, @n of them. */
const char *const *oci_seccomp_allowed(size_t *n);

/**
 * oci_seccomp_prepare() - the profile compiled once (libseccomp) into a
 * classic BPF program, base64 (crun's run.oci.seccomp_bpf_data) into a
 * malloc'd *@b64; @ns the compile's wall time. 0, or -errno with @why
 * (-ENOSYS: built without libseccomp). oci-seccomp-bpf.c.
 */
int oci_seccomp_prepare(char **b64, long long *ns, char *why, size_t len);

#endif
