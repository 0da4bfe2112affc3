// SPDX-License-Identifier: MIT
/*
 * vm-io.c - booting a VM to its ready line and talking to the guest:
 * the boot phases are taken on the host's CLOCK_MONOTONIC from the spawn
 * of QEMU (first byte on the serial console, arrival of the ready line)
 * and from the guest's own /proc/uptime, which the ready line carries.
 */
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "instance.h"
#include "vm-local.h"
#include "vm.h"

#define READY_PREFIX "cvmbench-ready "
/* a kernel panic's message is about 20 lines above its end */
#define VM_TAIL_LINES 25

/* One complete line out of the read buffer, if there is one. */
static int take_line(struct vm *vm, char *line, size_t len)
{
	char *nl = memchr(vm->rbuf, '\n', vm->rlen);
	size_t n;

	if (!nl)
		return 0;
	n = (size_t)(nl - vm->rbuf);
	snprintf(line, len, "%.*s", (int)n, vm->rbuf);
	memmove(vm->rbuf, nl + 1, vm->rlen - n - 1);
	vm->rlen -= n + 1;
	return 1;
}

/* Read what the socket has; -EPIPE when the guest side closed. */
static int fill(struct vm *vm)
{
	ssize_t n;

	if (vm->rlen + 1 >= sizeof(vm->rbuf))
		return -ENOBUFS;      /* a line longer than the buffer */
	n = read(vm->fd, vm->rbuf + vm->rlen, sizeof(vm->rbuf) - vm->rlen - 1);
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? 0 : -errno;
	if (n == 0)
		return -EPIPE;
	vm->rlen += (size_t)n;
	return 0;
}

static void note_console(struct vm *vm)
{
	struct stat st;

	if (vm->ph.first_console < 0 && !stat(vm->console, &st) && st.st_size > 0)
		vm->ph.first_console = clock_now_ns() - vm->ph.spawn_ns;
}

static int qemu_ended(struct vm *vm, int *status)
{
	pid_t r = waitpid(vm->pid, status, WNOHANG);

	if (r == vm->pid) {
		vm->pid = 0;
		return 1;
	}
	return 0;
}

/* One step of the boot wait: accept, read, look for the ready line. */
static int boot_step(struct vm *vm)
{
	struct pollfd p = { vm->fd >= 0 ? vm->fd : vm->listen_fd, POLLIN, 0 };
	char line[512];
	int ret = 0;

	if (poll(&p, 1, 10) <= 0)
		return 0;
	if (vm->fd < 0) {
		vm->fd = accept4(vm->listen_fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
		return 0;
	}
	ret = fill(vm);
	while (!ret && take_line(vm, line, sizeof(line))) {
		if (strncmp(line, READY_PREFIX, strlen(READY_PREFIX)))
			continue;     /* nothing is spoken before ready */
		vm->ph.ready = clock_now_ns() - vm->ph.spawn_ns;
		snprintf(vm->ready_line, sizeof(vm->ready_line), "%s", line);
		if (sscanf(strstr(line, "uptime=") ? strstr(line, "uptime=") : "",
			   "uptime=%lf", &vm->ph.guest_uptime_s) != 1)
			vm->ph.guest_uptime_s = -1;
		return 1;
	}
	return ret;
}

static void boot_error(struct vm *vm, const char *why, char *err, size_t errlen)
{
	char tail[4096], qlog[512] = "";
	FILE *f = fopen(vm->log, "re");
	size_t n = 0;

	if (f) {
		n = fread(qlog, 1, sizeof(qlog) - 1, f);
		fclose(f);
	}
	qlog[n] = '\0';
	vm_console_tail(vm, VM_TAIL_LINES, tail, sizeof(tail));
	snprintf(err, errlen, "%s%s%s\n--- last console lines ---\n%s", why,
		 n ? "; QEMU said: " : "", qlog, tail[0] ? tail : "(no console output)\n");
}

static int wait_ready(struct vm *vm, double timeout_s, char *err, size_t errlen)
{
	long long deadline = vm->ph.spawn_ns + (long long)(timeout_s * 1e9);
	char why[256];
	int status = 0, ret = 0;

	while (!ret && clock_now_ns() < deadline) {
		note_console(vm);
		if (qemu_ended(vm, &status)) {
			snprintf(why, sizeof(why), "QEMU ended (%s %d) before the guest was ready",
				 WIFEXITED(status) ? "exit status" : "signal",
				 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status));
			boot_error(vm, why, err, errlen);
			return -ECHILD;
		}
		ret = boot_step(vm);
	}
	if (ret == 1)
		return 0;
	/* the port closes when QEMU ends: say that, if it did */
	if (ret < 0 && vm_wait_exit(vm, 2000)) {
		boot_error(vm, "QEMU ended before the guest was ready", err, errlen);
		return -ECHILD;
	}
	if (ret < 0)
		snprintf(why, sizeof(why), "the guest's port closed before ready: %s",
			 strerror(-ret));
	else
		snprintf(why, sizeof(why), "the guest was not ready within %.1f s", timeout_s);
	boot_error(vm, why, err, errlen);
	return ret < 0 ? ret : -ETIMEDOUT;
}

