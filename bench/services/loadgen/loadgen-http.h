/* SPDX-License-Identifier: MIT */
/*
 * loadgen-http.h - an incremental HTTP/1.1 response reader for cvmload:
 * bytes in as they arrive, "complete" at the last byte of the body. It
 * knows Content-Length bodies and bodiless statuses (1xx, 204, 304);
 * a chunked or length-less body is refused (cvmload's stated limit).
 */
#ifndef CVMBENCH_LOADGEN_HTTP_H
#define CVMBENCH_LOADGEN_HTTP_H

#include <stddef.h>

#define HTTP_HEAD_MAX 8192

struct http_resp {
	char head[HTTP_HEAD_MAX];
	size_t head_len;
	int in_body;
	long long body_left;
	int status;
	int close;              /* "Connection: close": the server ends the connection */
	const char *error;      /* why the response was refused */
};

/** http_resp_reset() - ready for the next response on the connection. */
void http_resp_reset(struct http_resp *r);

/**
 * http_resp_feed() - take up to @n bytes: 1 when the response is complete
 * (@used says how many bytes it took), 0 when it needs more, -1 when it is
 * malformed or of a kind not supported (r->error says which).
 */
int http_resp_feed(struct http_resp *r, const char *buf, size_t n, size_t *used);

#endif
