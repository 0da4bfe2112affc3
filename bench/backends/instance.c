// SPDX-License-Identifier: MIT
/*
 * instance.c - speak protocol.h to a cvmfn: handshake, invoke, quit, with
 * a timeout on every read. The round trip is timed here, from just before
 * the request is written to just after the reply's timing line ("done") is
 * complete; the digest line cvmfn sends after hashing is read afterwards,
 * outside the round trip. Each reply costs one read(): the timeout is the
 * call timer's (call-timer.h), not a poll() per call.
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "call-timer.h"
#include "clock.h"
#include "instance.h"

/* Reap @pid if it exits within @ms milliseconds; 1 with @status if it did. */
static int wait_exit(pid_t pid, int ms, int *status)
{
	struct timespec pause = { 0, 1000000 };
	int i;

	for (i = 0; i <= ms; i++) {
		if (waitpid(pid, status, WNOHANG) == pid)
			return 1;
		nanosleep(&pause, NULL);
	}
	return 0;
}

/* Why the process behind @in is gone, for messages. */
static void describe_exit(struct instance *in, char *buf, size_t len)
{
	int status;

	/* its channel closed: it is exiting, give it a moment to be reaped */
	if (in->pid <= 0 || !wait_exit(in->pid, 200, &status)) {
		snprintf(buf, len, "instance closed its channel");
		return;
	}
	in->pid = -1;
	if (WIFSIGNALED(status))
		snprintf(buf, len, "instance died of signal %d (%s)", WTERMSIG(status),
			 strsignal(WTERMSIG(status)));
	else
		snprintf(buf, len, "instance exited with status %d", WEXITSTATUS(status));
}

/* Wait for @fd to be readable until @deadline_ns: 1, 0 (not yet) or -errno. */
static int poll_until(int fd, long long deadline_ns)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	long long left_ms = (deadline_ns - clock_now_ns()) / 1000000;
	int n;

	if (left_ms < 0)
		return -ETIMEDOUT;
	n = poll(&pfd, 1, (int)(left_ms > 1000000 ? 1000000 : left_ms));
	return n < 0 ? -errno : n;
}

/*
 * More bytes from the instance, by @deadline_ns: a blocking read under the
 * call timer (no poll(): one system call per reply), or poll() and read()
 * where no watchdog thread could be started. 0, -ETIMEDOUT, -EPIPE, -EINTR.
 */
static int read_more(struct instance *in, long long deadline_ns)
{
	unsigned long gen = 0;
	ssize_t n;
	int ret;

	if (clock_now_ns() >= deadline_ns)
		return -ETIMEDOUT;
	gen = call_timer_arm(deadline_ns);
	if (!gen) {
		ret = poll_until(in->from_fd, deadline_ns);
		if (ret <= 0)
			return ret;
	}
	n = read(in->from_fd, in->buf + in->len, sizeof(in->buf) - in->len);
	ret = n < 0 ? errno : 0;
	if (call_timer_disarm(gen) && n < 0 && ret == EINTR)
		return -ETIMEDOUT;
	if (n < 0 && ret == EINTR)
		return -EINTR;
	if (n <= 0)
		return -EPIPE;
	in->len += (size_t)n;
	return 0;
}

/* Read one line (without '\n') within @deadline_ns. 0, -ETIMEDOUT, -EPIPE, -EINTR. */
static int read_reply(struct instance *in, char *line, size_t size, long long deadline_ns)
{
	for (;;) {
		char *nl = memchr(in->buf, '\n', in->len);
		int err;

		if (nl) {
			size_t l = (size_t)(nl - in->buf);

			snprintf(line, size, "%.*s", (int)l, in->buf);
			in->len -= l + 1;
			memmove(in->buf, nl + 1, in->len);
			return 0;
		}
		if (in->len == sizeof(in->buf))
			return -EPROTO;
		err = read_more(in, deadline_ns);
		if (err)
			return err;
	}
}

static void fail_read(struct instance *in, int err, const char *what, char *out,
		      size_t len)
{
	char why[256];

	if (err == -EPIPE)
		describe_exit(in, why, sizeof(why));
	else if (err == -ETIMEDOUT)
		snprintf(why, sizeof(why), "no reply in time (timeout)");
	else if (err == -EINTR)
		snprintf(why, sizeof(why), "interrupted");
	else
		snprintf(why, sizeof(why), "%s", strerror(-err));
	snprintf(out, len, "%s: %s", what, why);
}

/* The word after " runtime=" (a Python twin's interpreter), or "". */
static void ready_runtime(const char *line, char *buf, size_t len)
{
	const char *p = strstr(line, " runtime=");

	buf[0] = '\0';
	if (p)
		snprintf(buf, len, "%.*s", (int)strcspn(p + 9, " "), p + 9);
}

/* The ready line's @key number (a Python twin's cold-start phase), or -1. */
static long long ready_phase(const char *line, const char *key)
{
	const char *p = strstr(line, key);
	long long v;

	return p && sscanf(p + strlen(key), "%lld", &v) == 1 && v >= 0 ? v : -1;
}

