// SPDX-License-Identifier: MIT
/*
 * backend-qemu.c - `backend = qemu`: a cell's instances run in one QEMU VM
 * (TCG or KVM) booted in prepare() from the guest image (guest.h) with the
 * workload's data disk on /data. spawn() sends "spawn serve ..." on the
 * virtio-serial port; the guest's /init (guest-init.c) runs /bin/cvmfn
 * with its stdin and stdout on that port, so the instance's two
 * descriptors are the host end of the port's socket. instance.pid is the
 * VM's QEMU (pid_shared: closing an instance neither waits for nor kills
 * it); probes therefore watch the QEMU process. cell_end() kills QEMU by
 * its own pid and closes its journal entries.
 * The guest (built or the user's: qemu-cell.c) and the accelerator
 * (qemu-accel.c) are recorded per cell; a SEV-SNP or TDX cell runs only
 * where the host offers every piece it needs (cvm-host.c), else it is a
 * skip naming what is missing. Not yet: mode = cold, instances > 1.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "clock.h"
#include "cvm-host.h"
#include "guest.h"
#include "qemu-accel.h"
#include "qemu-cell.h"
#include "vm.h"

struct qemu_state {
	struct vm vm;
	struct qemu_guest guest;
	struct qemu_accel acc;
	int booted;
};

static long mem_available_mib(void)
{
	char line[256];
	long kb = -1;
	FILE *f = fopen("/proc/meminfo", "r");

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "MemAvailable: %ld kB", &kb) == 1)
			break;
	fclose(f);
	return kb < 0 ? -1 : kb / 1024;
}

/* The QEMU binary of @c (its qemu key, else qemu-system-x86_64 in PATH). */
static int qemu_found(const struct cell *c, char *why, size_t len)
{
	char path[4096];

	if (!vm_find_qemu(c->qemu[0] ? c->qemu : NULL, path, sizeof(path)))
		return 1;
	if (c->qemu[0])
		snprintf(why, len, "qemu = %s: not found or not executable", c->qemu);
	else
		snprintf(why, len, "qemu: %s not found", QEMU_DEFAULT_BINARY);
	return 0;
}

/* A SEV-SNP or TDX cell: every piece of the host it needs (cvm-host.c). */
static int cvm_supported(const struct cell *c, char *why, size_t len)
{
	char miss[2048];

	if (!strcmp(c->accel, "tcg")) {
		snprintf(why, len, "confidential = %s needs accel = kvm (or auto), not tcg",
			 c->confidential);
		return 0;
	}
	if (cvm_host_check(c->confidential, c->qemu, c->firmware, miss, sizeof(miss)))
		return 1;
	snprintf(why, len, "confidential = %s: this host lacks: %s", c->confidential, miss);
	return 0;
}

/* A firmware the cell names must be there (a CVM's is checked with the host). */
static int firmware_found(const struct cell *c, char *why, size_t len)
{
	if (!c->firmware[0] || !access(c->firmware, R_OK))
		return 1;
	snprintf(why, len, "firmware = %s: %s", c->firmware, strerror(errno));
	return 0;
}

static int qemu_supported(const struct cell *c, char *why, size_t len)
{
	long avail;
	int fd;

	if (!qemu_found(c, why, len))
		return 0;
	if (!strcmp(c->confidential, "sev-snp") || !strcmp(c->confidential, "tdx")) {
		if (!cvm_supported(c, why, len))
			return 0;
	} else if (!firmware_found(c, why, len)) {
		return 0;
	}
	if (!strcmp(c->accel, "kvm")) {
		fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
		if (fd < 0) {
			snprintf(why, len, "accel = kvm: /dev/kvm: %s", strerror(errno));
			return 0;
		}
		close(fd);
	}
	if (!strcmp(c->mode, "cold") || c->instances > 1) {
		snprintf(why, len, "qemu: %s not yet (one VM, one warm instance)",
			 c->instances > 1 ? "instances > 1" : "mode = cold");
		return 0;
	}
	avail = mem_available_mib();
	if (avail >= 0 && avail < c->memory + 64) {
		snprintf(why, len, "qemu: memory = %d MiB but only %ld MiB available",
			 c->memory, avail);
		return 0;
	}
	return 1;
}

static int qemu_cell_begin(const struct cell *c, const struct backend_env *env,
			   void **state, char *err, size_t errlen)
{
	struct qemu_state *st = calloc(1, sizeof(*st));

	(void)c;
	(void)env;
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	st->vm.pid = 0;
	st->vm.fd = st->vm.listen_fd = -1;
	*state = st;
	return 0;
}

