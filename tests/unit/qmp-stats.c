// SPDX-License-Identifier: MIT
/*
 * tests/unit/qmp-stats.c - KVM's statistics over QMP (lib/qmp.c) and
 * the vmexit table's 1 % fidelity flag (probes/vmexit-sink.c), without a
 * VM: query-stats replies from tests/fixtures/qmp/ (one captured from QEMU
 * 7.2 under TCG, the others hand-written to qapi/stats.json; the expected
 * sums below are worked out by hand from the file), a QMP server played by
 * a child process on a Unix socket (greeting, capabilities, an event
 * before the reply), the socket and VM index found on a QEMU command line,
 * and the flag on synthetic numbers on both sides of 1 %. Regressions: the
 * request names the statistics it sums (it asked for all, histograms too);
 * a reply of 40 vCPUs with histograms, over 64 KiB on one line, is read
 * (it was -EMSGSIZE); a socket path with a comma, written ",," on QEMU's
 * command line, is found unescaped. Against a real
 * QEMU (qemu-system-x86_64 -machine none under TCG, the -qmp argument as
 * the qemu backend writes it): the socket found from its pid, the
 * handshake, and query-stats giving no KVM statistics, which is a reason,
 * not zeros. Without QEMU that check is a SKIP (a failure under CI).
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "qmp.h"
#include "fixture-line.h"
#include "tap.h"
#include "vmexit-sink.h"

#define FIX "tests/fixtures/qmp/"

static const char *const names[] = { "exits", "halt_exits", "io_exits", "halt_wait_ns",
				      "halt_wait_hist", "no_such_stat" };
#define N (sizeof(names) / sizeof(names[0]))

static int parse(const char *f, uint64_t *s, int *nv, char *err, size_t len)
{
	char *j = first_line(f);
	int ret = j ? qmp_stats_parse(j, names, N, s, nv, err, len) : -ENOENT;

	free(j);
	return ret;
}

static void parse_checks(void)
{
	uint64_t s[N];
	char err[256] = "";
	int nv, ret = parse(FIX "query-stats-kvm.json", s, &nv, err, sizeof(err));

	tap_ok(!ret && nv == 2 && s[0] == 61234 + 4766 && s[1] == 430 + 21 &&
	       s[2] == 20412 + 8 && s[3] == 981234567ULL + 1000000000ULL,
	       "two vCPUs summed: exits 66000, halt_exits 451, io_exits 20420, halt_wait_ns");
	tap_ok(!ret && s[4] == QMP_STAT_ABSENT && s[5] == QMP_STAT_ABSENT,
	       "a histogram is not summed and a missing statistic is absent, not 0");
	ret = parse(FIX "query-stats-tcg.json", s, &nv, err, sizeof(err));
	tap_ok(ret == -ENODATA && nv == 0 && s[0] == QMP_STAT_ABSENT &&
	       strstr(err, "not run under KVM"), "TCG (captured): no statistics, why (%s)", err);
	ret = parse(FIX "query-stats-7.0.json", s, &nv, err, sizeof(err));
	tap_ok(ret == -EREMOTEIO && strstr(err, "CommandNotFound"),
	       "QEMU before 7.1: its error is the reason (%s)", err);
	ret = qmp_stats_parse("{\"return\": {}}", names, N, s, &nv, err, sizeof(err));
	tap_ok(ret == -EPROTO, "a reply that is not a list: -EPROTO (%s)", err);
	ret = qmp_stats_parse("not json", names, N, s, &nv, err, sizeof(err));
	tap_ok(ret == -EPROTO, "not JSON: -EPROTO");
}

static void cmdline_checks(void)
{
	static const char cmd[] = "qemu-system-x86_64\0-append\0console=ttyS0 panic=-1 "
		"cvmbench.vm=3\0-qmp\0unix:/tmp/cvmbench-vm-1-0/qmp.sock,server=on,wait=off\0";
	static const char none[] = "qemu-system-x86_64\0-qmp\0tcp:localhost:4444\0";
	static const char comma[] = "qemu-system-x86_64\0-qmp\0"
		"unix:/tmp/a,,b,,,,c/qmp.sock,server=on,wait=off\0";
	char path[108] = "";
	int vm = -2, ret = qmp_cmdline_find(cmd, sizeof(cmd) - 1, path, sizeof(path), &vm);

	tap_ok(!ret && !strcmp(path, "/tmp/cvmbench-vm-1-0/qmp.sock") && vm == 3,
	       "socket and VM index from a QEMU command line (%s, %d)", path, vm);
	ret = qmp_cmdline_find(none, sizeof(none) - 1, path, sizeof(path), &vm);
	tap_ok(ret == -ENOENT && vm == -1, "no unix QMP socket, no VM index: -ENOENT");
	ret = qmp_cmdline_find(comma, sizeof(comma) - 1, path, sizeof(path), &vm);
	tap_ok(!ret && !strcmp(path, "/tmp/a,b,,c/qmp.sock"),
	       "a path with commas, written ',,' by QEMU's syntax: unescaped (%s)", path);
}

/*
 * The child: a QMP server answering one client from fixture @reply; with
 * @reply NULL it hangs up after the handshake (QEMU gone).
 */
