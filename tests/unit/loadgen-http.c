// SPDX-License-Identifier: MIT
/*
 * tests/unit/loadgen-http.c - cvmload's incremental HTTP/1.1 response
 * reader (bench/services/loadgen/loadgen-http.c): a response fed one byte
 * at a time completes exactly at its last body byte (the length written
 * below by hand, not taken from the header by the same code); whole, with
 * the next response's bytes after it, it takes only its own; bodiless
 * statuses, Connection: close, and the refusals (chunked, no length, not
 * HTTP, a head over 8 KiB) each name themselves.
 */
#include <stdio.h>
#include <string.h>

#include "loadgen-http.h"
#include "tap.h"

static const char nginx_200[] =
	"HTTP/1.1 200 OK\r\nServer: nginx/1.22.1\r\nContent-Type: text/html\r\n"
	"Content-Length: 10\r\nConnection: keep-alive\r\n\r\n0123456789";

/* Feed @s one byte at a time: the byte count at which it completed, or -1/0. */
static long bytewise(struct http_resp *r, const char *s, size_t n)
{
	size_t i, used;
	int rc;

	http_resp_reset(r);
	for (i = 0; i < n; i++) {
		rc = http_resp_feed(r, s + i, 1, &used);
		if (rc)
			return rc < 0 ? -1 : (long)(i + 1);
	}
	return 0;
}

static void whole(void)
{
	struct http_resp r;
	char two[512];
	size_t used;
	int rc;

	tap_ok(bytewise(&r, nginx_200, sizeof(nginx_200) - 1) == 120 && r.status == 200 && !r.close,
	       "byte by byte: complete at byte 120, the last of its 10-byte body");
	snprintf(two, sizeof(two), "%s%s", nginx_200, nginx_200);
	http_resp_reset(&r);
	rc = http_resp_feed(&r, two, strlen(two), &used);
	tap_ok(rc == 1 && used == 120, "two responses in one read: the first takes its 120 bytes");
	tap_ok(bytewise(&r, "HTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n", 46) == 46 &&
	       r.status == 204 && r.close, "204: no body, complete at the blank line; close seen");
	tap_ok(bytewise(&r, "HTTP/1.1 404 Not Found\r\nContent-Length: 3\r\n\r\nno\n", 48) == 48 &&
	       r.status == 404, "404 with a body: complete, status kept for the caller");
	tap_ok(bytewise(&r, "HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n", 38) == 38,
	       "a lower-case header name and an empty body");
}

static void refused(void)
{
	static const struct { const char *text, *why; } bad[] = {
		{ "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n",
		  "chunked" },
		{ "HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nbody to the end", "Content-Length" },
		{ "SSH-2.0-OpenSSH_9.2\r\n\r\n", "status line" },
		{ "HTTP/1.1 2000 OK\r\nContent-Length: 0\r\n\r\n", "status code" },
		{ "HTTP/1.1 200 OK\r\nContent-Length: -4\r\n\r\n", "Content-Length" },
	};
	static char big[HTTP_HEAD_MAX + 64];
	struct http_resp r;
	size_t i;
	long rc;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		rc = bytewise(&r, bad[i].text, strlen(bad[i].text));
		tap_ok(rc == -1 && r.error && strstr(r.error, bad[i].why), "refused: %s",
		       r.error ? r.error : "(no reason)");
	}
	memcpy(big, "HTTP/1.1 200 OK\r\nX: ", 20);
	memset(big + 20, 'a', sizeof(big) - 21);
	rc = bytewise(&r, big, sizeof(big) - 1);
	tap_ok(rc == -1 && r.error && strstr(r.error, "8 KiB"), "a head over 8 KiB is refused");
}

int main(void)
{
	tap_plan(11);
	whole();
	refused();
	return tap_done();
}
