// SPDX-License-Identifier: MIT
/*
 * vm.c - QEMU process lifecycle of one VM: a private directory for its
 * socket, console and log; the host's listening Unix socket (QEMU connects
 * to it at start, so no guest output is lost before the host is there);
 * fork, journal the pid, then exec; kill and reap on every exit path.
 * The directory is journalled too (kind "qemu-vm-dir"), so `cvmbench
 * restore` removes it after a kill -9.
 * Waiting for the guest and talking to it are in vm-io.c.
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "clock.h"
#include "instance.h"
#include "journal.h"
#include "log.h"
#include "guest-local.h"
#include "vm-local.h"
#include "vm.h"
#include "vm-memcg.h"

/* The files a VM's private directory can hold: nothing else is removed. */
static const char *const dir_files[] = { "console", "agent.sock", "qemu.log", "qmp.sock" };
/* ... and the instance ports' sockets i0.sock ... i28.sock */

/* Journal kind "qemu-vm-dir": the directory and only its known files (above). */
static int vm_dir_undo(const char *dir)
{
	const char *base = strrchr(dir, '/');
	char path[PATH_MAX];
	size_t i;

	if (!base || strncmp(base + 1, "cvmbench-vm-", 12))
		return -EINVAL;
	for (i = 0; i < sizeof(dir_files) / sizeof(dir_files[0]); i++)
		if (!guest_path(path, sizeof(path), "%s/%s", dir, dir_files[i]))
			unlink(path);
	for (i = 0; i < QEMU_MAX_INSTANCE_PORTS; i++)
		if (!guest_path(path, sizeof(path), "%s/i%zu.sock", dir, i))
			unlink(path);
	return rmdir(dir) ? -errno : 0;
}

static const struct journal_kind kind_vm_dir = { "qemu-vm-dir", vm_dir_undo };
JOURNAL_KIND_REGISTER(kind_vm_dir)

/* A fresh name, journalled (when a journal is open) before it is made. */
static int private_dir(struct vm *vm)
{
	/* a Unix socket path has 108 bytes: a TMPDIR of 60 or more is not used */
	int ret = journal_tmpdir(kind_vm_dir.kind, "vm", 60, vm->dir, sizeof(vm->dir),
				 &vm->dir_id);

	if (ret)
		return ret;        /* vm_stop() closes the entry */
	guest_path(vm->console, sizeof(vm->console), "%s/%s", vm->dir, dir_files[0]);
	guest_path(vm->sock, sizeof(vm->sock), "%s/%s", vm->dir, dir_files[1]);
	guest_path(vm->log, sizeof(vm->log), "%s/%s", vm->dir, dir_files[2]);
	guest_path(vm->qmp, sizeof(vm->qmp), "%s/%s", vm->dir, dir_files[3]);
	return 0;
}

static int listen_socket(const char *path, int *fd)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	*fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (*fd < 0)
		return -errno;
	if (bind(*fd, (struct sockaddr *)&sa, sizeof(sa)) || listen(*fd, 1))
		return -errno;
	return 0;
}

/* The agent's socket and one per instance port, all before QEMU starts. */
static int listen_sockets(struct vm *vm)
{
	char path[PATH_MAX];
	unsigned int i;
	int ret = listen_socket(vm->sock, &vm->listen_fd);

	for (i = 0; i < vm->nports && !ret; i++) {
		if (guest_path(path, sizeof(path), "%s/i%u.sock", vm->dir, i))
			return -ENAMETOOLONG;
		ret = listen_socket(path, &vm->port_listen[i]);
	}
	return ret;
}

int vm_accept_ports(struct vm *vm, int timeout_ms)
{
	unsigned int i;
	int fl;

	for (i = 0; i < vm->nports; i++) {
		struct pollfd p = { vm->port_listen[i], POLLIN, 0 };

		if (poll(&p, 1, timeout_ms) != 1)
			return -ETIMEDOUT;
		vm->port_fd[i] = accept4(vm->port_listen[i], NULL, NULL, SOCK_CLOEXEC);
		if (vm->port_fd[i] < 0)
			return -errno;
		fl = fcntl(vm->port_fd[i], F_GETFL);
		if (fl < 0 || fcntl(vm->port_fd[i], F_SETFL, fl & ~O_NONBLOCK))
			return -errno;
	}
	return 0;
}

/* The child: die with its parent, wait for the go byte, then exec QEMU. */
static void child(const struct qemu_argv *a, int go_fd, const char *log)
{
	int null, out;
	char go;

	if (prctl(PR_SET_PDEATHSIG, SIGKILL) || getppid() == 1)
		_exit(126);
	if (read(go_fd, &go, 1) != 1)
		_exit(126);      /* the parent could not journal us: do not run */
	/* no file in the directory before the parent knows our pid (Ctrl-C) */
	null = open("/dev/null", O_RDWR);
	out = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0600);
	if (null < 0 || out < 0 || dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(out, 2) < 0)
		_exit(126);
	execvp(a->argv[0], a->argv);
	dprintf(2, "exec %s: %s\n", a->argv[0], strerror(errno));
	_exit(127);
}

