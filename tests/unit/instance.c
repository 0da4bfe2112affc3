// SPDX-License-Identifier: MIT
/*
 * tests/unit/instance.c - the harness side of protocol.h against a scripted
 * cvmfn in a child process: the round trip ends at the timing line, so a
 * slow hash after it is not in latency_ns; the digest line's three forms
 * (sha256 with its time, none, error) and malformed replies.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "instance.h"
#include "tap.h"

#define HEX64 "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"
#define HASH_MS 300

static void say(int fd, const char *s)
{
	if (write(fd, s, strlen(s)) < 0)
		_exit(1);
}

/* The scripted cvmfn: one reply per request, a slow "hash" on call 1. */
static void fake_cvmfn(int in, int out)
{
	struct timespec hash = { 0, HASH_MS * 1000000L };
	char buf[256];
	long seq = 0;
	FILE *f = fdopen(in, "r");

	say(out, "ready pid=1 init_ns=1 rss_kb=1 pss_kb=1 threads=1 interp_ns=41 import_ns=907"
		 " runtime=python3.11.2\n");
	while (f && fgets(buf, sizeof(buf), f) && sscanf(buf, "invoke %ld", &seq) == 1) {
		if (seq == 1) {
			say(out, "done 1 ok=1 fn_ns=123\n");
			nanosleep(&hash, NULL);
			say(out, "digest 1 sha256=" HEX64 " digest_ns=300000000\n");
		} else if (seq == 2) {
			say(out, "done 2 ok=1 fn_ns=5\ndigest 2 none\n");
		} else if (seq == 3) {
			say(out, "done 3 ok=1 fn_ns=5\ndigest 3 error=Cannot allocate memory\n");
		} else if (seq == 4) {
			say(out, "done 4 ok=0 fn_ns=7 error=boom\n");
		} else if (seq == 5) {
			say(out, "done 5 ok=1 fn_ns=5\ndigest 5 sha256=abc digest_ns=1\n");
		} else {
			say(out, "done 6 ok=1 fn_ns=5 digest=" HEX64 "\n");
		}
	}
	_exit(0);
}

static pid_t start(struct instance *in)
{
	int req[2], rep[2];
	pid_t pid;

	memset(in, 0, sizeof(*in));
	if (pipe(req) || pipe(rep))
		return -1;
	pid = fork();
	if (pid == 0) {
		close(req[1]);
		close(rep[0]);
		fake_cvmfn(req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	in->pid = pid;
	in->to_fd = req[1];
	in->from_fd = rep[0];
	in->spawn_ns = clock_now_ns();
	return pid;
}

int main(void)
{
	struct invoke_result r;
	struct instance in;
	int err;

	signal(SIGPIPE, SIG_IGN);
	tap_plan(14);
	if (start(&in) < 0 || instance_handshake(&in, 5.0)) {
		printf("Bail out! cannot start the scripted cvmfn\n");
		return 1;
	}
	tap_ok(in.interp_ns == 41 && in.import_ns == 907 && !strcmp(in.runtime, "python3.11.2"),
	       "a Python twin's ready line: interp_ns %lld, import_ns %lld, runtime %s",
	       in.interp_ns, in.import_ns, in.runtime);
	err = instance_invoke(&in, 1, 5.0, &r);
	tap_ok(!err && r.ok && r.fn_ns == 123, "call 1 ok with fn_ns 123 (err %d)", err);
	tap_ok(r.latency_ns > 0 && r.latency_ns < HASH_MS * 1000000LL / 2,
	       "round trip %.1f ms ends at the timing line, before the %d ms hash",
	       r.latency_ns / 1e6, HASH_MS);
	tap_ok(!strcmp(r.digest, HEX64) && r.digest_ns == 300000000,
	       "digest and digest_ns from the line after it");
	err = instance_invoke(&in, 2, 5.0, &r);
	tap_ok(!err && r.ok && !r.digest[0] && r.digest_ns < 0,
	       "'digest 2 none': ok, no digest, digest_ns unknown");
	err = instance_invoke(&in, 3, 5.0, &r);
	tap_ok(!err && !r.ok, "'digest 3 error=...': the call failed");
	tap_contains(r.error, "digest: Cannot allocate memory", "and says why");
	err = instance_invoke(&in, 4, 5.0, &r);
	tap_ok(!err && !r.ok && r.fn_ns == 7, "ok=0: no digest line is awaited");
	tap_contains(r.error, "boom", "its error is kept");
	err = instance_invoke(&in, 5, 5.0, &r);
	tap_ok(err == -EPROTO && !r.digest[0], "a digest that is not 64 hex digits is refused");
	tap_contains(r.error, "unexpected reply 'digest 5", "naming the reply");
	err = instance_invoke(&in, 6, 5.0, &r);
	tap_ok(err == -EPROTO, "the old one-line reply (digest on the done line) is refused");
	tap_contains(r.error, "unexpected reply 'done 6", "naming the reply");
	instance_close(&in, 2.0);
	tap_ok(in.pid == -1, "instance closed and reaped");
	return tap_done();
}
