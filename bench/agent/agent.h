/* SPDX-License-Identifier: MIT */
/*
 * agent.h - the instance side of the agent protocol (agent-proto.h): it
 * opens, starts, stops and emits the instance-side probes on request and
 * writes their rows as lines the moment they are made. It never sees the
 * store: the same module is what a static `cvmbench-agent` runs inside a
 * guest (instance-side probes, environment detection and bench/lib only).
 * For the native and container backends cvmbench runs it in-process
 * (agent-client.h, agent_client_loopback()), through the same lines.
 */
#ifndef CVMBENCH_AGENT_H
#define CVMBENCH_AGENT_H

#include <stddef.h>

#include "probe.h"

struct agent;

/* Where the agent's lines go: 0 or -errno. */
typedef int (*agent_write_fn)(void *ctx, const char *line, size_t len);

/** agent_send_line() - write @text and a newline to @fd (at most AGENT_LINE_MAX). 0 or -errno. */
int agent_send_line(int fd, const char *text);
/** agent_fd_writer() - an agent_write_fn writing to the descriptor *(int *)@ctx. */
int agent_fd_writer(void *ctx, const char *line, size_t len);

/**
 * agent_new() - an agent whose probes see @target, writing through @out.
 * @who is noted once per opened probe (note P cell 0 agent WHO), so every
 * cell says which agent measured it. NULL when out of memory.
 */
struct agent *agent_new(const struct probe_target *target, const char *who,
			agent_write_fn out, void *ctx);
/**
 * agent_handle() - one request line (without '\n'): its rows, then its
 * ack. Returns 0 when the request was understood (whatever its ack says),
 * -EPROTO when it could not be parsed (an ack from probe "-" says so), or
 * the writer's -errno.
 */
int agent_handle(struct agent *a, const char *line);
/* One line (without '\n'); non-zero ends agent_read_lines() with it. */
typedef int (*agent_line_fn)(void *ctx, const char *line);
/**
 * agent_read_lines() - call @fn for every line read from @fd until @fn
 * returns non-zero (that value), end of file (0; with @eof_waits, end of
 * file is waited out: a virtio-serial port whose host is not connected),
 * a read error (-errno) or a line longer than AGENT_LINE_MAX (-EPROTO).
 */
int agent_read_lines(int fd, agent_line_fn fn, void *ctx, int eof_waits);
/** agent_serve() - agent_handle() every line of @in_fd until end of file. */
int agent_serve(struct agent *a, int in_fd);
/** agent_free() - close every probe still open, free @a. */
void agent_free(struct agent *a);

#endif
