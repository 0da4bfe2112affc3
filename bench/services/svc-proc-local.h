/* SPDX-License-Identifier: MIT */
/*
 * svc-proc-local.h - between svc-proc.c (processes, the directory, windows)
 * and svc-server.c (how each server is configured, started and awaited).
 */
#ifndef CVMBENCH_SVC_PROC_LOCAL_H
#define CVMBENCH_SVC_PROC_LOCAL_H

#include <sys/types.h>

#include "svc-proc.h"

/* A child's identity: -1 = unchanged (root), else setgid/setuid before exec. */
struct svc_cred {
	uid_t uid;
	gid_t gid;
};

/*
 * Fork @argv with stdout to @out and stderr to @err (files, created; NULL:
 * /dev/null), as @cred, dying with this process: its pid, or -errno.
 */
pid_t svc_spawn(char *const *argv, const char *out, const char *err,
		const struct svc_cred *cred);
/* Journal child @p (host; nothing in a guest): the entry id, 0, or -errno. */
long svc_journal_process(pid_t p);
void svc_journal_forget(long id);
/* Wait for child @p at most @timeout_s (then SIGKILL): its status or -ETIMEDOUT. */
int svc_wait(pid_t p, double timeout_s, int *status);
/* @name in PATH (and @extra, a ':' list) into @path: 0 or -ENOENT. */
int svc_which(const char *name, const char *extra, char *path, size_t len);
/* Where servers live beyond PATH: /usr/sbin, /sbin and every PostgreSQL's
 * /usr/lib/postgresql/N/bin, the newest first (Debian installs one per
 * major version). */
const char *svc_sbin_dirs(void);

/* Configure and start @sp's server and wait until it answers: 0 or -errno + @why. */
int svc_server_start(struct svc_proc *sp, char *why, size_t len);

#endif
