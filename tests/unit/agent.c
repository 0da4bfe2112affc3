// SPDX-License-Identifier: MIT
/*
 * tests/unit/agent.c - the agent protocol (bench/agent/): every request and
 * row encoded to the exact line and decoded back, malformed lines refused,
 * values exact through text; the agent driven over two pipes in a child
 * process and in-process (loopback) gives the same rows; a start that fails
 * makes that window a skip row and no numbers; an agent that dies keeps the
 * rows it had sent.
 */
#include <errno.h>
#include <stdarg.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "agent-client.h"
#include "agent-proto.h"
#include "agent.h"
#include "tap.h"

static void test_requests(void)
{
	static const struct { struct agent_req r; const char *line; } cases[] = {
		{ { AGENT_OPEN, "idle", 0, 0 }, "probe open idle\n" },
		{ { AGENT_START, "idle", PROBE_WINDOW_INVOCATION, 17 }, "probe start idle inv 17\n" },
		{ { AGENT_STOP, "cpu", PROBE_WINDOW_CELL, 0 }, "probe stop cpu cell 0\n" },
		{ { AGENT_EMIT, "null", PROBE_WINDOW_INVOCATION, 0 }, "probe emit null inv 0\n" },
		{ { AGENT_CLOSE, "exitcost", 0, 0 }, "probe close exitcost\n" },
	};
	static const char *const bad[] = {
		"probe start idle", "probe start idle inv -1", "probe stop idle cell 1",
		"probe open", "probe jump idle", "probe open idle extra", "probe open idle ",
		"probe  open idle", "probe emit idle inv 1x", "probe emit idle inv 2 3",
		"invoke 3", "", "probe start idle run 0",
	};
	struct agent_req q = { AGENT_OPEN, "has space", 0, 0 }, back;
	char line[AGENT_LINE_MAX];
	size_t i;
	int n, ok = 1;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		n = agent_req_encode(&cases[i].r, line, sizeof(line));
		tap_ok(n > 0 && !strcmp(line, cases[i].line), "request encodes as '%.*s'",
		       (int)strlen(cases[i].line) - 1, cases[i].line);
		line[n - 1] = '\0';
		ok &= !agent_req_decode(line, &back) && back.op == cases[i].r.op &&
		      !strcmp(back.probe, cases[i].r.probe) && back.w == cases[i].r.w &&
		      back.seq == cases[i].r.seq;
	}
	tap_ok(ok, "every request decodes back to what was encoded");
	for (ok = 1, i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (agent_req_decode(bad[i], &back) != -EPROTO) {
			ok = 0;
			printf("# accepted: '%s'\n", bad[i]);
		}
	tap_ok(ok, "malformed requests are refused (%zu kinds)", sizeof(bad) / sizeof(bad[0]));
	tap_ok(agent_req_encode(&q, line, sizeof(line)) == -EINVAL,
	       "a probe name with a space cannot be sent");
	snprintf(q.probe, sizeof(q.probe), "idle");
	tap_ok(agent_req_encode(&q, line, 8) == -ENOSPC, "a line that does not fit: -ENOSPC");
}

static int row_eq(const struct agent_row *a, const struct agent_row *b)
{
	return a->kind == b->kind && !strcmp(a->probe, b->probe) && a->w == b->w &&
	       a->seq == b->seq && !strcmp(a->name, b->name) &&
	       (a->kind != AGENT_ROW_METRIC || !memcmp(&a->value, &b->value, sizeof(double))) &&
	       !strcmp(a->unit, b->unit) && a->err == b->err &&
	       (a->kind != AGENT_ROW_ACK || a->op == b->op) && !strcmp(a->text, b->text);
}

static void test_rows(void)
{
	static const double values[] = { 0.1, 1e300, -0.0, 12345678901234567.0, 5e-324,
					 -2.5, 1.0 / 3.0 };
	struct agent_row r = { .kind = AGENT_ROW_METRIC, .probe = "idle",
			       .w = PROBE_WINDOW_INVOCATION, .seq = 4, .name = "cpu0.state1.usage",
			       .unit = "count" }, back;
	char line[AGENT_LINE_MAX];
	size_t i;
	int ok = 1, n;

	for (i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		r.value = values[i];
		n = agent_row_encode(&r, line, sizeof(line));
		line[n > 0 ? n - 1 : 0] = '\0';
		ok &= n > 0 && !agent_row_decode(line, &back) && row_eq(&r, &back);
	}
	tap_ok(ok, "metric values come back bit for bit (%%.17g)");
	r.value = 7;
	agent_row_encode(&r, line, sizeof(line));
	tap_ok(!strcmp(line, "metric idle inv 4 cpu0.state1.usage 7 count\n"), "metric line: %.*s", (int)strlen(line) - 1, line);
	memset(&r, 0, sizeof(r));
	r = (struct agent_row){ .kind = AGENT_ROW_SKIP, .probe = "null", .w = PROBE_WINDOW_CELL,
				.text = "two\nlines" };
	agent_row_encode(&r, line, sizeof(line));
	tap_ok(!strcmp(line, "skip null cell 0 two lines\n"), "skip line, newline flattened: %.*s",
	       (int)strlen(line) - 1, line);
	r = (struct agent_row){ .kind = AGENT_ROW_ACK, .probe = "null", .op = AGENT_START,
				.w = PROBE_WINDOW_INVOCATION, .seq = 2, .err = -EIO,
				.text = "window skipped" };
	n = agent_row_encode(&r, line, sizeof(line));
	tap_ok(!strcmp(line, "ack null start inv 2 -5 window skipped\n"), "failed ack: %.*s", (int)strlen(line) - 1, line);
	line[n - 1] = '\0';
	tap_ok(!agent_row_decode(line, &back) && row_eq(&r, &back), "and it decodes back");
	r = (struct agent_row){ .kind = AGENT_ROW_ACK, .probe = "idle", .op = AGENT_OPEN };
	n = agent_row_encode(&r, line, sizeof(line));
	tap_ok(!strcmp(line, "ack idle open none 0 0\n"), "ack of open: %.*s", (int)strlen(line) - 1, line);
	line[n - 1] = '\0';
	tap_ok(!agent_row_decode(line, &back) && row_eq(&r, &back), "and it decodes back");
}