static void server(int lfd, const char *reply)
{
	char buf[4096], *r = reply ? first_line(reply) : NULL;
	int fd = accept(lfd, NULL, NULL);
	ssize_t n;

	if (fd < 0 || (reply && !r))
		_exit(1);
	dprintf(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": [\"oob\"]}}\r\n");
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0 || !memmem(buf, (size_t)n, "qmp_capabilities", 16))
		_exit(2);
	dprintf(fd, "{\"return\": {}}\r\n");
	if (!reply) {
		close(fd);
		_exit(0);
	}
	n = read(fd, buf, sizeof(buf) - 1);
	if (n <= 0 || !memmem(buf, (size_t)n, "\"query-stats\"", 13) ||
	    !memmem(buf, (size_t)n, "\"vcpu\"", 6))
		_exit(3);
	if (!memmem(buf, (size_t)n, "\"names\":[\"exits\",\"halt_exits\"", 29))
		_exit(4);         /* every statistic asked for, histograms too */
	dprintf(fd, "{\"event\": \"RTC_CHANGE\", \"data\": {\"offset\": 0}}\r\n%s", r);
	_exit(0);
}

/* A reply of @nv vCPUs, each exits = 7 and a histogram of 600 buckets (~2.4 KB). */
static char *big_reply(int nv)
{
	size_t cap = (size_t)nv * 4096 + 64, used;
	char *r = malloc(cap);
	int i, b;

	if (!r)
		return NULL;
	used = (size_t)snprintf(r, cap, "{\"return\": [");
	for (i = 0; i < nv; i++) {
		used += (size_t)snprintf(r + used, cap - used, "%s{\"provider\": \"kvm\", "
					 "\"qom-path\": \"/machine/unattached/device[%d]\", "
					 "\"stats\": [{\"name\": \"exits\", \"value\": 7}, "
					 "{\"name\": \"halt_wait_hist\", \"value\": [",
					 i ? ", " : "", i);
		for (b = 0; b < 600; b++)
			used += (size_t)snprintf(r + used, cap - used, "%s%d", b ? "," : "", b);
		used += (size_t)snprintf(r + used, cap - used, "]}]}");
	}
	snprintf(r + used, cap - used, "]}\n");
	return r;
}

static void big_server(int lfd, const char *reply)
{
	char buf[4096];
	int fd = accept(lfd, NULL, NULL);

	if (fd < 0 || !reply)
		_exit(1);
	dprintf(fd, "{\"QMP\": {\"version\": {}, \"capabilities\": []}}\r\n");
	if (read(fd, buf, sizeof(buf)) <= 0)
		_exit(2);
	dprintf(fd, "{\"return\": {}}\r\n");
	if (read(fd, buf, sizeof(buf)) <= 0)
		_exit(3);
	_exit(write(fd, reply, strlen(reply)) == (ssize_t)strlen(reply) ? 0 : 4);
}

static void socket_checks(void)
{
	char dir[] = "/tmp/qmp-test-XXXXXX", path[128], err[256] = "";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	struct qmp *q = NULL;
	uint64_t s[N];
	int lfd, nv = 0, ret, st = -1;
	char *big;
	pid_t kid;

	if (!mkdtemp(dir))
		return (void)tap_ok(0, "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/qmp.sock", dir);
	strcpy(sa.sun_path, path);
	lfd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (struct sockaddr *)&sa, sizeof(sa)) || listen(lfd, 1))
		return (void)tap_ok(0, "listen on %s: %s", path, strerror(errno));
	kid = fork();
	if (!kid)
		server(lfd, FIX "query-stats-kvm.json");
	ret = qmp_open(&q, path, 5000, err, sizeof(err));
	ret = ret ?: qmp_vcpu_stats(q, names, N, s, &nv, 5000, err, sizeof(err));
	qmp_close(q);
	waitpid(kid, &st, 0);
	tap_ok(!ret && nv == 2 && s[0] == 66000 && WIFEXITED(st) && !WEXITSTATUS(st),
	       "over a socket: handshake, an event skipped, the reply summed (%s, server %d)",
	       err, WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	kid = fork();
	if (!kid)
		server(lfd, NULL);
	ret = qmp_open(&q, path, 5000, err, sizeof(err));
	waitpid(kid, &st, 0);
	ret = ret ?: qmp_vcpu_stats(q, names, N, s, &nv, 5000, err, sizeof(err));
	ret = ret ?: qmp_vcpu_stats(q, names, N, s, &nv, 5000, err, sizeof(err));
	qmp_close(q);
	tap_ok(ret < 0 && strstr(err, "query-stats"), "QEMU gone after the handshake: an "
	       "error, not a SIGPIPE (%s)", err);
	big = big_reply(40);
	kid = fork();
	if (!kid)
		big_server(lfd, big);
	err[0] = '\0';
	ret = qmp_open(&q, path, 5000, err, sizeof(err));
	ret = ret ?: qmp_vcpu_stats(q, names, N, s, &nv, 5000, err, sizeof(err));
	qmp_close(q);
	waitpid(kid, &st, 0);
	tap_ok(!ret && nv == 40 && s[0] == 280, "a reply of 40 vCPUs with histograms, %zu "
	       "bytes on one line: read (%d vCPUs, exits %llu; %s)", big ? strlen(big) : 0, nv,
	       (unsigned long long)s[0], err);
	free(big);
	ret = qmp_open(&q, path, 500, err, sizeof(err));
	tap_ok(ret < 0 && !q && err[0], "nobody answering: an error naming it (%s)", err);
	close(lfd);
	unlink(path);
	rmdir(dir);
}

