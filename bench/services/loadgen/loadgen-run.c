// SPDX-License-Identifier: MIT
/*
 * loadgen-run.c - the open-loop engine of cvmload. The connections are
 * made before t0 (outside the schedule). Request i is due at
 * t0 + i/R on connection i mod C; the loop sends every due request whose
 * connection is free, sleeps in epoll until the next due time (a timerfd,
 * CLOCK_MONOTONIC, absolute, timer slack 1 ns) or a socket event, and
 * stamps each response's end when its last byte is read. A connection that
 * fails is made again when its next request is due; that request fails if
 * it cannot be. After the last due time the loop waits --timeout seconds
 * for answers; what is still unanswered then counts as timed out.
 */
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "clock.h"
#include "loadgen-http.h"
#include "loadgen-run.h"

enum conn_state { C_CLOSED, C_CONNECTING, C_IDLE, C_BUSY };

struct conn {
	int fd;
	enum conn_state st;
	long long next;     /* its next request to send */
	long long cur;      /* the request in flight, or -1 */
	size_t woff;        /* bytes of the request written */
	uint32_t events;    /* what epoll watches for it (no epoll_ctl to set it again) */
	struct http_resp resp;
};

struct engine {
	const struct loadgen_opts *o;
	struct loadgen_result *r;
	struct conn *c;
	int ep, tfd;
	char text[1400];    /* the request, the same every time */
	size_t text_len;
	int64_t armed;      /* the timer's expiry as last set (none set again) */
	long long done;     /* requests with a final status */
};

#define TIMER_KEY UINT64_MAX

/* CLOCK_MONOTONIC, ns: the harness's one clock (lib/clock.h) */
static int64_t now_ns(void)
{
	return clock_now_ns();
}

int64_t loadgen_intended_ns(const struct loadgen_result *r, long long i)
{
	return r->t0_ns + (int64_t)((double)i * r->step_ns);
}

static void finish(struct engine *e, long long i, int status, int64_t t)
{
	struct loadgen_req *q;

	if (i < 0 || e->r->req[i].status != REQ_PENDING)
		return;
	q = &e->r->req[i];
	q->status = status;
	if (status == REQ_OK || status == REQ_ERR_STATUS)
		q->end_ns = t;
	e->done++;
}

static void conn_close(struct engine *e, struct conn *c)
{
	if (c->fd >= 0) {
		epoll_ctl(e->ep, EPOLL_CTL_DEL, c->fd, NULL);
		close(c->fd);
	}
	c->fd = -1;
	c->st = C_CLOSED;
	c->cur = -1;
}

/* The connection failed: its request in flight fails with @status. */
static void conn_fail(struct engine *e, struct conn *c, int status)
{
	finish(e, c->cur, status, 0);
	conn_close(e, c);
}

static void conn_watch(struct engine *e, struct conn *c, uint32_t events)
{
	struct epoll_event ev = { .events = events, .data.u64 = (uint64_t)(c - e->c) };

	if (c->events == events)
		return;
	epoll_ctl(e->ep, EPOLL_CTL_MOD, c->fd, &ev);
	c->events = events;
}

/* Write (the rest of) the request; stamp it when the first byte goes. */
static void conn_write(struct engine *e, struct conn *c)
{
	ssize_t n;

	if (c->woff == 0)
		e->r->req[c->cur].sent_ns = now_ns();
	n = send(c->fd, e->text + c->woff, e->text_len - c->woff, MSG_NOSIGNAL);
	if (n < 0 && errno != EAGAIN) {
		conn_fail(e, c, REQ_ERR_CONNECT);
		return;
	}
	c->woff += n > 0 ? (size_t)n : 0;
	conn_watch(e, c, c->woff < e->text_len ? EPOLLIN | EPOLLOUT : EPOLLIN);
}

