// SPDX-License-Identifier: MIT
/*
 * qemu-argv.c - the QEMU argv of a regular VM: q35, direct kernel boot,
 * the serial console into a file, a virtio-serial port to the host's Unix
 * socket, an optional read-only virtio-blk data disk. No defaults devices,
 * no display, no reboot (a guest that panics or powers off ends QEMU).
 * The "model" guest's RAM is an unmergeable memory backend, preallocated
 * (guest-accept = eager) or allocated on touch (lazy).
 * Its merge=off alone does not do it in QEMU 7.2: the machine's mem-merge
 * (default on) madvises every RAM block MERGEABLE when it is added, and
 * merge=off only leaves out a second madvise; so the machine gets
 * mem-merge=off too (measured: without it KSM merged 34 000 pages of two
 * model guests, tests/system/ksm-vms.t).
 * SEV-SNP and TDX guests add their confidential parts (qemu-argv-cvm.c).
 * A VM whose service is loaded from the host gets the one NIC any VM has:
 * user-mode (SLIRP), restrict=on, one TCP forward from 127.0.0.1 only.
 * Paths go into QEMU's comma-separated option values with commas doubled.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "agent-guest.h"
#include "guest.h"
#include "qemu-argv-cvm.h"
#include "qemu-argv.h"

/* Append one argument, printf-style; -E2BIG when it does not fit. */
static int arg(struct qemu_argv *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int arg(struct qemu_argv *a, const char *fmt, ...)
{
	va_list ap;
	size_t room = sizeof(a->buf) - a->used;
	int n;

	if (a->argc + 1 >= QEMU_ARGV_MAX)
		return -E2BIG;
	va_start(ap, fmt);
	n = vsnprintf(a->buf + a->used, room, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= room)
		return -E2BIG;
	a->argv[a->argc++] = a->buf + a->used;
	a->argv[a->argc] = NULL;
	a->used += (size_t)n + 1;
	return 0;
}

/* @s with every ',' doubled (QEMU's escape inside an option value). */
static const char *commas(const char *s, char *buf, size_t len)
{
	size_t o = 0;

	for (; *s && o + 2 < len; s++) {
		buf[o++] = *s;
		if (*s == ',')
			buf[o++] = ',';
	}
	buf[o] = '\0';
	return *s ? NULL : buf;
}

static int check(const struct vm_config *c, char *err, size_t errlen)
{
	const char *bad = NULL;

	if (!c->accel || (strcmp(c->accel, "tcg") && strcmp(c->accel, "kvm")))
		bad = "accel (tcg or kvm)";
	else if (c->vcpus < 1 || c->vcpus > 1024)
		bad = "vcpus (1 to 1024)";
	else if (c->memory_mib < 64)
		bad = "memory (at least 64 MiB)";
	else if (!c->kernel || !c->initrd)
		bad = "kernel and initrd";
	else if (!c->console || !c->agent_socket)
		bad = "console and agent socket";
	else if (c->svc_host_port < 0 || c->svc_host_port > 65535 || c->svc_guest_port < 0 ||
		 c->svc_guest_port > 65535 || !c->svc_host_port != !c->svc_guest_port)
		bad = "service ports (1 to 65535, both or neither)";
	else if (c->instance_ports > QEMU_MAX_INSTANCE_PORTS ||
		 (c->instance_ports && !c->port_dir))
		bad = "instance ports (at most 29, with a socket directory)";
	if (bad)
		snprintf(err, errlen, "VM description: bad or missing %s", bad);
	return bad ? -EINVAL : qemu_argv_cvm_check(c, err, errlen);
}

/* The -object arguments of @c's confidential guest (none for a regular VM). */
static int cvm_object_args(const struct vm_config *c, struct qemu_argv *a)
{
	char obj[QEMU_CVM_OBJECTS_MAX][QEMU_CVM_OBJECT_LEN];
	int i, n = qemu_argv_cvm_objects(c, obj), ret = 0;

	if (n < 0)
		return n;
	for (i = 0; i < n; i++)
		ret |= arg(a, "-object") | arg(a, "%s", obj[i]);
	return ret;
}

/* The kernel command line: the base, a CVM's accept_memory=, the caller's, the idle policy's. */
static int append_arg(const struct vm_config *c, struct qemu_argv *a)
{
	const char *accept = c->cvm ? c->accept : NULL;

	return arg(a, "-append") | arg(a, "%s%s%s%s%s%s%s", QEMU_BASE_APPEND,
				       accept ? " accept_memory=" : "", accept ? accept : "",
				       c->append && *c->append ? " " : "",
				       c->append ? c->append : "", c->guest_idle[0] ? " " : "",
				       c->guest_idle);
}

const char *qemu_argv_cpu(const struct vm_config *c)
{
	if (c->cpu)
		return c->cpu;
	if (c->cvm && !strcmp(c->cvm, "sev-snp"))
		return QEMU_SNP_CPU;
	return c->accel && !strcmp(c->accel, "kvm") ? "host" : NULL;
}

static int machine_args(const struct vm_config *c, struct qemu_argv *a)
{
	const char *cpu = qemu_argv_cpu(c);
	int ret = 0;

	ret |= arg(a, "%s", c->qemu ? c->qemu : QEMU_DEFAULT_BINARY);
	ret |= arg(a, "-nodefaults") | arg(a, "-no-user-config");
	ret |= arg(a, "-display") | arg(a, "none") | arg(a, "-no-reboot");
	if (c->model) {
		ret |= arg(a, "-object") |
		       arg(a, "memory-backend-ram,id=mem0,size=%uM,prealloc=%s,merge=off",
			   c->memory_mib, c->accept && !strcmp(c->accept, "lazy") ? "off" : "on");
		ret |= arg(a, "-machine") | arg(a, "q35,memory-backend=mem0,mem-merge=off");
	} else {
		ret |= cvm_object_args(c, a);
		ret |= arg(a, "-machine") | arg(a, "q35%s", qemu_argv_cvm_machine(c));
	}
	ret |= arg(a, "-accel") | arg(a, "%s", c->accel);
	if (cpu)
		ret |= arg(a, "-cpu") | arg(a, "%s", cpu);
	ret |= arg(a, "-smp") | arg(a, "%u", c->vcpus);
	ret |= arg(a, "-m") | arg(a, "%u", c->memory_mib);
	if (c->firmware)
		ret |= arg(a, "-bios") | arg(a, "%s", c->firmware);
	ret |= arg(a, "-kernel") | arg(a, "%s", c->kernel);
	ret |= arg(a, "-initrd") | arg(a, "%s", c->initrd);
	return ret || append_arg(c, a) ? -E2BIG : 0;
}

/* One socket chardev and one virtserialport per instance port. */
static int instance_port_args(const struct vm_config *c, struct qemu_argv *a)
{
	char esc[8192];
	unsigned int i;
	int ret = 0;

	if (!c->instance_ports)
		return 0;
	if (!c->port_dir || !commas(c->port_dir, esc, sizeof(esc)))
		return -E2BIG;
	for (i = 0; i < c->instance_ports; i++) {
		ret |= arg(a, "-chardev") | arg(a, "socket,id=inst%u,path=%s/i%u.sock", i, esc, i);
		ret |= arg(a, "-device") |
		       arg(a, "virtserialport,bus=vser0.0,chardev=inst%u,name=%s%u", i,
			   GUEST_INSTANCE_PORT_PREFIX, i);
	}
	return ret ? -E2BIG : 0;
}

/* The service's NIC: the host's 127.0.0.1:PORT into the guest, nothing out. */
static int net_args(const struct vm_config *c, struct qemu_argv *a)
{
	if (!c->svc_host_port)
		return 0;
	return arg(a, "-netdev") |
	       arg(a, "user,id=svc0,restrict=on,hostfwd=tcp:127.0.0.1:%d-%s:%d", c->svc_host_port,
		   AGENT_GUEST_NET_ADDR, c->svc_guest_port) |
	       arg(a, "-device") | arg(a, "virtio-net-pci,netdev=svc0") ? -E2BIG : 0;
}

static int device_args(const struct vm_config *c, struct qemu_argv *a)
{
	char esc[8192];
	int ret = 0;

	if (!commas(c->console, esc, sizeof(esc)))
		return -E2BIG;
	ret |= arg(a, "-chardev") | arg(a, "file,id=con0,path=%s", esc);
	ret |= arg(a, "-serial") | arg(a, "chardev:con0");
	if (!commas(c->agent_socket, esc, sizeof(esc)))
		return -E2BIG;
	ret |= arg(a, "-device") | arg(a, "virtio-serial-pci,id=vser0");
	ret |= arg(a, "-chardev") | arg(a, "socket,id=agent0,path=%s", esc);
	ret |= arg(a, "-device") |
	       arg(a, "virtserialport,bus=vser0.0,chardev=agent0,name=%s", GUEST_PORT_NAME);
	if (c->qmp_socket) {
		if (!commas(c->qmp_socket, esc, sizeof(esc)))
			return -E2BIG;
		ret |= arg(a, "-qmp") | arg(a, "unix:%s,server=on,wait=off", esc);
	}
	if (instance_port_args(c, a) || net_args(c, a))
		return -E2BIG;
	if (c->data_disk) {
		if (!commas(c->data_disk, esc, sizeof(esc)))
			return -E2BIG;
		ret |= arg(a, "-drive") |
		       arg(a, "file=%s,format=raw,if=virtio,readonly=on", esc);
	}
	if (c->rootfs_disk) {
		if (!commas(c->rootfs_disk, esc, sizeof(esc)))
			return -E2BIG;
		ret |= arg(a, "-drive") |
		       arg(a, "file=%s,format=raw,if=virtio,readonly=on", esc);
	}
	if (c->scratch_disk) {
		if (!commas(c->scratch_disk, esc, sizeof(esc)))
			return -E2BIG;
		ret |= arg(a, "-drive") | arg(a, "file=%s,format=raw,if=virtio", esc);
	}
	return ret ? -E2BIG : 0;
}

int qemu_argv_build(const struct vm_config *c, struct qemu_argv *a, char *err, size_t errlen)
{
	int ret = check(c, err, errlen);

	a->argc = 0;
	a->used = 0;
	a->argv[0] = NULL;
	if (!ret)
		ret = machine_args(c, a);
	if (!ret)
		ret = device_args(c, a);
	if (ret == -E2BIG)
		snprintf(err, errlen, "QEMU command line too long");
	return ret;
}

int qemu_argv_join(const struct qemu_argv *a, char *buf, size_t len)
{
	size_t o = 0;
	int i, n;

	buf[0] = '\0';
	for (i = 0; i < a->argc; i++) {
		n = snprintf(buf + o, len - o, "%s%s", i ? " " : "", a->argv[i]);
		if (n < 0 || (size_t)n >= len - o)
			return -E2BIG;
		o += (size_t)n;
	}
	return 0;
}