int vm_start(struct vm *vm, const struct vm_config *c, double timeout_s,
	     char *err, size_t errlen)
{
	static struct qemu_argv a;
	struct vm_config cc = *c;
	int ret = vm_check(c, err, errlen);

	if (ret) {
		vm_init(vm);
		return ret;
	}
	ret = vm_prepare(vm, c->instance_ports);
	if (ret) {
		snprintf(err, errlen, "VM directory and socket: %s", strerror(-ret));
		goto fail;
	}
	cc.console = vm->console;
	cc.agent_socket = vm->sock;
	cc.port_dir = vm->dir;
	cc.qmp_socket = vm->qmp;
	ret = qemu_argv_build(&cc, &a, err, errlen);
	if (ret)
		goto fail;
	ret = vm_spawn(vm, &a);
	if (ret) {
		snprintf(err, errlen, "starting %s: %s", a.argv[0], strerror(-ret));
		goto fail;
	}
	ret = wait_ready(vm, timeout_s, err, errlen);
	if (!ret && vm_accept_ports(vm, 5000)) {
		ret = -EPROTO;
		boot_error(vm, "QEMU did not connect to every instance port's socket", err, errlen);
	}
	if (!ret)
		return 0;
fail:
	vm_stop(vm);
	return ret;
}

int vm_send(struct vm *vm, const char *line)
{
	size_t n = strlen(line);
	struct pollfd p = { vm->fd, POLLOUT, 0 };

	if (vm->fd < 0 || strchr(line, '\n'))
		return -EINVAL;
	if (poll(&p, 1, 5000) != 1 || write(vm->fd, line, n) != (ssize_t)n ||
	    write(vm->fd, "\n", 1) != 1)
		return -EIO;
	return 0;
}

int vm_recv(struct vm *vm, char *line, size_t len, int timeout_ms)
{
	long long deadline = clock_now_ns() + (long long)timeout_ms * 1000000;
	struct pollfd p = { vm->fd, POLLIN, 0 };
	int ret;

	while (!take_line(vm, line, len)) {
		if (clock_now_ns() >= deadline)
			return -ETIMEDOUT;
		if (poll(&p, 1, 10) == 1) {
			ret = fill(vm);
			if (ret)
				return ret;
		}
	}
	return 0;
}

void vm_console_tail(const struct vm *vm, int lines, char *buf, size_t len)
{
	char raw[4096];
	FILE *f = fopen(vm->console, "re");
	size_t n = 0, o = 0, i;
	long start;
	int seen = 0;

	buf[0] = '\0';
	if (!f)
		return;
	fseek(f, 0, SEEK_END);
	start = ftell(f) > (long)sizeof(raw) - 1 ? ftell(f) - (long)sizeof(raw) + 1 : 0;
	fseek(f, start, SEEK_SET);
	n = fread(raw, 1, sizeof(raw) - 1, f);
	fclose(f);
	while (n && (raw[n - 1] == '\n' || raw[n - 1] == '\r'))
		n--;
	for (i = n; i > 0; i--)
		if (raw[i - 1] == '\n' && ++seen == lines)
			break;
	for (; i < n && o + 2 < len; i++)
		if (raw[i] != '\r')
			buf[o++] = raw[i];
	buf[o++] = '\n';
	buf[o] = '\0';
}

int vm_wait_exit(struct vm *vm, int timeout_ms)
{
	long long deadline = clock_now_ns() + (long long)timeout_ms * 1000000;
	int status;

	while (vm->pid > 0 && clock_now_ns() < deadline) {
		if (qemu_ended(vm, &status))
			return 1;
		usleep(10000);
	}
	return vm->pid == 0;
}