/* What the cell booted and under which accelerator, for its rows. */
static void note_boot(const struct backend_env *env, const struct qemu_state *st)
{
	char key[96], val[PATH_MAX * 2 + 64];

	if (!env->note)
		return;
	env->note(env->note_ctx, "qemu.accel", st->acc.used);
	env->note(env->note_ctx, "qemu.accel_reason", st->acc.reason);
	if (!st->guest.hash[0])
		return;
	env->note(env->note_ctx, "qemu.guest_hash", st->guest.hash);
	env->note(env->note_ctx, "qemu.guest_source", st->guest.source);
	if (!env->env_note)
		return;
	snprintf(key, sizeof(key), "guest.image.%s", st->guest.hash);
	snprintf(val, sizeof(val), "%s kernel=%s initrd=%s", st->guest.source,
		 st->guest.kernel, st->guest.initrd);
	env->env_note(env->note_ctx, key, val,
		      "SHA-256 of the booted kernel's bytes followed by the initrd's");
}

static int qemu_prepare(const struct cell *c, const struct backend_env *env, void *state,
			char *err, size_t errlen)
{
	struct qemu_state *st = state;
	struct vm_config vc;
	int ret;

	ret = qemu_cell_guest(c, &st->guest, err, errlen);
	if (ret)
		return ret;
	qemu_cell_vm_config(c, c->accel, &st->guest, &vc);
	ret = qemu_accel_start(c, &st->vm, &vc, c->boot_timeout, &st->acc, err, errlen);
	note_boot(env, st);
	st->booted = !ret;
	return ret;
}

/* "spawn serve WORKLOAD ..." for the guest: /bin/cvmfn, data on /data. */
static int spawn_line(const struct cell *c, const struct backend_env *env,
		      char *line, size_t len, char *err, size_t errlen)
{
	struct backend_env genv = { .cvmfn = "/bin/cvmfn", .data_dir = "/data",
				    .digest = env->digest };
	char store[1024], *argv[24];
	size_t o = 0;
	int i, n;

	cvmfn_argv(&genv, "serve", c, store, sizeof(store), argv, 24);
	n = snprintf(line, len, "spawn");
	o = (size_t)n;
	for (i = 1; argv[i]; i++) {
		if (!*argv[i] || strpbrk(argv[i], " \t\n")) {
			snprintf(err, errlen, "argument '%s' cannot be sent to the guest", argv[i]);
			return -EINVAL;
		}
		n = snprintf(line + o, len - o, " %s", argv[i]);
		if (n < 0 || (size_t)n >= len - o)
			return -E2BIG;
		o += (size_t)n;
	}
	return 0;
}

static int qemu_spawn(const struct cell *c, const struct backend_env *env, void *state,
		      struct instance *in, char *err, size_t errlen)
{
	struct qemu_state *st = state;
	char line[1024];
	int ret, fl;

	if (!st->booted || st->vm.fd < 0) {
		snprintf(err, errlen, "the cell's VM is not running");
		return -ENOTCONN;
	}
	ret = spawn_line(c, env, line, sizeof(line), err, errlen);
	if (ret)
		return ret;
	/* instance.c reads and writes blocking (one read per reply) */
	fl = fcntl(st->vm.fd, F_GETFL);
	if (fl < 0 || fcntl(st->vm.fd, F_SETFL, fl & ~O_NONBLOCK)) {
		snprintf(err, errlen, "VM socket: %s", strerror(errno));
		return -errno;
	}
	in->to_fd = fcntl(st->vm.fd, F_DUPFD_CLOEXEC, 3);
	in->from_fd = fcntl(st->vm.fd, F_DUPFD_CLOEXEC, 3);
	if (in->to_fd < 0 || in->from_fd < 0) {
		ret = -errno;
		goto fail;
	}
	memcpy(in->buf, st->vm.rbuf, st->vm.rlen < sizeof(in->buf) ? st->vm.rlen : 0);
	in->len = st->vm.rlen < sizeof(in->buf) ? st->vm.rlen : 0;
	st->vm.rlen = 0;
	in->spawn_ns = clock_now_ns();
	ret = vm_send(&st->vm, line);
	if (ret)
		goto fail;
	in->pid = st->vm.pid;
	in->pid_shared = 1;
	return 0;
fail:
	snprintf(err, errlen, "VM socket: %s", strerror(-ret));
	if (in->to_fd >= 0)
		close(in->to_fd);
	if (in->from_fd >= 0)
		close(in->from_fd);
	in->to_fd = in->from_fd = -1;
	return ret;
}

static void qemu_cell_end(void *state)
{
	struct qemu_state *st = state;

	if (st->booted || st->vm.dir[0] || st->vm.pid > 0)
		vm_stop(&st->vm);
	free(st);
}

const struct backend_ops backend_qemu = {
	.name = "qemu",
	.flags = BACKEND_GUEST,
	.supported = qemu_supported,
	.cell_begin = qemu_cell_begin,
	.prepare = qemu_prepare,
	.spawn = qemu_spawn,
	.cell_end = qemu_cell_end,
};
