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
 * Not yet: mode = cold, instances > 1, SEV-SNP and TDX guests.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "clock.h"
#include "guest.h"
#include "vm-boot.h"
#include "vm.h"

struct qemu_state {
	struct vm vm;
	struct guest_image img;
	struct guest_disk disk;
	char accel[8];
	int booted;
};

/* accel = auto: kvm when /dev/kvm opens, else tcg. */
static const char *resolve_accel(const struct cell *c)
{
	int fd;

	if (strcmp(c->accel, "auto"))
		return c->accel;
	fd = open("/dev/kvm", O_RDWR | O_CLOEXEC);
	if (fd < 0)
		return "tcg";
	close(fd);
	return "kvm";
}

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

/* Why a confidential guest cannot run here (the backend does not launch one yet). */
static void cvm_reason(const struct cell *c, char *why, size_t len)
{
	const char *dev = !strcmp(c->confidential, "tdx") ? "/dev/tdx_guest" : "/dev/sev";
	int kvm = access("/dev/kvm", F_OK) ? errno : 0;

	snprintf(why, len, "confidential = %s: not yet launched by the qemu backend "
		 "(needs /dev/kvm%s, %s on the host and a QEMU with the %s-guest object)",
		 c->confidential, kvm ? ": missing here" : "", !strcmp(c->confidential, "tdx") ?
		 "TDX enabled in KVM" : dev, c->confidential);
}

static int qemu_supported(const struct cell *c, char *why, size_t len)
{
	char path[4096];
	long avail;
	int fd;

	if (vm_find_qemu(NULL, path, sizeof(path))) {
		snprintf(why, len, "qemu: %s not found", QEMU_DEFAULT_BINARY);
		return 0;
	}
	if (!strcmp(c->confidential, "sev-snp") || !strcmp(c->confidential, "tdx")) {
		cvm_reason(c, why, len);
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

	(void)env;
	if (!st) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	snprintf(st->accel, sizeof(st->accel), "%s", resolve_accel(c));
	st->vm.pid = 0;
	st->vm.fd = st->vm.listen_fd = -1;
	*state = st;
	return 0;
}

static int qemu_prepare(const struct cell *c, const struct backend_env *env, void *state,
			char *err, size_t errlen)
{
	struct guest_build_opts b = { NULL, NULL, NULL, NULL };
	struct qemu_state *st = state;
	struct vm_config vc = { 0 };
	int ret;

	ret = guest_image_build(&b, &st->img, err, errlen);
	if (!ret)
		ret = guest_disk_build(c->workload, c->size, (unsigned long long)c->seed, NULL,
				       &st->disk, err, errlen);
	if (ret)
		return ret;
	vc.accel = st->accel;
	vc.vcpus = (unsigned int)c->vcpus;
	vc.memory_mib = (unsigned int)c->memory;
	vc.kernel = st->img.kernel;
	vc.initrd = st->img.initrd;
	vc.data_disk = st->disk.path;
	vc.model = !strcmp(c->confidential, "model");
	vc.append = c->guest_append[0] ? c->guest_append : NULL;
	ret = vm_start(&st->vm, &vc, c->boot_timeout, err, errlen);
	st->booted = !ret;
	vm_boot_store(env->sink, 0, &st->vm);
	return ret;
}

/* "spawn serve WORKLOAD ..." for the guest: /bin/cvmfn, data on /data. */
static int spawn_line(const struct cell *c, const struct backend_env *env,
		      char *line, size_t len, char *err, size_t errlen)
{
	struct backend_env genv = { "/bin/cvmfn", "/data", env->digest, NULL };
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
