// SPDX-License-Identifier: MIT
/*
 * agent-client.c - drive an agent (agent-client.h): requests out, rows
 * into the store the moment they arrive, one ack per request.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "agent-client.h"

static int loop_write(void *ctx, const char *line, size_t len)
{
	char copy[AGENT_LINE_MAX];

	if (!len || len > sizeof(copy) || line[len - 1] != '\n')
		return -EPROTO;
	memcpy(copy, line, len - 1);
	copy[len - 1] = '\0';
	return agent_client_input(ctx, copy);
}

int agent_client_loopback(struct agent_client *c, const struct probe_target *target)
{
	char who[64];

	snprintf(who, sizeof(who), "in-process (cvmbench pid %d)", (int)getpid());
	c->to_fd = c->from_fd = -1;
	c->loop = agent_new(target, who, loop_write, c);
	return c->loop ? 0 : -ENOMEM;
}

void agent_client_fds(struct agent_client *c, int to_fd, int from_fd)
{
	c->loop = NULL;
	c->to_fd = to_fd;
	c->from_fd = from_fd;
	c->len = 0;
}

static int bad_line(struct agent_client *c, const char *why, const char *line)
{
	snprintf(c->error, sizeof(c->error), "agent: %s: '%.160s'", why, line);
	return -EPROTO;
}

int agent_client_input(struct agent_client *c, const char *line)
{
	struct agent_row r;
	struct sink s = c->base;

	if (agent_row_decode(line, &r))
		return bad_line(c, "malformed line", line);
	if (r.kind == AGENT_ROW_ACK) {
		c->ack = r;
		c->have_ack = 1;
		return 0;
	}
	s.probe = r.probe;
	s.invocation_id = 0;
	if (r.w == PROBE_WINDOW_INVOCATION) {
		s.invocation_id = c->inv_id ? c->inv_id(c->inv_ctx, r.seq) : 0;
		if (s.invocation_id <= 0 && r.kind != AGENT_ROW_SKIP)
			return bad_line(c, "a row of an unknown invocation", line);
	}
	if (r.kind == AGENT_ROW_METRIC)
		return sink_metric(&s, r.name, r.value, r.unit);
	if (r.kind == AGENT_ROW_SKIP)
		return sink_skip(&s, r.text);
	return sink_note(&s, r.name, r.text);
}

static int write_all(int fd, const char *p, size_t len)
{
	while (len) {
		ssize_t n = write(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -EPIPE;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read and store lines from the descriptor until an ack came. */
static int read_until_ack(struct agent_client *c)
{
	char *nl;
	ssize_t n;
	int err;

	while (!c->have_ack) {
		nl = memchr(c->buf, '\n', c->len);
		if (nl) {
			*nl = '\0';
			err = agent_client_input(c, c->buf);
			c->len -= (size_t)(nl + 1 - c->buf);
			memmove(c->buf, nl + 1, c->len);
			if (err)
				return err;
			continue;
		}
		if (c->len == sizeof(c->buf))
			return bad_line(c, "line too long", c->buf);
		n = read(c->from_fd, c->buf + c->len, sizeof(c->buf) - c->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			snprintf(c->error, sizeof(c->error), "%s", n == 0 ?
				 "agent closed its channel" : errno == EAGAIN ?
				 "no line from the agent within the channel's timeout" :
				 "cannot read the agent's channel");
			return -EPIPE;
		}
		c->len += (size_t)n;
	}
	return 0;
}

static int ack_matches(const struct agent_client *c, const struct agent_req *q)
{
	const struct agent_row *a = &c->ack;

	return a->op == q->op && !strcmp(a->probe, q->probe) &&
	       (q->op == AGENT_OPEN || q->op == AGENT_CLOSE ||
		(a->w == q->w && a->seq == q->seq));
}

int agent_client_call(struct agent_client *c, const struct agent_req *q)
{
	char line[AGENT_LINE_MAX];
	int n = agent_req_encode(q, line, sizeof(line)), err;

	if (n < 0) {
		snprintf(c->error, sizeof(c->error), "cannot encode a request for %s", q->probe);
		return n;
	}
	c->have_ack = 0;
	if (c->loop) {
		line[n - 1] = '\0';
		err = agent_handle(c->loop, line);
	} else {
		err = write_all(c->to_fd, line, (size_t)n) ?: read_until_ack(c);
	}
	if (!err && !c->have_ack)
		return bad_line(c, "no ack", line);
	if (!err && !ack_matches(c, q))
		return bad_line(c, "ack of another request", line);
	if (err && !c->error[0])
		snprintf(c->error, sizeof(c->error), "agent: %s", strerror(-err));
	return err ? err : c->ack.err;
}

void agent_client_close(struct agent_client *c)
{
	agent_free(c->loop);
	c->loop = NULL;
}
