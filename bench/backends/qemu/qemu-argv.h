/* SPDX-License-Identifier: MIT */
/*
 * qemu-argv.h - the QEMU command line of a regular VM (TCG or KVM) from a
 * small description; an argv array, never a shell string.
 */
#ifndef CVMBENCH_QEMU_ARGV_H
#define CVMBENCH_QEMU_ARGV_H

#include <stddef.h>

#include "vm-config.h"

#define QEMU_DEFAULT_BINARY "qemu-system-x86_64"
/*
 * The model QEMU gives an x86_64 q35 VM without -cpu (TARGET_DEFAULT_CPU_TYPE;
 * QEMU 7.2 and 10.0 both report qemu64's model-id "QEMU Virtual CPU version 2.5+").
 */
#define QEMU_TCG_DEFAULT_CPU "qemu64"
/* Always first on the kernel command line; the caller's append follows. */
#define QEMU_BASE_APPEND "console=ttyS0 panic=-1"

/* 31 ports per virtio-serial device: number 0 is kept for a console, one is the agent's */
#define QEMU_MAX_INSTANCE_PORTS 29

#define QEMU_ARGV_MAX (56 + 4 * QEMU_MAX_INSTANCE_PORTS)

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

/**
 * qemu_argv_cpu() - the -cpu model @c's argv gives: @c->cpu, else EPYC-v4
 * for a SEV-SNP guest, "host" under KVM, or NULL (no -cpu: QEMU's default,
 * QEMU_TCG_DEFAULT_CPU).
 */
const char *qemu_argv_cpu(const struct vm_config *c);

/** qemu_argv_join() - @a as one line (for messages and tests), words separated by ' '. */
int qemu_argv_join(const struct qemu_argv *a, char *buf, size_t len);

#endif