int instance_handshake(struct instance *in, double timeout_s)
{
	char line[1024];
	int pid, err;

	err = read_reply(in, line, sizeof(line), in->spawn_ns + (long long)(timeout_s * 1e9));
	in->start_ns = clock_now_ns() - in->spawn_ns;
	if (err) {
		fail_read(in, err, "instance start", in->error, sizeof(in->error));
		return err;
	}
	if (!strncmp(line, "error ", 6)) {
		snprintf(in->error, sizeof(in->error), "init failed: %.480s", line + 6);
		return -EIO;
	}
	if (sscanf(line, "ready pid=%d init_ns=%lld rss_kb=%ld pss_kb=%ld threads=%d",
		   &pid, &in->init_ns, &in->rss_kb, &in->pss_kb, &in->threads) != 5) {
		snprintf(in->error, sizeof(in->error), "unexpected greeting '%.200s'", line);
		return -EPROTO;
	}
	ready_runtime(line, in->runtime, sizeof(in->runtime));
	in->interp_ns = ready_phase(line, " interp_ns=");
	in->import_ns = ready_phase(line, " import_ns=");
	return 0;
}

static int parse_done(const char *line, long seq, struct invoke_result *r)
{
	long got;
	int ok, pos = 0;

	if (sscanf(line, "done %ld ok=%d fn_ns=%lld%n", &got, &ok, &r->fn_ns, &pos) < 3 ||
	    got != seq || !pos)
		return -EPROTO;
	r->ok = ok;
	if (ok && !line[pos])
		return 0;
	if (!ok && !strncmp(line + pos, " error=", 7)) {
		snprintf(r->error, sizeof(r->error), "%s", line + pos + 7);
		return 0;
	}
	return -EPROTO;
}

/* "digest SEQ sha256=HEX digest_ns=N", "digest SEQ none" or "... error=M". */
static int parse_digest(const char *line, long seq, struct invoke_result *r)
{
	long got;
	int pos = 0, end = 0;

	if (sscanf(line, "digest %ld %n", &got, &pos) < 1 || got != seq || !pos)
		return -EPROTO;
	line += pos;
	if (!strcmp(line, "none"))
		return 0;
	if (!strncmp(line, "error=", 6)) {
		r->ok = 0;
		snprintf(r->error, sizeof(r->error), "digest: %s", line + 6);
		return 0;
	}
	if (sscanf(line, "sha256=%64[0-9a-f] digest_ns=%lld%n", r->digest, &r->digest_ns,
		   &end) == 2 && !line[end] && strlen(r->digest) == DIGEST_HEX_LEN - 1)
		return 0;
	r->digest[0] = '\0';
	r->digest_ns = -1;
	return -EPROTO;
}

static int unexpected(struct invoke_result *r, const char *line)
{
	snprintf(r->error, sizeof(r->error), "unexpected reply '%.200s'", line);
	return -EPROTO;
}

int instance_invoke(struct instance *in, long seq, double timeout_s,
		    struct invoke_result *r)
{
	char req[64], line[1024];
	int n = snprintf(req, sizeof(req), "invoke %ld\n", seq), err;
	long long t0, t1, deadline;

	memset(r, 0, sizeof(*r));
	r->latency_ns = r->fn_ns = r->digest_ns = -1;
	t0 = clock_now_ns();
	deadline = t0 + (long long)(timeout_s * 1e9);
	if (write(in->to_fd, req, (size_t)n) != n) {
		describe_exit(in, r->error, sizeof(r->error));
		return -EPIPE;
	}
	err = read_reply(in, line, sizeof(line), deadline);
	t1 = clock_now_ns();
	if (err) {
		fail_read(in, err, "invoke", r->error, sizeof(r->error));
		return err;
	}
	r->latency_ns = t1 - t0;
	if (parse_done(line, seq, r))
		return unexpected(r, line);
	if (!r->ok)
		return 0;
	/* the hash runs now, after the round trip's end */
	err = read_reply(in, line, sizeof(line), deadline);
	if (err) {
		fail_read(in, err, "digest", r->error, sizeof(r->error));
		return err;
	}
	return parse_digest(line, seq, r) ? unexpected(r, line) : 0;
}

/* Wait for the child up to @timeout_s, then kill it. */
static void reap(struct instance *in, double timeout_s)
{
	long long deadline = clock_now_ns() + (long long)(timeout_s * 1e9);
	struct timespec pause = { 0, 1000000 };

	while (in->pid > 0 && !in->pid_shared && waitpid(in->pid, NULL, WNOHANG) == 0) {
		if (clock_now_ns() > deadline) {
			kill(in->pid, SIGKILL);
			waitpid(in->pid, NULL, 0);
			break;
		}
		nanosleep(&pause, NULL);
	}
	in->pid = -1;
}

void instance_close(struct instance *in, double timeout_s)
{
	if (in->to_fd >= 0) {
		/* if it is already gone, the write fails and reap() collects it */
		ssize_t n = write(in->to_fd, "quit\n", 5);

		(void)n;
		close(in->to_fd);
		in->to_fd = -1;
	}
	reap(in, timeout_s);
	if (in->from_fd >= 0) {
		close(in->from_fd);
		in->from_fd = -1;
	}
}