/* Connect to @path until QEMU listens (up to 20 s). */
static int qmp_wait(struct qmp **q, const char *path, char *err, size_t len)
{
	int i, ret = -ENOENT;

	for (i = 0; i < 200 && ret; i++) {
		ret = qmp_open(q, path, 5000, err, len);
		if (ret)
			usleep(100000);
	}
	return ret;
}

static void real_qemu_checks(void)
{
	char dir[] = "/tmp/qmp-qemu-XXXXXX", path[128], arg[160], found[128] = "",
	     err[256] = "";
	struct qmp *q = NULL;
	uint64_t s[N];
	int vm = -2, nv = -1, ret;
	pid_t kid;

	if (system("command -v qemu-system-x86_64 > /dev/null 2>&1")) {
		if (getenv("CI"))
			tap_ok(0, "qemu-system-x86_64 is missing under CI");
		else
			printf("ok %d # SKIP qemu-system-x86_64 is not installed\n", ++tap_count);
		return;
	}
	if (!mkdtemp(dir))
		return (void)tap_ok(0, "mkdtemp: %s", strerror(errno));
	snprintf(path, sizeof(path), "%s/qmp.sock", dir);
	snprintf(arg, sizeof(arg), "unix:%s,server=on,wait=off", path);
	kid = fork();
	if (!kid) {
		execlp("qemu-system-x86_64", "qemu-system-x86_64", "-machine", "none", "-accel",
		       "tcg", "-display", "none", "-nodefaults", "-no-user-config", "-qmp", arg,
		       (char *)NULL);
		_exit(127);
	}
	ret = qmp_wait(&q, path, err, sizeof(err));
	if (!ret)
		qmp_pid_find(kid, found, sizeof(found), &vm);
	ret = ret ?: qmp_vcpu_stats(q, names, N, s, &nv, 5000, err, sizeof(err));
	tap_ok(ret == -ENODATA && nv == 0 && !strcmp(found, path) && vm == -1 &&
	       strstr(err, "not run under KVM"), "real QEMU under TCG: socket found from its "
	       "pid (%s), no KVM statistics, the reason (%d: %s)", found, ret, err);
	qmp_close(q);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	unlink(path);
	rmdir(dir);
}

static void fidelity_checks(void)
{
	char b[160] = "";

	tap_ok(!vmexit_fidelity(1000, 1010, 0, b, sizeof(b)) &&
	       !vmexit_fidelity(0, 0, 0, b, sizeof(b)), "0.99 %% apart and both 0: not flagged");
	tap_ok(vmexit_fidelity(1000, 1011, 0, b, sizeof(b)) && strstr(b, "1.09 %"),
	       "1.09 %% apart: flagged (%s)", b);
	tap_ok(vmexit_fidelity(1011, 1000, 0, b, sizeof(b)) &&
	       vmexit_fidelity(0, 5, 0, b, sizeof(b)) && vmexit_fidelity(100, 0, 0, b, sizeof(b)),
	       "either side larger, or one side 0: flagged");
	tap_ok(!vmexit_fidelity(100, 103, 2, b, sizeof(b)) &&
	       vmexit_fidelity(100, 104, 2, b, sizeof(b)) && strstr(b, "kicks"),
	       "2 vCPUs kicked by the closing query: 103 for 100 passes, 104 is flagged (%s)", b);
}

int main(void)
{
	tap_plan(18);
	parse_checks();
	cmdline_checks();
	socket_checks();
	fidelity_checks();
	real_qemu_checks();
	return tap_done();
}
