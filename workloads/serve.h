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

#endif
