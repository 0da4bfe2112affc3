// SPDX-License-Identifier: MIT
/*
 * tests/unit/idle-guest.c - a qemu cell's idle decision (idle-guest.c) on
 * both kinds of guest, from facts as a guest's agent reports them: a KVM
 * guest with the haltpoll driver and governor, a KVM guest whose kernel
 * lacks the governor (Debian's cloud kernel), a TCG guest without a driver.
 * What each policy adds to the guest's kernel command line. No root.
 */
#include <string.h>

#include "idle-guest.h"
#include "tap.h"

struct facts { const char *cmdline, *driver, *governor, *ns; };

static const char *fact(void *ctx, const char *key)
{
	const struct facts *f = ctx;

	if (!strcmp(key, "kernel.cmdline"))
		return f->cmdline;
	if (!strcmp(key, "cpuidle.driver"))
		return f->driver;
	if (!strcmp(key, "cpuidle.governor"))
		return f->governor;
	if (!strcmp(key, "cpuidle.haltpoll.guest_halt_poll_ns"))
		return f->ns;
	return NULL;
}

static int check(const char *policy, struct facts *f, char *why, size_t len)
{
	struct idle_policy p;
	char applied[256];

	idle_policy_parse(policy, &p);
	return idle_guest_check(&p, fact, f, applied, why, len);
}

static int usable(const char *policy, const char *accel, char *why, size_t len)
{
	struct idle_policy p;

	idle_policy_parse(policy, &p);
	return idle_guest_usable(&p, accel, why, len);
}

int main(void)
{
	struct facts tcg = { "console=ttyS0 panic=-1 cvmbench.vm=0", "none", "menu", NULL },
		     tcg_poll = { "console=ttyS0 idle=poll cvmbench.vm=0", "none", "menu", NULL },
		     kvm_hp = { "console=ttyS0 cpuidle_haltpoll.force=1", "haltpoll", "haltpoll",
				"1000" },
		     kvm_menu = { "console=ttyS0 cpuidle_haltpoll.force=1", "haltpoll", "menu",
				  NULL };
	char why[512] = "", buf[128];

	tap_plan(14);
	tap_ok(!usable("haltpoll:1000", "tcg", why, sizeof(why)) &&
	       !strcmp(why, "haltpoll needs KVM: a TCG guest has no cpuidle driver"),
	       "TCG: haltpoll:N is refused before boot (%s)", why);
	tap_ok(usable("haltpoll:1000", "kvm", why, sizeof(why)), "KVM: haltpoll:N may boot");
	tap_ok(usable("poll", "tcg", why, sizeof(why)) && usable("hlt", "tcg", why, sizeof(why)),
	       "TCG: poll and hlt may boot, whatever the host's cpuidle");
	tap_ok(!usable("spin", "kvm", why, sizeof(why)), "spin in a guest: a skip (%s)", why);
	idle_guest_append("poll", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "idle=poll"), "poll adds idle=poll (%s)", buf);
	idle_guest_append("haltpoll:1000", buf, sizeof(buf));
	tap_ok(!strcmp(buf, "cpuidle_haltpoll.force=1 haltpoll.guest_halt_poll_ns=1000"),
	       "haltpoll:1000 adds the driver's arguments (%s)", buf);
	idle_guest_append("hlt", buf, sizeof(buf));
	tap_ok(!buf[0], "hlt adds nothing (the kernel's default)");
	tap_ok(check("poll", &tcg_poll, why, sizeof(why)) == 0, "TCG guest booted with idle=poll: poll holds");
	tap_ok(check("poll", &tcg, why, sizeof(why)) != 0 && strstr(why, "no idle=poll"),
	       "a guest without idle=poll on its command line: refused (%s)", why);
	tap_ok(check("hlt", &tcg, why, sizeof(why)) == 0, "TCG guest without a driver: hlt holds");
	tap_ok(check("hlt", &kvm_hp, why, sizeof(why)) != 0 && strstr(why, "'haltpoll'"),
	       "a guest with a cpuidle driver: hlt refused (%s)", why);
	tap_ok(check("haltpoll:1000", &kvm_hp, why, sizeof(why)) == 0,
	       "KVM guest with haltpoll driver and governor at 1000 ns: haltpoll:1000 holds");
	tap_ok(check("haltpoll:2000", &kvm_hp, why, sizeof(why)) != 0 && strstr(why, "'1000'"),
	       "... haltpoll:2000 does not (%s)", why);
	tap_ok(check("haltpoll:1000", &kvm_menu, why, sizeof(why)) != 0 &&
	       strstr(why, "governor is 'menu'"),
	       "KVM guest without the haltpoll governor: refused naming it (%s)", why);
	return tap_done();
}
