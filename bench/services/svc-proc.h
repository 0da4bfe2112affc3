/* SPDX-License-Identifier: MIT */
/*
 * svc-proc.h - a service's processes on this machine (the host for backend
 * = native, the guest through its agent for qemu): its directory, its
 * server on a loopback port, and one run of its load generator per window.
 * On the host every process and the directory are journalled (gone after
 * kill -9 + `cvmbench restore`); in a guest they end with the VM.
 */
#ifndef CVMBENCH_SVC_PROC_H
#define CVMBENCH_SVC_PROC_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "svc-list.h"

struct svc_proc {
	const struct svc_info *svc;
	struct svc_params p;
	char dir[PATH_MAX];       /* cvmbench-svc-PID-N: everything the service writes */
	long dir_jid;
	pid_t server;             /* 0: none (or ended) */
	long server_jid;
	char addr[16];            /* the server's address: 127.0.0.1, or the guest's
				   * NIC's (SVC_GUEST_ADDR) for a generator on the host */
	int port;                 /* the server's port (the generator's target) */
	char user[32];            /* who the server runs as ("root", "postgres", ...) */
	char loadgen[PATH_MAX];   /* the load generator, resolved */
};

/* One window's outcome: the generator's stdout, wall time and exit. */
struct svc_window {
	char *out;                /* malloc'd, NUL-terminated; NULL if none */
	size_t len;
	long long wall_ns;        /* fork of the generator to its exit */
	int status;               /* waitpid() status */
};

/**
 * svc_proc_start() - make @svc's directory under @base (NULL: $TMPDIR or
 * /tmp), check it is on a real disk when the service writes (a tmpfs is
 * -EXDEV, the reason in @why: a skip), start its server and wait until it
 * answers. @loadgen_dir: where cvmload is (NULL: PATH). 0 or -errno with
 * @why; on failure nothing is left.
 */
int svc_proc_start(struct svc_proc *sp, const struct svc_info *svc,
		   const struct svc_params *p, const char *base, const char *loadgen_dir,
		   char *why, size_t len);

/**
 * svc_proc_start_at() - svc_proc_start() with the server on @addr:@port
 * (a guest's NIC for loadgen = host; @port 0: a free loopback port).
 */
int svc_proc_start_at(struct svc_proc *sp, const struct svc_info *svc,
		      const struct svc_params *p, const char *base, const char *loadgen_dir,
		      const char *addr, int port, char *why, size_t len);

/**
 * svc_proc_client() - the generator's side only (loadgen = host: the server
 * runs in a guest): @svc's directory on this machine (journalled, for the
 * generator's output) and its generator aimed at 127.0.0.1:@port. 0, or
 * -ENOENT (the generator is not here) or -errno, with @why.
 */
int svc_proc_client(struct svc_proc *sp, const struct svc_info *svc,
		    const struct svc_params *p, int port, const char *loadgen_dir,
		    char *why, size_t len);

/**
 * svc_proc_requests() - the requests nginx answered by its access log's
 * lines (nginx's own count, kept in the service's directory); -1 for
 * another server or no log.
 */
long svc_proc_requests(const struct svc_proc *sp);

/**
 * svc_proc_window() - one run of the load generator, at most @timeout_s
 * seconds (then killed: -ETIMEDOUT). 0 when it exited 0; else -errno with
 * @why (its stderr's last line). @w filled either way; svc_window_free().
 */
int svc_proc_window(struct svc_proc *sp, double timeout_s, struct svc_window *w,
		    char *why, size_t len);
void svc_window_free(struct svc_window *w);

/** svc_proc_alive() - 1 while the server runs (or there is none), else 0. */
int svc_proc_alive(struct svc_proc *sp);

/** svc_proc_stop() - end the server, remove the directory, close their entries. */
void svc_proc_stop(struct svc_proc *sp);

/**
 * svc_loadgen_found() - whether @svc's load generator alone is here (for a
 * server elsewhere): 1, or 0 with @why as svc_found() says it.
 */
int svc_loadgen_found(const struct svc_info *svc, const char *loadgen_dir, char *why,
		      size_t len);

/**
 * svc_found() - whether @svc's programs are here (@loadgen_dir as above):
 * 1, or 0 with @why naming the missing program and its Debian package.
 */
int svc_found(const struct svc_info *svc, const char *loadgen_dir, char *why, size_t len);

#endif
