/* SPDX-License-Identifier: MIT */
/*
 * qemu-argv.h - the QEMU command line of a regular VM (TCG or KVM) from a
 * small description; an argv array, never a shell string.
 */
#ifndef CVMBENCH_QEMU_ARGV_H
#define CVMBENCH_QEMU_ARGV_H

#include <stddef.h>

#define QEMU_DEFAULT_BINARY "qemu-system-x86_64"
/* Always first on the kernel command line; the caller's append follows. */
#define QEMU_BASE_APPEND "console=ttyS0 panic=-1"

/**
 * struct vm_config - one VM.
 * @qemu: the QEMU binary (NULL: qemu-system-x86_64 from PATH)
 * @accel: "tcg" or "kvm"; @cpu: -cpu model (NULL: "host" under KVM, QEMU's default under TCG)
 * @vcpus, @memory_mib: -smp and -m
 * @kernel, @initrd: direct kernel boot; @append: added after QEMU_BASE_APPEND (NULL: none)
 * @data_disk: a raw image attached read-only as virtio-blk (NULL: none)
 * @console: the file the serial console (ttyS0) is written to
 * @agent_socket: a Unix socket the host listens on; QEMU connects to it and
 *                joins it to the virtio-serial port GUEST_PORT_NAME
 * @instance_ports: virtio-serial ports for instances, org.cvmbench.i0 ...
 *                  (at most QEMU_MAX_INSTANCE_PORTS), each joined to the Unix
 *                  socket @port_dir/iN.sock the host listens on
 * @model: 1 = confidential = model: guest RAM preallocated and not
 *         mergeable (memory-backend-ram prealloc=on,merge=off); not a CVM
 * @cvm: "sev-snp" or "tdx" (NULL: a regular VM): the confidential parts of
 *       the argv (qemu-argv-cvm.c, ../shared/CVM.md); needs accel kvm and
 *       @firmware; under sev-snp a NULL @cpu is EPYC-v4
 * @firmware: -bios FILE (NULL: none, QEMU's own SeaBIOS)
 * @qmp_socket: a QMP monitor socket QEMU listens on (-qmp unix:PATH,
 *              server=on,wait=off), which the host probes ask for KVM's
 *              statistics (query-stats, bench/lib/qmp.c); NULL: none
 */
struct vm_config {
	const char *qemu;
	const char *accel;
	const char *cpu;
	unsigned int vcpus;
	unsigned int memory_mib;
	const char *kernel;
	const char *initrd;
	const char *append;
	const char *data_disk;
	const char *console;
	const char *agent_socket;
	int model;
	unsigned int instance_ports;
	const char *port_dir;
	const char *cvm;
	const char *firmware;
	const char *qmp_socket;
};

/* 31 ports per virtio-serial device: number 0 is kept for a console, one is the agent's */
#define QEMU_MAX_INSTANCE_PORTS 29

#define QEMU_ARGV_MAX (48 + 4 * QEMU_MAX_INSTANCE_PORTS)

/** struct qemu_argv - @argv (NULL-terminated, @argc entries) points into @buf. */
struct qemu_argv {
	char *argv[QEMU_ARGV_MAX];
	int argc;
	char buf[16384];
	size_t used;
};

/**
 * qemu_argv_build() - the argv of @c into @a. Returns 0, -EINVAL (with
 * @err saying which field) or -E2BIG.
 */
int qemu_argv_build(const struct vm_config *c, struct qemu_argv *a, char *err, size_t errlen);

/** qemu_argv_join() - @a as one line (for messages and tests), words separated by ' '. */
int qemu_argv_join(const struct qemu_argv *a, char *buf, size_t len);

/* qemu-argv-cvm.c: the confidential parts (CVM.md) */
#define QEMU_SNP_CPU "EPYC-v4"
/**
 * qemu_argv_cvm_check() - 0 when @c's confidential fields make sense
 * (known @cvm, kvm, a firmware, not also @model), else -EINVAL with @err.
 */
int qemu_argv_cvm_check(const struct vm_config *c, char *err, size_t errlen);
/**
 * qemu_argv_cvm_objects() - the -object arguments of @c's confidential
 * guest (its memory backend and sev-snp-guest / tdx-guest) into @a.
 * Nothing for a regular VM. 0 or -E2BIG.
 */
int qemu_argv_cvm_objects(const struct vm_config *c, struct qemu_argv *a);
/**
 * qemu_argv_cvm_machine() - the options @c's confidential guest adds to
 * -machine q35 (",confidential-guest-support=..."), "" for a regular VM.
 */
const char *qemu_argv_cvm_machine(const struct vm_config *c);
/** qemu_argv_add() - append one printf-formatted argument to @a. 0 or -E2BIG. */
int qemu_argv_add(struct qemu_argv *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif
