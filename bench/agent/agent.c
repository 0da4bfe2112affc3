// SPDX-License-Identifier: MIT
/*
 * agent.c - run the instance-side probes on request (agent.h). Each probe
 * is bracketed by probe-window.c, so a failed start or stop is a skip row
 * of that window and its numbers are never sent.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "agent-proto.h"
#include "agent.h"
#include "probe-window.h"
#include "sink.h"

#define AGENT_MAX_PROBES 16

struct agent {
	const struct probe_target *target;
	char who[128];
	agent_write_fn out;
	void *ctx;
	struct probe probes[AGENT_MAX_PROBES];
	int nprobes;
};

static int send_row(struct agent *a, const struct agent_row *r)
{
	char line[AGENT_LINE_MAX];
	int n = agent_row_encode(r, line, sizeof(line));

	return n < 0 ? n : a->out(a->ctx, line, (size_t)n);
}

/* The window a sink stands for: invocation_id is the window's SEQ + 1. */
static void agent_row_init(struct sink *s, struct agent_row *r, enum agent_row_kind kind)
{
	memset(r, 0, sizeof(*r));
	r->kind = kind;
	snprintf(r->probe, sizeof(r->probe), "%s", s->probe);
	r->w = s->invocation_id ? PROBE_WINDOW_INVOCATION : PROBE_WINDOW_CELL;
	r->seq = s->invocation_id ? (long)(s->invocation_id - 1) : 0;
}

static int row_metric(struct sink *s, const char *name, double value, const char *unit)
{
	struct agent_row r;

	agent_row_init(s, &r, AGENT_ROW_METRIC);
	snprintf(r.name, sizeof(r.name), "%s", name);
	snprintf(r.unit, sizeof(r.unit), "%s", unit);
	r.value = value;
	return send_row(s->ctx, &r);
}

static int row_skip(struct sink *s, const char *reason)
{
	struct agent_row r;

	agent_row_init(s, &r, AGENT_ROW_SKIP);
	snprintf(r.text, sizeof(r.text), "%s", reason[0] ? reason : "no reason given");
	return send_row(s->ctx, &r);
}

static int row_note(struct sink *s, const char *key, const char *value)
{
	struct agent_row r;

	agent_row_init(s, &r, AGENT_ROW_NOTE);
	snprintf(r.name, sizeof(r.name), "%s", key);
	snprintf(r.text, sizeof(r.text), "%s", value);
	return send_row(s->ctx, &r);
}

static const struct sink_ops agent_sink_ops = {
	.metric = row_metric, .skip = row_skip, .note = row_note,
};

static void window_sink(struct agent *a, const char *probe, enum probe_window w, long seq,
			struct sink *s)
{
	memset(s, 0, sizeof(*s));
	s->probe = probe;
	s->invocation_id = w == PROBE_WINDOW_INVOCATION ? seq + 1 : 0;
	s->ops = &agent_sink_ops;
	s->ctx = a;
}

int agent_send_line(int fd, const char *text)
{
	char line[AGENT_LINE_MAX + 2];
	int n = snprintf(line, sizeof(line), "%s\n", text);

	if (n < 0)
		return -EINVAL;
	if ((size_t)n >= sizeof(line)) {        /* cut, but still one line */
		n = (int)sizeof(line) - 1;
		line[n - 1] = '\n';
	}
	return agent_fd_writer(&fd, line, (size_t)n);
}

