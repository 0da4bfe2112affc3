/* SPDX-License-Identifier: MIT */
/*
 * vm.h - start one QEMU VM from a struct vm_config, wait for its guest to
 * say it is ready on the virtio-serial port, talk to it line by line, and
 * end it. The QEMU process is journalled before it runs (when a journal is
 * open) and killed on every exit path, by its own pid.
 */
#ifndef CVMBENCH_VM_H
#define CVMBENCH_VM_H

#include <limits.h>
#include <stddef.h>
#include <sys/types.h>

#include "qemu-argv.h"

/**
 * struct vm_phases - boot phases, host CLOCK_MONOTONIC ns since QEMU was
 * spawned (-1: not seen): @first_console the first byte on the serial
 * console, @ready the ready line's arrival; @guest_uptime_s the guest's
 * /proc/uptime when it wrote the ready line (-1: not given).
 */
struct vm_phases {
	long long spawn_ns;
	long long first_console;
	long long ready;
	double guest_uptime_s;
};

/** struct vm - a running VM; fields are the module's, read them only. */
struct vm {
	pid_t pid;
	long journal_id, dir_id, memcg_id;
	char memcg[PATH_MAX];            /* its memory cgroup ("": none), vm-memcg.h */
	int listen_fd, fd;
	char dir[PATH_MAX];              /* private: socket, console, qemu.log */
	char console[PATH_MAX], sock[PATH_MAX], log[PATH_MAX];
	char qmp[PATH_MAX];              /* QEMU's QMP socket (it listens) */
	char rbuf[8192];
	size_t rlen;
	char ready_line[512];
	struct vm_phases ph;
	unsigned int nports;             /* instance ports (vm_config.instance_ports) */
	int port_listen[QEMU_MAX_INSTANCE_PORTS];
	int port_fd[QEMU_MAX_INSTANCE_PORTS];   /* host end of org.cvmbench.iN, blocking */
};

/**
 * vm_start() - start QEMU for @c (its console and agent_socket are set to
 * files in a private directory) and wait up to @timeout_s for the ready
 * line. On failure the VM is ended and @err says why, with the console's
 * last lines. Returns 0, -ETIMEDOUT, -ECHILD (QEMU ended early) or -errno.
 * With @c->instance_ports, QEMU's connection to each port's socket
 * (@c->port_dir is set to the VM's directory) is accepted into port_fd[].
 */
int vm_start(struct vm *vm, const struct vm_config *c, double timeout_s,
	     char *err, size_t errlen);
/** vm_init() - zero @vm with every descriptor -1: vm_stop() has nothing to do. */
void vm_init(struct vm *vm);
/** vm_find_qemu() - the path of @qemu (NULL: qemu-system-x86_64), as guest_which(). 0 or -ENOENT. */
int vm_find_qemu(const char *qemu, char *path, size_t len);
/**
 * vm_check() - the QEMU binary exists, the kernel is a bzImage, the initrd
 * and data disk are readable. 0, or -errno with @err naming the file.
 */
int vm_check(const struct vm_config *c, char *err, size_t errlen);
/** vm_send() - write @line and a newline to the guest. 0 or -errno. */
int vm_send(struct vm *vm, const char *line);
/** vm_recv() - the next line from the guest (no newline), within @timeout_ms. */
int vm_recv(struct vm *vm, char *line, size_t len, int timeout_ms);
/** vm_console_tail() - the last @lines lines of the console into @buf. */
void vm_console_tail(const struct vm *vm, int lines, char *buf, size_t len);
/**
 * vm_wait_exit() - wait up to @timeout_ms for QEMU to end by itself (the
 * guest powered off). 1 if it did, 0 if not. It stays reaped either way.
 */
int vm_wait_exit(struct vm *vm, int timeout_ms);
/** vm_stop() - kill QEMU (if still running), reap it, remove the private directory. */
void vm_stop(struct vm *vm);
/**
 * vm_stop_in_signal() - vm_stop() for a signal handler that then exits: kill
 * QEMU and reap it (so it creates nothing more, e.g. its QMP socket), then
 * remove the private directory's known files and the directory. Only
 * async-signal-safe calls; journal entries stay for `cvmbench restore`.
 */
void vm_stop_in_signal(struct vm *vm);

#endif
