/* SPDX-License-Identifier: MIT */
/*
 * cpuidle.h - the guest's cpuidle counters, read cheaply and often: per CPU
 * and per idle state, `usage` (entries) and `time` (microseconds) from
 * /sys/devices/system/cpu/cpuN/cpuidle/stateK. The files stay open and are
 * re-read with pread(), so a sample costs a few microseconds. Shared by the
 * idle knob (did POLL hold?), the idle probe and the cpu probe.
 */
#ifndef CVMBENCH_CPUIDLE_H
#define CVMBENCH_CPUIDLE_H

#include <stddef.h>
#include <stdint.h>

#define CPUIDLE_MAX_STATES 10
#define CPUIDLE_SYSFS "/sys/devices/system/cpu"

struct cpuidle_set {
	int ncpus;                /* CPUs with a cpuidle directory (online) */
	int *cpu;                 /* their numbers */
	int nstates;              /* states of cpu[0] */
	char names[CPUIDLE_MAX_STATES][32];
	int is_poll[CPUIDLE_MAX_STATES];      /* the POLL state: no idle exit */
	int *fd;                  /* [ncpus][nstates][2]: usage, time; -1 absent */
};

/* One sample: usage[i * nstates + k] and time (us) of CPU i, state k. */
struct cpuidle_sample {
	uint64_t *usage;
	uint64_t *time;
};

/**
 * cpuidle_open() - find the CPUs and states and open their counters.
 * Returns 0, -ENOENT when the kernel has no cpuidle here (reason in @why),
 * or -errno.
 */
int cpuidle_open(struct cpuidle_set *s, char *why, size_t len);
/**
 * cpuidle_open_cpus() - a set of this process's CPUs with no states (for
 * counting without cpuidle: the probes' per-CPU arrays). 0 or -errno.
 */
int cpuidle_open_cpus(struct cpuidle_set *s);
void cpuidle_close(struct cpuidle_set *s);
/** cpuidle_sample_alloc() - buffers for one sample of @s. 0 or -ENOMEM. */
int cpuidle_sample_alloc(const struct cpuidle_set *s, struct cpuidle_sample *x);
void cpuidle_sample_free(struct cpuidle_sample *x);
/** cpuidle_read() - read every counter of @s into @x. 0 or -errno. */
int cpuidle_read(const struct cpuidle_set *s, struct cpuidle_sample *x);
/**
 * cpuidle_halt_usage() - entries of every non-POLL state on every CPU: under
 * the HLT policy in a KVM guest, the guest-side count of HLT exits.
 */
uint64_t cpuidle_halt_usage(const struct cpuidle_set *s, const struct cpuidle_sample *x);
/** cpuidle_read_halt_usage() - read and sum in one go; 0 on error. */
int cpuidle_read_halt_usage(const struct cpuidle_set *s, uint64_t *out);
/** cpuidle_poll_state() - index of the POLL state, or -1. */
int cpuidle_poll_state(const struct cpuidle_set *s);

/**
 * cpuidle_driver() - name of the cpuidle driver (current_driver), "none"
 * when the kernel registered none. 0, or -errno with "none" in @buf when
 * the file is missing (kernel without cpuidle).
 */
int cpuidle_driver(char *buf, size_t len);
/**
 * cpuidle_has_driver() - 1 if a cpuidle driver is registered. Without one
 * the kernel idles through default_idle (HLT on x86) and there are no
 * per-state counters and no POLL state to choose.
 */
int cpuidle_has_driver(void);

#endif
