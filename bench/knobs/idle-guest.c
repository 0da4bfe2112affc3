// SPDX-License-Identifier: MIT
/*
 * idle-guest.c - the idle policy of a guest (idle-guest.h): which kernel
 * arguments set it, whether the guest's accelerator allows it, and whether
 * the booted guest's own facts (its agent's `env`: /proc/cmdline and
 * /sys/devices/system/cpu/cpuidle, /sys/module/haltpoll/parameters read
 * inside the guest) show it. Nothing here touches the host.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "idle-guest.h"

#define NO_TCG_DRIVER "haltpoll needs KVM: a TCG guest has no cpuidle driver"

int idle_guest_usable(const struct idle_policy *p, const char *accel, char *why, size_t len)
{
	if (p->kind == IDLE_HALTPOLL && accel && strcmp(accel, "kvm")) {
		snprintf(why, len, NO_TCG_DRIVER);
		return 0;
	}
	if (p->kind == IDLE_SPIN) {
		snprintf(why, len, "spin in a guest: not built (the guest's agent starts no "
			 "busy threads); poll gives a guest that never halts (idle=poll)");
		return 0;
	}
	return 1;
}

void idle_guest_append(const char *policy, char *buf, size_t len)
{
	struct idle_policy p;

	buf[0] = '\0';
	if (idle_policy_parse(policy, &p))
		return;
	if (p.kind == IDLE_POLL)
		snprintf(buf, len, "idle=poll");
	else if (p.kind == IDLE_HALTPOLL)
		snprintf(buf, len, "cpuidle_haltpoll.force=1 haltpoll.guest_halt_poll_ns=%u",
			 p.poll_ns);
}

const char *idle_guest_applied_by(const struct idle_policy *p)
{
	return p->kind == IDLE_HLT ? "kernel-default" : "kernel-cmdline";
}

/* 1 if the command line @line holds the word @word. */
static int has_word(const char *line, const char *word)
{
	size_t n = strlen(word);
	const char *at;

	for (at = line ? strstr(line, word) : NULL; at; at = strstr(at + 1, word))
		if ((at == line || at[-1] == ' ') && (at[n] == ' ' || !at[n]))
			return 1;
	return 0;
}

static const char *or_none(const char *v)
{
	return v && *v ? v : "none";
}

/* haltpoll:N: the haltpoll driver and governor, guest_halt_poll_ns = N. */
static int check_haltpoll(const struct idle_policy *p, idle_fact_fn fact, void *ctx,
			  char *why, size_t len)
{
	const char *drv = or_none(fact(ctx, "cpuidle.driver")),
		   *gov = or_none(fact(ctx, "cpuidle.governor")),
		   *ns = fact(ctx, "cpuidle.haltpoll.guest_halt_poll_ns");

	if (strcmp(drv, "haltpoll"))
		snprintf(why, len, "the guest's cpuidle driver is '%s', not haltpoll "
			 "(cpuidle_haltpoll.force=1 did not take)", drv);
	else if (strcmp(gov, "haltpoll"))
		snprintf(why, len, "the guest's cpuidle governor is '%s', not haltpoll (its "
			 "kernel has no haltpoll governor: Debian's cloud kernel is built "
			 "without CONFIG_CPU_IDLE_GOV_HALTPOLL), so guest_halt_poll_ns cannot "
			 "act", gov);
	else if (!ns || strtoul(ns, NULL, 10) != p->poll_ns)
		snprintf(why, len, "the guest's guest_halt_poll_ns is '%s', not %u",
			 ns ? ns : "absent", p->poll_ns);
	else
		return 0;
	return -EPERM;
}

int idle_guest_check(const struct idle_policy *p, idle_fact_fn fact, void *ctx,
		     char *applied, char *why, size_t len)
{
	const char *cmdline = fact(ctx, "kernel.cmdline"),
		   *drv = or_none(fact(ctx, "cpuidle.driver"));
	int ret = 0;

	if (applied)
		applied[0] = '\0';
	if (p->kind == IDLE_POLL && !has_word(cmdline, "idle=poll")) {
		snprintf(why, len, "the guest's kernel command line has no idle=poll ('%s')",
			 cmdline ? cmdline : "not reported");
		ret = -EPERM;
	} else if (p->kind == IDLE_HLT && strcmp(drv, "none")) {
		snprintf(why, len, "the guest has the cpuidle driver '%s': hlt is measured "
			 "in a guest without one (it halts in default_idle)", drv);
		ret = -EPERM;
	} else if (p->kind == IDLE_HALTPOLL) {
		ret = check_haltpoll(p, fact, ctx, why, len);
	}
	if (!ret && applied && p->kind == IDLE_POLL)
		snprintf(applied, len, "poll: idle=poll on the guest kernel command line "
			 "(guest cpuidle driver %s)", drv);
	else if (!ret && applied && p->kind == IDLE_HLT)
		snprintf(applied, len, "hlt: the guest has no cpuidle driver (default_idle "
			 "halts)");
	else if (!ret && applied && p->kind == IDLE_HALTPOLL)
		snprintf(applied, len, "haltpoll: guest_halt_poll_ns = %u under the guest's "
			 "haltpoll driver and governor", p->poll_ns);
	return ret;
}
