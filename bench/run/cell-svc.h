/* SPDX-License-Identifier: MIT */
/*
 * cell-svc.h - a service cell (the system suite: `workload` names a
 * service, bench/services/svc-list.h) inside cell-run.c: its server
 * started once per cell, each call one load-generator window, each
 * window's raw output and parsed metrics stored against its invocation row.
 */
#ifndef CVMBENCH_CELL_SVC_H
#define CVMBENCH_CELL_SVC_H

#include <stdint.h>
#include <sys/types.h>

#include "backend.h"
#include "cell-ctx.h"
#include "instance.h"

struct svc_cell;

/** svc_cell_is() - whether @c's workload is a service. */
int svc_cell_is(const struct cell *c);

/**
 * svc_cell_runnable() - whether a service cell can run on its backend
 * here, before anything starts: 1, or 0 with the skip's reason in @why.
 */
int svc_cell_runnable(const struct cell *c, char *why, size_t len);

/**
 * svc_cell_begin() - start @ctx's service: on this machine (native), in
 * VM 0 of @be's booted guests through its agent, or in a container of the
 * cell (runc, crun) through the agent that is its process. *@pid: the
 * process the probes watch (the server, here or in the container, or the
 * VM's QEMU; 0: none). 0, BACKEND_SKIP (the reason in @why: a tmpfs, a
 * missing program) or -errno with @why.
 */
int svc_cell_begin(struct cell_ctx *ctx, const struct backend_ops *be, void *be_state,
		   struct svc_cell **out, pid_t *pid, char *why, size_t len);

/** svc_cell_call() - one window (call @seq): the generator's run into @r. */
int svc_cell_call(struct svc_cell *s, long seq, struct invoke_result *r);

/**
 * svc_cell_store() - the last window's raw output (table service_output)
 * and, for a measured one, its metrics (svc_parse()) against invocation
 * @inv_id. 0, or -EIO with the cell's error stored (a parse failure).
 */
int svc_cell_store(struct svc_cell *s, int64_t inv_id, int measured);

/** svc_cell_alive() - 0 while the server runs, else -EIO with its error stored. */
int svc_cell_alive(struct svc_cell *s);

/** svc_cell_end() - stop the server, remove its files; NULL is fine. */
void svc_cell_end(struct svc_cell *s);

#endif
