/* SPDX-License-Identifier: MIT */
/*
 * instance.h - the harness side of the warm-instance protocol
 * (workloads/protocol.h): a running cvmfn reached through two descriptors,
 * whatever started it (a process, a container, a guest).
 */
#ifndef CVMBENCH_INSTANCE_H
#define CVMBENCH_INSTANCE_H

#include <sys/types.h>

#include "digest.h"

struct instance {
	pid_t pid;                /* the process cvmbench started, or -1 */
	int pid_shared;           /* pid is a VM's QEMU or a seed's child: closing
				   neither waits nor kills */
	int to_fd;                /* requests */
	int from_fd;              /* replies */
	char buf[1024];           /* bytes read past the last reply */
	size_t len;
	long long spawn_ns;       /* CLOCK_MONOTONIC when it was started */
	long long start_ns;       /* spawn to ready */
	long long init_ns;        /* init inside cvmfn */
	long rss_kb, pss_kb;
	int threads;
	char runtime[32];         /* the ready line's runtime= ("python3.11.2"); "" = C */
	long long interp_ns;      /* a Python twin's interpreter start (ready line), or -1 */
	long long import_ns;      /* its imports of the function and libraries, or -1 */
	void *priv;               /* the backend's own state (container id, ...) */
	char error[512];
};

struct invoke_result {
	long long latency_ns;     /* request written to reply read */
	long long fn_ns;          /* inside cvmfn, without the output hash */
	long long digest_ns;      /* hashing the output; < 0: not hashed */
	int ok;
	char digest[DIGEST_HEX_LEN];  /* "" when the call was not hashed */
	char error[512];
};

/** instance_handshake() - wait for "ready" (or "error"). 0 or -errno. */
int instance_handshake(struct instance *in, double timeout_s);
/** instance_invoke() - one call; r->ok says whether the function succeeded. */
int instance_invoke(struct instance *in, long seq, double timeout_s,
		    struct invoke_result *r);
/** instance_close() - ask it to quit, wait, and close the descriptors. */
void instance_close(struct instance *in, double timeout_s);

#endif