static void test_bad_rows(void)
{
	static const char *const bad[] = {
		"metric idle inv 4 name 1", "metric idle inv 4 name 1x count",
		"metric idle none 0 name 1 count", "skip idle cell 0", "note idle inv x k v",
		"ack idle start inv 2 5 positive", "ack idle start inv 2 -5", "ack idle go none 0 0",
		"ack idle open none 0 0 trailing", "done 3 ok=1 fn_ns=5", "metric idle inv 4 a 1 b c",
	};
	struct agent_row back;
	size_t i;
	int ok = 1;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (agent_row_decode(bad[i], &back) != -EPROTO) {
			ok = 0;
			printf("# accepted: '%s'\n", bad[i]);
		}
	tap_ok(ok, "malformed rows are refused (%zu kinds)", sizeof(bad) / sizeof(bad[0]));
}

/* A sink that writes what it is given as text into @log (one line a row). */
static char rows_log[8192];

static void logf_row(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
static void logf_row(const char *fmt, ...)
{
	size_t len = strlen(rows_log);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(rows_log + len, sizeof(rows_log) - len, fmt, ap);
	va_end(ap);
}

static int cap_metric(struct sink *s, const char *name, double value, const char *unit)
{
	logf_row("M %s %lld %s %g %s\n", s->probe, (long long)s->invocation_id, name, value,
		 unit);
	return 0;
}

static int cap_skip(struct sink *s, const char *reason)
{
	logf_row("S %s %s\n", s->probe, reason);
	return 0;
}

static int cap_note(struct sink *s, const char *key, const char *value)
{
	logf_row("N %s %s %.*s\n", s->probe, key, (int)strcspn(value, " "), value);
	return 0;
}

static const struct sink_ops cap_ops = { cap_metric, cap_skip, cap_note, NULL };

/* Invocation row ids the client maps windows to: seq 0 -> 100, ... */
static int64_t inv_id(void *ctx, long seq)
{
	(void)ctx;
	return seq < 50 ? 100 + seq : 0;
}

static int call(struct agent_client *c, enum agent_op op, const char *probe,
		enum probe_window w, long seq)
{
	struct agent_req q = { .op = op, .w = w, .seq = seq };

	snprintf(q.probe, sizeof(q.probe), "%s", probe);
	return agent_client_call(c, &q);
}

/* Five invocation windows and the cell of the null probe; start of 2 fails. */
static int session(struct agent_client *c, int *acks)
{
	long i;
	int k = 0;

	acks[k++] = call(c, AGENT_OPEN, "null", 0, 0);
	acks[k++] = call(c, AGENT_OPEN, "latency", 0, 0);
	acks[k++] = call(c, AGENT_OPEN, "nope", 0, 0);
	acks[k++] = call(c, AGENT_START, "null", PROBE_WINDOW_CELL, 0);
	for (i = 0; i < 5; i++) {
		acks[k++] = call(c, AGENT_START, "null", PROBE_WINDOW_INVOCATION, i);
		acks[k++] = call(c, AGENT_STOP, "null", PROBE_WINDOW_INVOCATION, i);
		acks[k++] = call(c, AGENT_EMIT, "null", PROBE_WINDOW_INVOCATION, i);
	}
	acks[k++] = call(c, AGENT_STOP, "null", PROBE_WINDOW_CELL, 0);
	acks[k++] = call(c, AGENT_EMIT, "null", PROBE_WINDOW_CELL, 0);
	acks[k++] = call(c, AGENT_CLOSE, "null", 0, 0);
	acks[k++] = call(c, AGENT_EMIT, "null", PROBE_WINDOW_CELL, 0);
	return k;
}

static const char expect_rows[] =
	"S nope not a probe of this build (cvmbench list)\n"
	"M null 100 window 0 count\n"
	"M null 101 window 1 count\n"
	"S null invocation 2 window: start failed: start failed on purpose (CVMBENCH_NULL_FAIL)\n"
	"M null 103 window 3 count\n"
	"M null 104 window 4 count\n"
	"M null 0 windows_started 5 count\n"
	"M null 0 windows_stopped 4 count\n"
	"M null 0 windows_with_pids 0 count\n";

static void check_session(const char *how, const char *who, const int *acks, int k)
{
	char first[64];
	size_t n;
	static const int expect[] = { 0, -EINVAL, -ENOTSUP, 0,
				      0, 0, 0, 0, 0, 0, -EIO, 0, 0, 0, 0, 0, 0, 0, 0,
				      0, 0, 0, -ENOENT };
	int i, ok = k == (int)(sizeof(expect) / sizeof(expect[0]));

	for (i = 0; ok && i < k; i++)
		if (acks[i] != expect[i]) {
			printf("# ack %d: %d, expected %d\n", i, acks[i], expect[i]);
			ok = 0;
		}
	tap_ok(ok, "%s: every ack as expected (open of a host probe and of an unknown one "
	       "refused, start of window 2 failed, emit after close refused)", how);
	n = (size_t)snprintf(first, sizeof(first), "N null agent %s\n", who);
	if (!tap_ok(!strncmp(rows_log, first, n) && !strcmp(rows_log + n, expect_rows),
		    "%s: rows stored, the agent noted, window 2 a skip and no number, "
		    "windows mapped to invocation rows", how))
		printf("# got:\n%s", rows_log);
}

static void test_loopback(void)
{
	struct agent_client c = { .base = { .ops = &cap_ops }, .inv_id = inv_id };
	struct probe_target t = { 0 };
	int acks[32], k;

	rows_log[0] = '\0';
	if (agent_client_loopback(&c, &t)) {
		tap_ok(0, "loopback agent");
		return;
	}
	k = session(&c, acks);
	agent_client_close(&c);
	check_session("in-process", "in-process", acks, k);
}

/* The agent on the child's ends of two pipes, as a guest's would be. */
static void serve_child(int in, int out)
{
	struct probe_target t = { 0 };
	struct agent *a = agent_new(&t, "pipe (child)", agent_fd_writer, &out);

	_exit(a && !agent_serve(a, in) ? 0 : 1);
}

/* Sends one row and a cut one, then dies. */
static void dying_child(int in, int out)
{
	const char row[] = "metric idle inv 3 halt_entries 42 count\nmetric idle inv";
	char buf[64];

	if (read(in, buf, sizeof(buf)) <= 0 || write(out, row, strlen(row)) < 0)
		_exit(1);
	_exit(0);
}

/* @child(in, out) in a child process, @c connected to it by two pipes. */
static pid_t fork_child(struct agent_client *c, void (*child)(int in, int out))
{
	int req[2], rep[2];
	pid_t pid;

	if (pipe(req) || pipe(rep) || (pid = fork()) < 0) {
		tap_ok(0, "pipes and fork");
		return -1;
	}
	if (!pid) {
		close(req[1]);
		close(rep[0]);
		child(req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	agent_client_fds(c, req[1], rep[0]);
	return pid;
}

/* The agent in a child process, on two pipes. */
static void test_pipes(void)
{
	struct agent_client c = { .base = { .ops = &cap_ops }, .inv_id = inv_id };
	int acks[32], k, status;
	pid_t pid;

	rows_log[0] = '\0';
	pid = fork_child(&c, serve_child);
	if (pid < 0)
		return;
	k = session(&c, acks);
	close(c.to_fd);
	waitpid(pid, &status, 0);
	close(c.from_fd);
	check_session("two pipes", "pipe", acks, k);
	tap_ok(WIFEXITED(status) && !WEXITSTATUS(status), "the agent ended at end of file");
}

/* An agent that sends one row and dies: the row is kept, the call fails. */
static void test_dying_agent(void)
{
	struct agent_client c = { .base = { .ops = &cap_ops }, .inv_id = inv_id };
	pid_t pid;
	int err;

	rows_log[0] = '\0';
	pid = fork_child(&c, dying_child);
	if (pid < 0)
		return;
	err = call(&c, AGENT_EMIT, "idle", PROBE_WINDOW_INVOCATION, 3);
	waitpid(pid, NULL, 0);
	close(c.to_fd);
	close(c.from_fd);
	tap_ok(err == -EPIPE && strstr(c.error, "closed"), "a dead agent: -EPIPE (%s)", c.error);
	tap_ok(!strcmp(rows_log, "M idle 103 halt_entries 42 count\n"),
	       "the row it sent before dying is stored, the cut line is not");
}

int main(void)
{
	signal(SIGPIPE, SIG_IGN);
	setenv("CVMBENCH_NULL_FAIL", "start:2", 1);
	tap_plan(24);
	test_requests();
	test_rows();
	test_bad_rows();
	test_loopback();
	test_pipes();
	test_dying_agent();
	return tap_done();
}
