/* SPDX-License-Identifier: MIT */
/*
 * env.h - facts about the machine a run measured on: CPU, topology,
 * memory, kernel, hypervisor, confidential-computing type and the evidence
 * for it, cpuidle, KSM, THP, and versions of qemu, runc and crun.
 */
#ifndef CVMBENCH_ENV_H
#define CVMBENCH_ENV_H

/* Receives one fact: a dotted key ("cpu.model"), its value, and where it
 * was read from ("cpuid leaf 0x1", "/proc/cmdline", ...). */
typedef void (*env_emit_fn)(void *ctx, const char *key, const char *value,
			    const char *source);

/** env_collect() - call @emit for every fact this machine offers. */
void env_collect(env_emit_fn emit, void *ctx);

/** env_in_vm() - 1 if CPUID says a hypervisor is present. */
int env_in_vm(void);

#endif
