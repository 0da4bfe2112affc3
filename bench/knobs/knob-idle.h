/* SPDX-License-Identifier: MIT */
/*
 * knob-idle.h - the `idle` and `host-idle` config keys: the idle policy of
 * the machine the functions run on (for a qemu cell the guest's:
 * idle-guest.h) and of the host.
 *
 *   default        change nothing
 *   hlt            halt state only: guest halt-polling off (guest_halt_poll_ns = 0)
 *                (without a cpuidle driver: measured as it is, the kernel halts)
 *   poll           POLL only: /dev/cpu_dma_latency held open at 0 for the cell
 *                  (needs a cpuidle driver with a POLL state)
 *   spin           one SCHED_IDLE busy thread per CPU: the CPUs never idle
 *   haltpoll:NS    guest halt-polling for up to NS nanoseconds, then halt
 */
#ifndef CVMBENCH_KNOB_IDLE_H
#define CVMBENCH_KNOB_IDLE_H

#include "knob.h"

#define IDLE_HALTPOLL_MAX_NS 1000000000u
#define IDLE_HALTPOLL_PARAM "/sys/module/haltpoll/parameters/guest_halt_poll_ns"
#define IDLE_GOVERNOR_FILE "/sys/devices/system/cpu/cpuidle/current_governor_ro"
#define IDLE_DMA_LATENCY "/dev/cpu_dma_latency"

enum idle_policy_kind { IDLE_DEFAULT, IDLE_HLT, IDLE_POLL, IDLE_HALTPOLL, IDLE_SPIN };

struct idle_policy {
	enum idle_policy_kind kind;
	unsigned int poll_ns;     /* guest_halt_poll_ns for hlt (0) and haltpoll:N */
};

/**
 * idle_policy_parse() - "default", "hlt", "poll", "spin" or "haltpoll:NS"
 * into @p (may be NULL: only check). Returns 0 or -EINVAL.
 */
int idle_policy_parse(const char *s, struct idle_policy *p);
/**
 * idle_policy_usable() - can @p be applied on this machine (read through
 * the test root of sysroot.h)? 1, or 0 with the reason in @why. Changes
 * nothing. The one decision behind `cvmbench list` and `cvmbench run`.
 */
int idle_policy_usable(const struct idle_policy *p, char *why, size_t len);

extern const struct knob_ops knob_idle;

#endif
