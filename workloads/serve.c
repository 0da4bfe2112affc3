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
#include "reply-line.h"
#include "serve.h"
#include "wlfile.h"
#include "wlclock.h"

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

/* Messages go on one line: newlines become spaces. */
static void flatten(char *s)
{
	for (; *s; s++)
		if (*s == '\n' || *s == '\r')
			*s = ' ';
}

/*
 * The function alone, timed; its output stays recorded in @out. Its files
 * (--output) are written after the end time and before the done line, so a
 * failed write fails the call (the done line has no field for their time).
 */
static int timed_invoke(struct wl_instance *inst, struct wl_output *out,
			long long *fn_ns)
{
	long long t0;
	int err;

	wl_output_reset(out);
	inst->error[0] = '\0';
	t0 = wl_now_ns();
	err = inst->ops->invoke(inst, out);
	*fn_ns = wl_now_ns() - t0;
	if (!err && out->err)
		err = wl_error(inst, out->err, "%s: cannot record the output: %s",
			       inst->ops->info->name, strerror(-out->err));
	if (!err)
		err = wl_output_write_files(inst, out);
	if (err && !inst->error[0])
		snprintf(inst->error, sizeof(inst->error), "%s", strerror(-err));
	flatten(inst->error);
	return err;
}

/* The digest line, after the timing line: hashing is outside both clocks. */
static int reply_digest(const struct wl_output *out, unsigned long seq, int out_fd)
{
	char line[PROTO_LINE_MAX], hex[DIGEST_HEX_LEN];
	long long t0;
	int err, n;

	t0 = wl_now_ns();
	err = wl_output_digest(out, hex);
	if (err)
		n = snprintf(line, sizeof(line), "digest %lu error=%s\n", seq, strerror(-err));
	else
		n = snprintf(line, sizeof(line), "digest %lu sha256=%s digest_ns=%lld\n",
			     seq, hex, wl_now_ns() - t0);
	return write_line(out_fd, line, n);
}

/*
 * The timing line, then the digest line. A call that is not hashed has
 * both lines ready at once: one write (one system call, one wake-up of the
 * harness); a hashed call writes the timing line before hashing.
 */
static int reply_invoke(struct wl_instance *inst, struct wl_output *out,
			unsigned long seq, int due, int out_fd, long long *fn_ns_out)
{
	char line[PROTO_LINE_MAX];
	long long fn_ns;
	int err = timed_invoke(inst, out, &fn_ns), n;

	*fn_ns_out = fn_ns;
	if (err) {
		n = snprintf(line, sizeof(line), "done %lu ok=0 fn_ns=%lld error=%s\n",
			     seq, fn_ns, inst->error);
		return write_line(out_fd, line,
				  n < (int)sizeof(line) ? n : (int)sizeof(line) - 1);
	}
	if (!due)
		return write_line(out_fd, line, reply_line_done_none(line, seq, fn_ns));
	n = snprintf(line, sizeof(line), "done %lu ok=1 fn_ns=%lld\n", seq, fn_ns);
	err = write_line(out_fd, line, n);
	return err ? err : reply_digest(out, seq, out_fd);
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

static int send_ready(struct wl_instance *inst, long long init_ns, const char *extra,
		      int out_fd)
{
	char line[512];
	struct memstat m;
	int n;

	memstat_read(0, &m);
	n = snprintf(line, sizeof(line),
		     "ready pid=%d init_ns=%lld rss_kb=%ld pss_kb=%ld threads=%d%s\n",
		     (int)getpid(), init_ns, m.rss_kb, m.pss_kb,
		     pool_threads(inst->pool), extra ? extra : "");
	return write_line(out_fd, line, n < (int)sizeof(line) ? n : (int)sizeof(line) - 1);
}

int serve_instance(struct wl_instance *inst, const struct wl_digest_policy *policy,
		   int in_fd, int out_fd, long long init_ns, const struct serve_hooks *hooks)
{
	struct line_reader lr = { .fd = in_fd };
	struct wl_output out = { 0 };
	char line[PROTO_LINE_MAX];
	unsigned long seq, calls = 0;
	long long fn_ns;
	int err = send_ready(inst, init_ns, hooks ? hooks->ready_extra : NULL, out_fd);

	while (!err && read_line(&lr, line, sizeof(line)) == 0) {
		if (!request_parse_invoke(line, &seq)) {
			err = reply_invoke(inst, &out, seq, wl_digest_due(policy, calls), out_fd,
					   &fn_ns);
			if (!err && calls++ == 0 && hooks && hooks->first_call)
				hooks->first_call(hooks->ctx, fn_ns);
		} else if (!strcmp(line, "mem")) {
			err = reply_mem(out_fd);
		} else if (!strcmp(line, "quit")) {
			break;
		} else {
			dprintf(out_fd, "error unknown request '%.64s'\n", line);
		}
	}
	wl_output_free(&out);
	return err ? CVMFN_EXIT_FAILED : CVMFN_EXIT_OK;
}

int serve_loop(const struct workload_ops *ops, const struct wl_params *params,
	       const struct wl_digest_policy *policy, int in_fd, int out_fd)
{
	struct wl_instance inst;
	long long t0 = wl_now_ns();
	int err = wl_instance_open(&inst, ops, params);

	if (err) {
		serve_refuse(inst.error, out_fd);
		return CVMFN_EXIT_INIT;
	}
	err = serve_instance(&inst, policy, in_fd, out_fd, wl_now_ns() - t0, NULL);
	wl_instance_close(&inst);
	return err;
}

void serve_refuse(char *msg, int out_fd)
{
	flatten(msg);
	dprintf(out_fd, "error %s\n", msg);
}
