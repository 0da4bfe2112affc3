// SPDX-License-Identifier: MIT
/*
 * tests/unit/idle-policy.c - the `idle` config key: what idle_policy_parse()
 * accepts and what the config loader says about a bad value. No root.
 */
#include <stdio.h>
#include <stdlib.h>

#include "config.h"
#include "knob-idle.h"
#include "tap.h"

static void parses(const char *s, enum idle_policy_kind kind, unsigned int ns)
{
	struct idle_policy p = { IDLE_DEFAULT, 99 };
	int ret = idle_policy_parse(s, &p);

	tap_ok(!ret && p.kind == kind && p.poll_ns == ns,
	       "'%s' parses (kind %d, %u ns)", s, p.kind, p.poll_ns);
}

static void rejects(const char *s)
{
	tap_ok(idle_policy_parse(s, NULL) != 0, "'%s' is rejected", s);
}

int main(void)
{
	static const char ini[] = "[experiment x]\nworkload = null\nidle = hlt, bogus\n";
	struct config *cfg = NULL;
	char err[512] = "";

	tap_plan(14);
	parses("default", IDLE_DEFAULT, 0);
	parses("hlt", IDLE_HLT, 0);
	parses("poll", IDLE_POLL, 0);
	parses("spin", IDLE_SPIN, 0);
	rejects("spin:1");
	parses("haltpoll:200000", IDLE_HALTPOLL, 200000);
	parses("haltpoll:0", IDLE_HALTPOLL, 0);
	rejects("haltpoll:");
	rejects("haltpoll:-5");
	rejects("haltpoll:2000000000");
	rejects("HLT");
	tap_ok(config_load_string("x.ini", ini, &cfg, err, sizeof(err)) != 0,
	       "a config with idle = bogus does not load");
	tap_contains(err, "haltpoll:NANOSECONDS", "the error lists the allowed values");
	tap_contains(err, "spin", "... spin among them");
	config_free(cfg);
	return tap_failed ? 1 : 0;
}