/* A non-blocking connect: 0 (connected or under way) or -1. */
static int conn_open(struct engine *e, struct conn *c)
{
	struct epoll_event ev = { .events = EPOLLOUT, .data.u64 = (uint64_t)(c - e->c) };
	int one = 1;

	c->fd = socket(e->o->addr.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		return -1;
	setsockopt(c->fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (epoll_ctl(e->ep, EPOLL_CTL_ADD, c->fd, &ev) ||
	    (connect(c->fd, (const struct sockaddr *)&e->o->addr, e->o->addrlen) &&
	     errno != EINPROGRESS)) {
		close(c->fd);
		c->fd = -1;
		return -1;
	}
	c->st = C_CONNECTING;
	c->events = EPOLLOUT;
	http_resp_reset(&c->resp);
	return 0;
}

/* Take the connection's next request: send it, or connect first. */
static void conn_start(struct engine *e, struct conn *c)
{
	c->cur = c->next;
	c->next += e->o->connections;
	c->woff = 0;
	if (c->st == C_CLOSED) {
		if (conn_open(e, c))
			conn_fail(e, c, REQ_ERR_CONNECT);
		return;
	}
	c->st = C_BUSY;
	http_resp_reset(&c->resp);
	conn_write(e, c);
}

/* Start every due request whose connection is free; the next due time of
 * a free connection after that (INT64_MAX: none). */
static int64_t dispatch_due(struct engine *e, int64_t t)
{
	int64_t due, next = INT64_MAX;
	struct conn *c;
	int i;

	for (i = 0; i < e->o->connections; i++) {
		c = &e->c[i];
		while ((c->st == C_IDLE || c->st == C_CLOSED) && c->next < e->r->n_total) {
			due = loadgen_intended_ns(e->r, c->next);
			if (due > t) {
				next = due < next ? due : next;
				break;
			}
			conn_start(e, c);
		}
	}
	return next;
}

/* A complete response: stamp it, and free the connection (or close it). */
static void conn_answered(struct engine *e, struct conn *c, int64_t t, size_t extra)
{
	finish(e, c->cur, c->resp.status / 100 == 2 ? REQ_OK : REQ_ERR_STATUS, t);
	c->cur = -1;
	if (extra || c->resp.close) {
		conn_close(e, c);
		return;
	}
	c->st = C_IDLE;
	http_resp_reset(&c->resp);
}

static void conn_read(struct engine *e, struct conn *c)
{
	char buf[65536];
	size_t used;
	ssize_t n;
	int rc;

	for (;;) {
		n = recv(c->fd, buf, sizeof(buf), 0);
		if (n < 0 && errno == EAGAIN)
			return;
		if (n <= 0 || c->st != C_BUSY) {
			conn_fail(e, c, REQ_ERR_READ);  /* closed, reset, or bytes unasked for */
			return;
		}
		rc = http_resp_feed(&c->resp, buf, (size_t)n, &used);
		if (rc < 0) {
			conn_fail(e, c, REQ_ERR_READ);
			return;
		}
		if (rc > 0) {
			conn_answered(e, c, now_ns(), (size_t)n - used);
			return;
		}
	}
}

static void conn_event(struct engine *e, struct conn *c, uint32_t ev)
{
	int soerr = 0;
	socklen_t len = sizeof(soerr);

	if (c->st == C_CONNECTING) {
		getsockopt(c->fd, SOL_SOCKET, SO_ERROR, &soerr, &len);
		if (soerr || (ev & (EPOLLERR | EPOLLHUP))) {
			conn_fail(e, c, REQ_ERR_CONNECT);
			return;
		}
		c->st = c->cur >= 0 ? C_BUSY : C_IDLE;
		if (c->cur >= 0)
			conn_write(e, c);
		else
			conn_watch(e, c, EPOLLIN);
		return;
	}
	if ((ev & EPOLLOUT) && c->st == C_BUSY && c->woff < e->text_len)
		conn_write(e, c);
	if ((ev & (EPOLLIN | EPOLLERR | EPOLLHUP)) && c->fd >= 0)
		conn_read(e, c);
}

static void timer_arm(struct engine *e, int64_t when)
{
	struct itimerspec its = { .it_value = { when / 1000000000, when % 1000000000 } };

	if (when == e->armed)
		return;
	timerfd_settime(e->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	e->armed = when;
}

/* Wait for events (or the timer) and handle them. */
static void engine_wait(struct engine *e)
{
	struct epoll_event ev[256];
	uint64_t ticks;
	int i, n = epoll_wait(e->ep, ev, 256, -1);

	for (i = 0; i < n; i++) {
		if (ev[i].data.u64 == TIMER_KEY) {
			if (read(e->tfd, &ticks, sizeof(ticks)) < 0)
				continue;  /* EAGAIN: already read */
			continue;
		}
		if (e->c[ev[i].data.u64].fd >= 0)
			conn_event(e, &e->c[ev[i].data.u64], ev[i].events);
	}
}

/* Make every connection before t0, for at most a second; one that fails
 * is made again when its first request is due. */
static void engine_connect(struct engine *e)
{
	int64_t until = now_ns() + 1000000000;
	int i, open;

	for (i = 0; i < e->o->connections; i++)
		conn_open(e, &e->c[i]);
	do {
		for (open = 0, i = 0; i < e->o->connections; i++)
			open += e->c[i].st == C_CONNECTING;
		if (!open)
			break;
		timer_arm(e, until);
		engine_wait(e);
	} while (now_ns() < until);
	for (i = 0; i < e->o->connections; i++)
		if (e->c[i].st == C_CONNECTING)
			conn_close(e, &e->c[i]);
}

/* The schedule from t0 to the last due time plus the timeout. */
static void engine_loop(struct engine *e)
{
	struct loadgen_result *r = e->r;
	int64_t end = loadgen_intended_ns(r, r->n_total - 1) +
		      (int64_t)(e->o->timeout * 1e9);
	int64_t t = now_ns(), due;
	long long i;

	while (e->done < r->n_total && t < end) {
		due = dispatch_due(e, t);
		timer_arm(e, due < end ? due : end);
		engine_wait(e);
		t = now_ns();
	}
	for (i = 0; i < r->n_total; i++)
		finish(e, i, REQ_ERR_TIMEOUT, 0);
}

static int engine_init(struct engine *e, const struct loadgen_opts *o,
		       struct loadgen_result *r, char *err, size_t errlen)
{
	struct epoll_event ev = { .events = EPOLLIN, .data.u64 = TIMER_KEY };
	struct rlimit rl;
	int i;

	memset(e, 0, sizeof(*e));
	e->o = o;
	e->r = r;
	e->text_len = snprintf(e->text, sizeof(e->text), "GET %s HTTP/1.1\r\nHost: %s\r\n"
			       "User-Agent: cvmload\r\nAccept: */*\r\n\r\n", o->path, o->host);
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < (rlim_t)o->connections + 16) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	prctl(PR_SET_TIMERSLACK, 1UL);
	e->c = calloc(o->connections, sizeof(*e->c));
	r->req = calloc(r->n_total, sizeof(*r->req));
	e->ep = epoll_create1(EPOLL_CLOEXEC);
	e->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK | TFD_CLOEXEC);
	if (!e->c || !r->req || e->ep < 0 || e->tfd < 0 ||
	    epoll_ctl(e->ep, EPOLL_CTL_ADD, e->tfd, &ev)) {
		snprintf(err, errlen, "cannot set up: %s", strerror(errno));
		return -1;
	}
	for (i = 0; i < o->connections; i++)
		e->c[i] = (struct conn){ .fd = -1, .st = C_CLOSED, .next = i, .cur = -1 };
	return 0;
}

static void engine_free(struct engine *e)
{
	int i;

	for (i = 0; e->c && i < e->o->connections; i++)
		conn_close(e, &e->c[i]);
	free(e->c);
	if (e->ep >= 0)
		close(e->ep);
	if (e->tfd >= 0)
		close(e->tfd);
}

/* How many i >= 0 have i / rate < @secs. */
static long long due_before(double secs, double rate)
{
	double n = secs * rate;
	long long k = (long long)n;

	return k + ((double)k < n ? 1 : 0);
}

int loadgen_run(const struct loadgen_opts *o, struct loadgen_result *r, char *err,
		size_t errlen)
{
	struct engine e;
	int ret;

	memset(r, 0, sizeof(*r));
	r->step_ns = 1e9 / o->rate;
	r->n_warm = due_before(o->warmup, o->rate);
	r->n_total = due_before(o->warmup + o->duration, o->rate);
	ret = engine_init(&e, o, r, err, errlen);
	if (!ret) {
		engine_connect(&e);
		r->t0_ns = now_ns() + 1000000;
		engine_loop(&e);
	}
	engine_free(&e);
	return ret;
}
