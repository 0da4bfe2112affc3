/* SPDX-License-Identifier: MIT */
/*
 * agent-client.h - cvmbench's side of the agent protocol: send a request,
 * write each row that comes back into the store through the sink as it
 * arrives, return the request's ack. The link is either an agent in this
 * process (the native and container backends: the same lines, no copy
 * through the kernel, no wake-up of another CPU inside a probe window) or,
 * for a guest, a descriptor pair (a virtio-serial port).
 */
#ifndef CVMBENCH_AGENT_CLIENT_H
#define CVMBENCH_AGENT_CLIENT_H

#include <stdint.h>

#include "agent-proto.h"
#include "agent.h"
#include "sink.h"

/* The database id of invocation @seq of the cell, or <= 0 if unknown. */
typedef int64_t (*agent_inv_id_fn)(void *ctx, long seq);

struct agent_client {
	struct sink base;             /* db, run and cell of the rows */
	agent_inv_id_fn inv_id;
	void *inv_ctx;
	struct agent *loop;           /* in-process agent, or NULL */
	int to_fd, from_fd;           /* else the descriptors */
	char buf[AGENT_LINE_MAX];     /* bytes read past the last line */
	size_t len;
	struct agent_row ack;         /* the last ack */
	int have_ack;
	char error[256];              /* protocol error, for messages */
};

/**
 * agent_client_loopback() - connect @c to a new in-process agent whose
 * probes see @target. 0 or -ENOMEM.
 */
int agent_client_loopback(struct agent_client *c, const struct probe_target *target);
/** agent_client_fds() - connect @c to an agent behind two descriptors. */
void agent_client_fds(struct agent_client *c, int to_fd, int from_fd);
/**
 * agent_client_input() - one row line (without '\n') from the agent: a
 * metric, skip or note goes to the store now; an ack is kept for the
 * request waiting for it. 0 or -EPROTO (with c->error).
 */
int agent_client_input(struct agent_client *c, const char *line);
/**
 * agent_client_call() - send @q, store its rows, wait for its ack. Returns
 * the ack's result (0 or the agent's -errno, message in c->ack.text), or
 * -EPROTO / -EPIPE with c->error when the link failed.
 */
int agent_client_call(struct agent_client *c, const struct agent_req *q);
/** agent_client_close() - end the in-process agent (closing its probes). */
void agent_client_close(struct agent_client *c);

#endif
