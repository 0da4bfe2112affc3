/* SPDX-License-Identifier: MIT */
/*
 * loadgen-run.h - cvmload's open-loop engine: request i is due at the
 * intended time t0 + i/R on connection i mod C (HTTP/1.1 keep-alive, one
 * request in flight per connection, epoll and non-blocking sockets, a
 * timerfd on CLOCK_MONOTONIC for the next due time). A request whose
 * connection is still busy when it is due waits, and that wait is part of
 * its latency: each request's times are kept for the report.
 */
#ifndef CVMBENCH_LOADGEN_RUN_H
#define CVMBENCH_LOADGEN_RUN_H

#include <stdint.h>

#include "loadgen-args.h"

enum loadgen_status {
	REQ_PENDING,
	REQ_OK,          /* a 2xx response, complete */
	REQ_ERR_CONNECT, /* the connection could not be made (refused, reset) */
	REQ_ERR_STATUS,  /* a complete response, not 2xx */
	REQ_ERR_READ,    /* the connection closed or failed mid-response, or a bad response */
	REQ_ERR_TIMEOUT, /* no answer within --timeout after the last send */
	REQ_STATUS_N,
};

struct loadgen_req {
	int64_t sent_ns;     /* CLOCK_MONOTONIC when the request was written (0: never) */
	int64_t end_ns;      /* when its response's last byte was read (0: never) */
	uint8_t status;
};

struct loadgen_result {
	int64_t t0_ns;            /* CLOCK_MONOTONIC of request 0's intended time */
	double step_ns;           /* 1e9 / rate */
	long long n_total;        /* warm-up and measured requests */
	long long n_warm;         /* requests 0 .. n_warm-1 are the warm-up */
	struct loadgen_req *req;  /* n_total of them */
};

/** loadgen_intended_ns() - request @i's intended send time. */
int64_t loadgen_intended_ns(const struct loadgen_result *r, long long i);

/**
 * loadgen_run() - run the schedule of @o against its address and fill @r
 * (r->req malloc'ed: free it). 0, or -1 with @err if the machine refused
 * (memory, epoll, timerfd); failed requests are results, not errors.
 */
int loadgen_run(const struct loadgen_opts *o, struct loadgen_result *r, char *err,
		size_t errlen);

#endif
