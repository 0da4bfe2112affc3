/* SPDX-License-Identifier: MIT */
/*
 * cell-svc-ct.h - the container of a service cell on runc or crun
 * (cell-svc.c speaks the agent's `svc` lines to it, as to a guest's).
 */
#ifndef CVMBENCH_CELL_SVC_CT_H
#define CVMBENCH_CELL_SVC_CT_H

#include <stddef.h>
#include <sys/types.h>

#include "backend.h"
#include "cell-ctx.h"
#include "instance.h"
#include "svc-list.h"

/**
 * svc_ct_runnable() - can service @svc of cell @c run in a container here?
 * 1, or 0 with the skip's reason in @why.
 */
int svc_ct_runnable(const struct cell *c, const struct svc_info *svc, char *why, size_t len);

/**
 * svc_ct_open() - start @ctx's service container through @be's spawn():
 * @in's pid (the runtime) and the agent's stdin (to_fd) and stdout
 * (from_fd). 0, or -errno with @why and nothing left.
 */
int svc_ct_open(const struct cell_ctx *ctx, const struct backend_ops *be, void *state,
		struct instance *in, char *why, size_t len);

/** svc_ct_close() - end the container and remove it (backend_close()). */
void svc_ct_close(const struct backend_ops *be, void *state, struct instance *in);

/**
 * svc_ct_server() - the pid on this machine of the server called @server
 * (its comm: "nginx", "redis-server", "postgres") that the agent in
 * @in's container started, or 0 when there is none.
 */
pid_t svc_ct_server(const struct instance *in, const char *server);

#endif
