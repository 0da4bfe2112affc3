/* SPDX-License-Identifier: MIT */
/* serve.h - `cvmfn serve`: a warm instance answering the harness. */
#ifndef CVMFN_SERVE_H
#define CVMFN_SERVE_H

#include "workload.h"

/**
 * serve_loop() - speak protocol.h on @in_fd / @out_fd until quit or EOF,
 * digesting the calls that @policy selects.
 */
int serve_loop(const struct workload_ops *ops, const struct wl_params *params,
	       const struct wl_digest_policy *policy, int in_fd, int out_fd);

/* What a caller adds to serve_instance(): all optional. */
struct serve_hooks {
	const char *ready_extra;  /* appended to the ready line (" fork_ns=N ...") */
	/* after the first call's reply was written: its fn_ns */
	void (*first_call)(void *ctx, long long fn_ns);
	void *ctx;
};

/**
 * serve_instance() - serve_loop() on an instance already open (@init_ns:
 * what its init took here), with @hooks (NULL = none); it does not close
 * @inst. CVMFN_EXIT_OK or CVMFN_EXIT_FAILED.
 */
int serve_instance(struct wl_instance *inst, const struct wl_digest_policy *policy,
		   int in_fd, int out_fd, long long init_ns, const struct serve_hooks *hooks);

/** serve_refuse() - the "error MESSAGE" greeting (@msg flattened to one line). */
void serve_refuse(char *msg, int out_fd);

#endif
