/* SPDX-License-Identifier: MIT */
/*
 * idle-guest.h - the `idle` policy of a cell whose functions run in a
 * guest (a backend with BACKEND_GUEST: qemu). It is the guest's: chosen on
 * the guest kernel's command line at boot, checked against the facts the
 * guest's agent reports of itself, never applied on the host (the host's
 * own policy is the `host-idle` key, knob-idle.c).
 *
 *   poll         idle=poll: the guest's idle loop polls (cpu_idle_poll)
 *   hlt          nothing added: without a cpuidle driver the guest halts
 *                in default_idle (a TCG guest, a KVM guest without the
 *                haltpoll hint); a guest with a driver is refused
 *   haltpoll:N   cpuidle_haltpoll.force=1 haltpoll.guest_halt_poll_ns=N:
 *                the haltpoll cpuidle driver and governor, KVM only (a TCG
 *                guest has no cpuidle driver)
 *   spin         not in a guest yet (the agent starts no spinners)
 */
#ifndef CVMBENCH_IDLE_GUEST_H
#define CVMBENCH_IDLE_GUEST_H

#include <stddef.h>

#include "knob-idle.h"

/* A fact the guest reported of itself ("kernel.cmdline"), or NULL. */
typedef const char *(*idle_fact_fn)(void *ctx, const char *key);

/**
 * idle_guest_usable() - can a guest started under @accel ("kvm" or "tcg")
 * run under @p? 1, or 0 with the reason in @why. Decided before boot from
 * the cell alone; the booted guest is checked by idle_guest_check().
 */
int idle_guest_usable(const struct idle_policy *p, const char *accel, char *why, size_t len);
/**
 * idle_guest_append() - the guest kernel arguments that set @policy (a
 * policy text, as the `idle` key) into @buf; "" when none are needed or
 * the text is not a policy.
 */
void idle_guest_append(const char *policy, char *buf, size_t len);
/** idle_guest_applied_by() - "kernel-cmdline" or "kernel-default" (hlt). */
const char *idle_guest_applied_by(const struct idle_policy *p);
/**
 * idle_guest_check() - does the guest, by its own facts (@fact(@ctx, KEY):
 * kernel.cmdline, cpuidle.driver, cpuidle.governor,
 * cpuidle.haltpoll.guest_halt_poll_ns), run under @p? 0, or -EPERM with the
 * reason in @why. On 0 @applied (NULL, or @len bytes like @why) says what
 * the guest runs under, in words, for the cell's idle.applied.
 */
int idle_guest_check(const struct idle_policy *p, idle_fact_fn fact, void *ctx,
		     char *applied, char *why, size_t len);

#endif
