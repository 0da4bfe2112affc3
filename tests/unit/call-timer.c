// SPDX-License-Identifier: MIT
/*
 * tests/unit/call-timer.c - the call timeout without poll() (call-timer.c
 * under bench/backends/instance.c): a silent instance times out near its deadline,
 * not before and not never; 3000 quick calls with a 20 ms timeout, lasting
 * far longer than 20 ms together, never time out by mistake; a call with a
 * short timeout right after one with a long timeout times out at its own
 * deadline (the watchdog slept until the long one's: runc-cleanup.t's
 * start-timeout after a failed cell waited for the hung runtime); a signal
 * of the process (SIGINT) still ends a blocked call as "interrupted".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "instance.h"
#include "tap.h"

/* Answers "invoke N" with the two reply lines, until "hang" or EOF. */
static void fake(int in, int out)
{
	char buf[128], reply[128];
	long seq;
	FILE *f = fdopen(in, "r");

	while (f && fgets(buf, sizeof(buf), f)) {
		if (sscanf(buf, "invoke %ld", &seq) != 1 || seq < 0)
			pause();
		snprintf(reply, sizeof(reply), "done %ld ok=1 fn_ns=1\ndigest %ld none\n", seq,
			 seq);
		if (write(out, reply, strlen(reply)) < 0)
			_exit(1);
	}
	_exit(0);
}

static pid_t start_fake(struct instance *in)
{
	int req[2], rep[2];
	pid_t pid;

	memset(in, 0, sizeof(*in));
	if (pipe(req) || pipe(rep) || (pid = fork()) < 0)
		return -1;
	if (!pid) {
		close(req[1]);
		close(rep[0]);
		fake(req[0], rep[1]);
	}
	close(req[0]);
	close(rep[1]);
	in->pid = pid;
	in->to_fd = req[1];
	in->from_fd = rep[0];
	return pid;
}

static volatile sig_atomic_t got_int;

static void on_int(int sig)
{
	(void)sig;
	got_int = 1;
}

int main(void)
{
	struct sigaction sa = { .sa_handler = on_int };
	struct invoke_result r;
	struct instance in, in2;
	long long t0, took;
	int i, bad = 0, err;
	pid_t pid, killer;

	tap_plan(8);
	sigaction(SIGINT, &sa, NULL);
	signal(SIGPIPE, SIG_IGN);
	if (start_fake(&in) < 0)
		return tap_ok(0, "fake instance"), 1;
	for (i = 0; i < 3000; i++) {
		err = instance_invoke(&in, i, 0.02, &r);
		bad += err || !r.ok;
	}
	tap_ok(!bad, "3000 quick calls with a 20 ms timeout: none timed out (%d failed)", bad);
	t0 = clock_now_ns();
	err = instance_invoke(&in, -1, 0.3, &r);
	took = clock_now_ns() - t0;
	tap_ok(err == -ETIMEDOUT, "a call that never gets a reply times out (%d)", err);
	tap_ok(took >= 300000000LL && took < 1500000000LL, "near its deadline: %.3f s for 0.3 s",
	       took / 1e9);
	tap_contains(r.error, "no reply in time", "the error says so");
	/* another instance: a quick call with a 30 s timeout, then a silent one with 0.3 s */
	if (start_fake(&in2) < 0)
		return tap_ok(0, "second fake instance"), 1;
	err = instance_invoke(&in2, 0, 30, &r);
	usleep(100000);      /* the watchdog has gone to sleep until the 30 s deadline */
	t0 = clock_now_ns();
	err = err ? err : instance_invoke(&in2, -1, 0.3, &r);
	took = clock_now_ns() - t0;
	tap_ok(err == -ETIMEDOUT, "after a call with a 30 s timeout, a silent one of 0.3 s times out (%d)",
	       err);
	tap_ok(took >= 300000000LL && took < 1500000000LL,
	       "... at its own deadline, not the 30 s one: %.3f s", took / 1e9);
	kill(in2.pid, SIGKILL);
	instance_close(&in2, 1.0);
	/* a SIGINT to the process while blocked: interrupted, not a timeout */
	pid = getpid();
	killer = fork();
	if (!killer) {
		usleep(200000);
		kill(pid, SIGINT);
		_exit(0);
	}
	t0 = clock_now_ns();
	err = instance_invoke(&in, -1, 30, &r);
	took = clock_now_ns() - t0;
	waitpid(killer, NULL, 0);
	tap_ok(err == -EINTR && got_int, "SIGINT ends a blocked call as interrupted (%d)", err);
	tap_ok(took < 5000000000LL, "at once, not at the 30 s deadline (%.3f s)", took / 1e9);
	kill(in.pid, SIGKILL);
	instance_close(&in, 1.0);
	return tap_done();
}
