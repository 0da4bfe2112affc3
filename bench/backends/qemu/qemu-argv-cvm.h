/* SPDX-License-Identifier: MIT */
/*
 * qemu-argv-cvm.h - the confidential parts of a VM's QEMU argv
 * (qemu-argv-cvm.c, ../shared/CVM.md), as strings that qemu-argv.c puts
 * into the argv of the regular VM.
 */
#ifndef CVMBENCH_QEMU_ARGV_CVM_H
#define CVMBENCH_QEMU_ARGV_CVM_H

#include <stddef.h>

#include "vm-config.h"

#define QEMU_SNP_CPU "EPYC-v4"

/* The -object arguments of a confidential guest: how many, and how long each may be. */
#define QEMU_CVM_OBJECTS_MAX 2
#define QEMU_CVM_OBJECT_LEN 160

/**
 * qemu_argv_cvm_check() - 0 when @c's confidential fields make sense
 * (known @cvm, kvm, a firmware, not also @model), else -EINVAL with @err.
 */
int qemu_argv_cvm_check(const struct vm_config *c, char *err, size_t errlen);
/**
 * qemu_argv_cvm_objects() - the values of the -object arguments of @c's
 * confidential guest (its memory backend, then sev-snp-guest or tdx-guest),
 * in order, into @obj. Returns how many (0 for a regular VM) or -E2BIG.
 */
int qemu_argv_cvm_objects(const struct vm_config *c,
			  char obj[QEMU_CVM_OBJECTS_MAX][QEMU_CVM_OBJECT_LEN]);
/**
 * qemu_argv_cvm_machine() - the options @c's confidential guest adds to
 * -machine q35 (",confidential-guest-support=..."), "" for a regular VM.
 */
const char *qemu_argv_cvm_machine(const struct vm_config *c);

#endif
