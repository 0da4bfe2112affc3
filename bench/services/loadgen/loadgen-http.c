// SPDX-License-Identifier: MIT
/*
 * loadgen-http.c - reading an HTTP/1.1 response incrementally: the head
 * up to the blank line (status line, Content-Length, Transfer-Encoding,
 * Connection), then the body counted down by its length.
 */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "loadgen-http.h"

void http_resp_reset(struct http_resp *r)
{
	r->head_len = 0;
	r->in_body = 0;
	r->body_left = -1;
	r->status = 0;
	r->close = 0;
	r->error = NULL;
}

static int fail(struct http_resp *r, const char *why)
{
	r->error = why;
	return -1;
}

/* The value of header @name in the head (NUL-terminated), or NULL. */
static const char *header(const char *head, const char *name)
{
	size_t n = strlen(name);
	const char *p = strstr(head, "\r\n");

	while (p && p[2]) {
		p += 2;
		if (!strncasecmp(p, name, n) && p[n] == ':') {
			p += n + 1;
			while (*p == ' ' || *p == '\t')
				p++;
			return p;
		}
		p = strstr(p, "\r\n");
	}
	return NULL;
}

static int head_parse(struct http_resp *r)
{
	const char *v;
	char *e;

	if (strncmp(r->head, "HTTP/1.", 7) || !isdigit((unsigned char)r->head[7]) ||
	    r->head[8] != ' ')
		return fail(r, "not an HTTP/1.x status line");
	r->status = (int)strtol(r->head + 9, &e, 10);
	if (e != r->head + 12 || r->status < 100 || r->status > 599)
		return fail(r, "a bad status code");
	v = header(r->head, "Transfer-Encoding");
	if (v && strncasecmp(v, "identity", 8))
		return fail(r, "a Transfer-Encoding body (chunked is not supported)");
	v = header(r->head, "Connection");
	r->close = v && !strncasecmp(v, "close", 5);
	if (r->status < 200 || r->status == 204 || r->status == 304) {
		r->body_left = 0;
	} else {
		v = header(r->head, "Content-Length");
		if (!v)
			return fail(r, "no Content-Length (a body to the close is not supported)");
		r->body_left = strtoll(v, &e, 10);
		if (e == v || r->body_left < 0 || (*e != '\r' && *e != ' '))
			return fail(r, "a bad Content-Length");
	}
	r->in_body = 1;
	return 0;
}

/* Copy head bytes until the blank line; how many were taken. */
static size_t head_take(struct http_resp *r, const char *buf, size_t n, int *done)
{
	size_t i;

	*done = 0;
	for (i = 0; i < n && r->head_len < HTTP_HEAD_MAX - 1; i++) {
		r->head[r->head_len++] = buf[i];
		if (r->head_len >= 4 && !memcmp(r->head + r->head_len - 4, "\r\n\r\n", 4)) {
			*done = 1;
			i++;
			break;
		}
	}
	r->head[r->head_len] = '\0';
	return i;
}

int http_resp_feed(struct http_resp *r, const char *buf, size_t n, size_t *used)
{
	size_t take = 0;
	int done;

	*used = 0;
	if (!r->in_body) {
		take = head_take(r, buf, n, &done);
		*used = take;
		if (!done)
			return r->head_len >= HTTP_HEAD_MAX - 1 ? fail(r, "a head over 8 KiB") : 0;
		if (head_parse(r))
			return -1;
	}
	take = n - *used;
	if ((long long)take > r->body_left)
		take = (size_t)r->body_left;
	r->body_left -= take;
	*used += take;
	return r->body_left == 0;
}