int agent_fd_writer(void *ctx, const char *line, size_t len)
{
	int fd = *(int *)ctx;

	while (len) {
		ssize_t n = write(fd, line, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		line += n;
		len -= (size_t)n;
	}
	return 0;
}

struct agent *agent_new(const struct probe_target *target, const char *who,
			agent_write_fn out, void *ctx)
{
	struct agent *a = calloc(1, sizeof(*a));

	if (!a)
		return NULL;
	a->target = target;
	snprintf(a->who, sizeof(a->who), "%s", who);
	a->out = out;
	a->ctx = ctx;
	return a;
}

static struct probe *find_open(struct agent *a, const char *name)
{
	int i;

	for (i = 0; i < a->nprobes; i++)
		if (!strcmp(a->probes[i].ops->name, name))
			return &a->probes[i];
	return NULL;
}

static int ack(struct agent *a, const struct agent_req *q, int err, const char *msg)
{
	struct agent_row r = { .kind = AGENT_ROW_ACK, .op = q->op, .w = q->w,
			       .seq = q->seq, .err = err };

	snprintf(r.probe, sizeof(r.probe), "%s", q->probe);
	snprintf(r.text, sizeof(r.text), "%s", msg ? msg : "");
	return send_row(a, &r);
}

static int open_probe(struct agent *a, const struct agent_req *q, struct sink *s)
{
	const struct probe_ops *ops = probe_find(q->probe);
	struct probe *p = &a->probes[a->nprobes];
	char why[256];
	int err;

	if (find_open(a, q->probe))
		return ack(a, q, -EALREADY, "already open");
	if (!probe_supported(ops, why, sizeof(why)))
		return row_skip(s, why) ?: ack(a, q, -ENOTSUP, why);
	if (ops->side != PROBE_INSTANCE)
		return ack(a, q, -EINVAL, "a host probe runs in cvmbench, not in the agent");
	if (a->nprobes == AGENT_MAX_PROBES)
		return ack(a, q, -ENOSPC, "too many probes");
	memset(p, 0, sizeof(*p));
	p->ops = ops;
	p->target = a->target;
	err = ops->open ? ops->open(p) : 0;
	if (err) {
		snprintf(why, sizeof(why), "%s", p->error[0] ? p->error : "could not open");
		return row_skip(s, why) ?: ack(a, q, err < 0 ? err : -EIO, why);
	}
	a->nprobes++;
	return row_note(s, "agent", a->who) ?: ack(a, q, 0, NULL);
}

static int close_probe(struct agent *a, const struct agent_req *q)
{
	struct probe *p = find_open(a, q->probe);
	int i;

	if (!p)
		return ack(a, q, -ENOENT, "probe not open");
	if (p->ops->close)
		p->ops->close(p);
	i = (int)(p - a->probes);
	memmove(p, p + 1, (size_t)(a->nprobes - i - 1) * sizeof(*p));
	a->nprobes--;
	return ack(a, q, 0, NULL);
}

static int run_window(struct agent *a, const struct agent_req *q, struct sink *s)
{
	struct probe *p = find_open(a, q->probe);
	int err;

	if (!p)
		return ack(a, q, -ENOENT, "probe not open");
	if (q->op == AGENT_START)
		err = probe_window_start(p, q->w, q->seq, s);
	else if (q->op == AGENT_STOP)
		err = probe_window_stop(p, q->w, q->seq, s);
	else
		err = probe_window_emit(p, q->w, q->seq, s);
	if (!err)
		return ack(a, q, 0, NULL);
	err = err < 0 ? err : -EIO;
	if (q->op != AGENT_EMIT)
		return ack(a, q, err, "window skipped");
	return ack(a, q, err, p->error[0] ? p->error : "could not emit its rows");
}

int agent_handle(struct agent *a, const char *line)
{
	struct agent_req q;
	struct sink s;
	char msg[200];

	if (agent_req_decode(line, &q)) {
		memset(&q, 0, sizeof(q));
		snprintf(q.probe, sizeof(q.probe), "-");
		snprintf(msg, sizeof(msg), "cannot parse request '%.120s'", line);
		return ack(a, &q, -EPROTO, msg) ?: -EPROTO;
	}
	window_sink(a, q.probe, q.w ? q.w : PROBE_WINDOW_CELL, q.seq, &s);
	switch (q.op) {
	case AGENT_OPEN:
		return open_probe(a, &q, &s);
	case AGENT_CLOSE:
		return close_probe(a, &q);
	default:
		return run_window(a, &q, &s);
	}
}

int agent_read_lines(int fd, agent_line_fn fn, void *ctx, int eof_waits)
{
	char buf[AGENT_LINE_MAX], *nl;
	size_t len = 0;
	ssize_t n;
	int err;

	for (;;) {
		while ((nl = memchr(buf, '\n', len))) {
			*nl = '\0';
			err = fn(ctx, buf);
			if (err)
				return err;
			len -= (size_t)(nl + 1 - buf);
			memmove(buf, nl + 1, len);
		}
		if (len == sizeof(buf))
			return -EPROTO;
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 0 && eof_waits) {
			usleep(10000);    /* a virtio-serial port whose host end is away */
			continue;
		}
		if (n <= 0)
			return n < 0 ? -errno : 0;
		len += (size_t)n;
	}
}

/* A request the agent could not parse has had its ack: go on. */
static int serve_line(void *ctx, const char *line)
{
	int err = agent_handle(ctx, line);

	return err == -EPROTO ? 0 : err;
}

int agent_serve(struct agent *a, int in_fd)
{
	return agent_read_lines(in_fd, serve_line, a, 0);
}

void agent_free(struct agent *a)
{
	int i;

	if (!a)
		return;
	for (i = a->nprobes - 1; i >= 0; i--)
		if (a->probes[i].ops->close)
			a->probes[i].ops->close(&a->probes[i]);
	free(a);
}
