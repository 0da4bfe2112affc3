/* SPDX-License-Identifier: MIT */
/*
 * tracefs-host.h - tracefs as a run finds and leaves it: the tracing
 * directory, a mount of tracefs when none is there (journalled as a
 * "tracefs-mount" object, unmounted at the end of the run or by
 * `cvmbench restore`), and the "tracefs-instance" kind of the probes'
 * instances. Code that needs tracefs mounted calls tracefs_host_dir()
 * before libtracefs (which would mount it unjournalled).
 */
#ifndef CVMBENCH_TRACEFS_HOST_H
#define CVMBENCH_TRACEFS_HOST_H

#include <stddef.h>

#include "tracefs-find.h"

/* Where cvmbench mounts tracefs when nothing is mounted. */
#define TRACEFS_HOST_MOUNT TRACEFS_MOUNT_POINT

/**
 * tracefs_host_dir() - the tracing directory in @dir, mounting tracefs at
 * TRACEFS_HOST_MOUNT first when it is not mounted (journalled before the
 * mount; the journal must be open). Returns 0, or -errno with the reason
 * in @err.
 */
int tracefs_host_dir(char *dir, size_t len, char *err, size_t errlen);

/**
 * tracefs_host_mounted_by_run() - 1 if tracefs_host_dir() mounted tracefs in
 * this process (it was not mounted before), else 0.
 */
int tracefs_host_mounted_by_run(void);

struct tracefs_instance;

/**
 * tracefs_host_instance() - a tracefs instance of its own named @name,
 * journalled (kind "tracefs-instance") before it is made, tracing off.
 * Returns 0 with @out and its journal id @jid, or -errno with the reason
 * in @err. tracefs must be mounted (tracefs_host_dir()).
 */
int tracefs_host_instance(const char *name, struct tracefs_instance **out, long *jid,
			  char *err, size_t errlen);
/** tracefs_host_instance_remove() - destroy @inst and close its journal entry. */
void tracefs_host_instance_remove(struct tracefs_instance *inst, long jid);
/**
 * tracefs_host_overruns() - events @inst's ring buffers dropped since it was
 * made, all CPUs summed (per_cpu/cpuN/stats "overrun:").
 */
long long tracefs_host_overruns(struct tracefs_instance *inst);

#endif
