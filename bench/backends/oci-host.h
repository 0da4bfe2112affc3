/* SPDX-License-Identifier: MIT */
/*
 * oci-host.h - what the runc and crun cells set up on the host around
 * their starts, as one knob (knob_oci): the shared network namespace
 * (netns = shared), the runtime's CPU-quota cgroup (cpu-quota), the
 * CPU-bound co-runner (corunner) and cgroup2's favordynmods mount option.
 * Every object goes through the journal as an "oci-*" object (kinds
 * registered by oci-objects.c), removed at the end of the cell, the run,
 * or by `cvmbench restore`.
 */
#ifndef CVMBENCH_OCI_HOST_H
#define CVMBENCH_OCI_HOST_H

#include <stddef.h>
#include <sys/types.h>

#include "knob.h"

extern const struct knob_ops knob_oci;

/** oci_host_netns() - the shared network namespace file of the cell, or NULL. */
const char *oci_host_netns(void);
/** oci_host_quota_procs() - cgroup.procs of the runtime's quota cgroup, or NULL. */
const char *oci_host_quota_procs(void);

/** oci_state_dir() - the directory of the journal (bundles go below it). */
void oci_state_dir(char *buf, size_t len);

/**
 * oci_run_wait() - run @argv (no shell) with stdio on /dev/null, wait up to
 * @timeout_s, kill it after that. Returns its exit status, or -errno.
 */
int oci_run_wait(char *const argv[], double timeout_s);

/** oci_container_remove() - the oci-container undo, for the backend itself. */
int oci_container_remove(const char *runtime, const char *id, const char *bundle);

#endif