static int journal_pid(struct vm *vm)
{
	long id = journal_process(vm->pid);

	/*
	 * -EBADF: no journal is open (`cvmbench guest boot`, tests): the child
	 * still dies with us (PR_SET_PDEATHSIG).
	 */
	if (id == -EBADF) {
		vm->journal_id = 0;
		return 0;
	}
	vm->journal_id = id > 0 ? id : 0;
	return id > 0 ? 0 : (int)id;
}

int vm_spawn(struct vm *vm, const struct qemu_argv *a)
{
	int go[2], ret;

	if (pipe2(go, O_CLOEXEC))
		return -errno;
	vm->pid = fork();
	if (vm->pid == 0) {
		close(go[1]);
		child(a, go[0], vm->log);
	}
	close(go[0]);
	if (vm->pid < 0) {
		ret = -errno;
		vm->pid = 0;
		close(go[1]);
		return ret;
	}
	ret = journal_pid(vm);
	if (!ret)
		vm_memcg_join(vm, vm->pid);      /* before exec: every page is charged there */
	/* the boot is timed from QEMU's release: the journal and cgroup are ours */
	vm->ph.spawn_ns = clock_now_ns();
	if (!ret && write(go[1], "g", 1) != 1)
		ret = -EPIPE;
	close(go[1]);      /* without the byte the child exits without exec */
	return ret;
}

void vm_init(struct vm *vm)
{
	unsigned int i;

	memset(vm, 0, sizeof(*vm));
	vm->listen_fd = vm->fd = -1;
	for (i = 0; i < QEMU_MAX_INSTANCE_PORTS; i++)
		vm->port_listen[i] = vm->port_fd[i] = -1;
}

int vm_prepare(struct vm *vm, unsigned int nports)
{
	int ret;

	vm_init(vm);
	vm->nports = nports > QEMU_MAX_INSTANCE_PORTS ? QEMU_MAX_INSTANCE_PORTS : nports;
	vm->ph.first_console = vm->ph.ready = -1;
	vm->ph.guest_uptime_s = -1;
	ret = private_dir(vm);
	if (ret) {
		vm->dir[0] = '\0';
		return ret;
	}
	return listen_sockets(vm);
}

void vm_stop(struct vm *vm)
{
	unsigned int i;
	int ret;

	if (vm->pid > 0) {
		kill(vm->pid, SIGKILL);
		while (waitpid(vm->pid, NULL, 0) < 0 && errno == EINTR)
			;
		vm->pid = 0;
	}
	vm_memcg_leave(vm);
	if (vm->journal_id > 0) {
		ret = journal_undo(vm->journal_id);    /* reaped: only closes the entry */
		if (ret && ret != -ENOENT)
			pr_warn("journal entry %ld of a QEMU process: %s", vm->journal_id,
				strerror(-ret));
		vm->journal_id = 0;
	}
	if (vm->fd >= 0)
		close(vm->fd);
	if (vm->listen_fd >= 0)
		close(vm->listen_fd);
	vm->fd = vm->listen_fd = -1;
	for (i = 0; i < vm->nports; i++) {
		if (vm->port_fd[i] >= 0)
			close(vm->port_fd[i]);
		if (vm->port_listen[i] >= 0)
			close(vm->port_listen[i]);
		vm->port_fd[i] = vm->port_listen[i] = -1;
	}
	if (vm->dir[0])
		vm_dir_undo(vm->dir);
	vm->dir[0] = '\0';
	if (vm->dir_id > 0 && journal_forget(vm->dir_id))
		pr_warn("journal entry %ld of a VM directory stays open", vm->dir_id);
	vm->dir_id = 0;
}

/* @dir + "/i" + @i + ".sock" into @path (PATH_MAX) with no stdio: for a signal handler. */
static void port_path(char *path, const char *dir, unsigned int i)
{
	size_t n = strlen(dir);

	if (n + 10 >= PATH_MAX) {
		path[0] = '\0';
		return;
	}
	memcpy(path, dir, n);
	memcpy(path + n, "/i", 2);
	n += 2;
	if (i >= 10)
		path[n++] = (char)('0' + i / 10 % 10);
	path[n++] = (char)('0' + i % 10);
	memcpy(path + n, ".sock", 6);
}

void vm_stop_in_signal(struct vm *vm)
{
	char path[PATH_MAX];
	unsigned int i;

	if (vm->pid > 0) {
		kill(vm->pid, SIGKILL);
		/* reaped: QEMU makes nothing more in the directory (its qmp.sock) */
		while (waitpid(vm->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
	if (vm->memcg[0])
		rmdir(vm->memcg);     /* its journal entry closes at restore */
	if (!vm->dir[0])
		return;
	unlink(vm->console);
	unlink(vm->sock);
	unlink(vm->log);
	unlink(vm->qmp);
	for (i = 0; i < QEMU_MAX_INSTANCE_PORTS; i++) {
		port_path(path, vm->dir, i);
		if (path[0])
			unlink(path);
	}
	rmdir(vm->dir);
}
