// SPDX-License-Identifier: MIT
/*
 * serve.c - the warm-instance side of protocol.h. Reads and writes with
 * plain read()/write() on the descriptors: no stdio buffering between the
 * harness's clock and the function.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "memstat.h"
#include "protocol.h"
#include "serve.h"

struct line_reader {
	int fd;
	char buf[PROTO_LINE_MAX];
	size_t len;
};

/* Next line without its newline, NUL-terminated; -1 on EOF or error. */
static int read_line(struct line_reader *lr, char *line, size_t size)
{
	for (;;) {
		char *nl = memchr(lr->buf, '\n', lr->len);
		ssize_t n;

		if (nl) {
			size_t l = (size_t)(nl - lr->buf);

			if (l >= size)
				l = size - 1;
			memcpy(line, lr->buf, l);
			line[l] = '\0';
			lr->len -= (size_t)(nl - lr->buf) + 1;
			memmove(lr->buf, nl + 1, lr->len);
			return 0;
		}
		if (lr->len == sizeof(lr->buf))
			lr->len = 0;    /* overlong line: drop it */
		n = read(lr->fd, lr->buf + lr->len, sizeof(lr->buf) - lr->len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		lr->len += (size_t)n;
	}
}

static int write_line(int fd, const char *line, int len)
{
	while (len > 0) {
		ssize_t n = write(fd, line, (size_t)len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		line += n;
		len -= (int)n;
	}
	return 0;
}

static long long mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/* Messages go on one line: newlines become spaces. */
static void flatten(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

static int reply_invoke(struct wl_instance *inst, unsigned long seq, int out_fd)
{
	char line[PROTO_LINE_MAX], hex[DIGEST_HEX_LEN];
	struct digest d;
	long long t0, t1;
	int err, n;

	digest_init(&d);
	inst->error[0] = '\0';
	t0 = mono_ns();
	err = inst->ops->invoke(inst, &d);
	t1 = mono_ns();
	digest_final(&d, hex);
	if (err) {
		if (!inst->error[0])
			snprintf(inst->error, sizeof(inst->error), "%s", strerror(-err));
		flatten(inst->error);
		n = snprintf(line, sizeof(line), "done %lu ok=0 fn_ns=%lld error=%s\n",
			     seq, t1 - t0, inst->error);
	} else {
		n = snprintf(line, sizeof(line), "done %lu ok=1 fn_ns=%lld digest=%s\n",
			     seq, t1 - t0, hex);
	}
	return write_line(out_fd, line, n < (int)sizeof(line) ? n : (int)sizeof(line) - 1);
}

static int reply_mem(int out_fd)
{
	char line[128];
	struct memstat m;
	int n;

	memstat_read(0, &m);
	n = snprintf(line, sizeof(line), "mem rss_kb=%ld pss_kb=%ld\n", m.rss_kb, m.pss_kb);
	return write_line(out_fd, line, n);
}

static int send_ready(struct wl_instance *inst, long long init_ns, int out_fd)
{
	char line[256];
	struct memstat m;
	int n;

	memstat_read(0, &m);
	n = snprintf(line, sizeof(line),
		     "ready pid=%d init_ns=%lld rss_kb=%ld pss_kb=%ld threads=%d\n",
		     (int)getpid(), init_ns, m.rss_kb, m.pss_kb,
		     pool_threads(inst->pool));
	return write_line(out_fd, line, n);
}

int serve_loop(const struct workload_ops *ops, const struct wl_params *params,
	       int in_fd, int out_fd)
{
	struct line_reader lr = { .fd = in_fd };
	struct wl_instance inst;
	char line[PROTO_LINE_MAX];
	long long t0 = mono_ns();
	unsigned long seq;
	int err = wl_instance_open(&inst, ops, params);

	if (err) {
		flatten(inst.error);
		dprintf(out_fd, "error %s\n", inst.error);
		return CVMFN_EXIT_INIT;
	}
	err = send_ready(&inst, mono_ns() - t0, out_fd);
	while (!err && read_line(&lr, line, sizeof(line)) == 0) {
		if (sscanf(line, "invoke %lu", &seq) == 1)
			err = reply_invoke(&inst, seq, out_fd);
		else if (!strcmp(line, "mem"))
			err = reply_mem(out_fd);
		else if (!strcmp(line, "quit"))
			break;
		else
			dprintf(out_fd, "error unknown request '%.64s'\n", line);
	}
	wl_instance_close(&inst);
	return err ? CVMFN_EXIT_FAILED : CVMFN_EXIT_OK;
}
