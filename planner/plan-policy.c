// SPDX-License-Identifier: MIT
/* plan-policy.c - the policies' names on a command line (plan-policy.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "exitcode.h"
#include "log.h"
#include "plan-num.h"
#include "plan-policy.h"

static const char *const names[] = {
	[POLICY_TTL] = "ttl", [POLICY_HYBRID] = "hybrid", [POLICY_LRU] = "lru",
	[POLICY_GDSF] = "gdsf", [POLICY_PREDICTIVE] = "predictive", [POLICY_LAYERED] = "layered",
};

const char *plan_policy_name(enum plan_policy_kind k)
{
	return names[k];
}

static int find(const char *s, size_t len, enum plan_policy_kind *k)
{
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (strlen(names[i]) == len && !strncmp(s, names[i], len)) {
			*k = (enum plan_policy_kind)i;
			return 0;
		}
	return -1;
}

/* The parameter after the colon, @arg (NULL: the default). */
static int param(struct plan_policy *p, const char *arg)
{
	switch (p->kind) {
	case POLICY_TTL:
		if (!arg)
			break;
		return plan_seconds("plan: --policy ttl", arg, 1, &p->param);
	case POLICY_HYBRID:
		p->param = 4 * 3600;
		return arg ? plan_seconds("plan: --policy hybrid", arg, 0, &p->param) : 0;
	case POLICY_PREDICTIVE:
		p->param = 1e-3;
		return arg ? plan_num("plan: --policy predictive", arg, 0, 1e9, &p->param) : 0;
	case POLICY_LRU:
	case POLICY_GDSF:
		if (!arg)
			break;
		if (plan_bytes("plan: --policy budget", arg, &p->budget))
			return EXIT_USAGE;
		p->param = p->budget;
		return 0;
	case POLICY_LAYERED:
		return arg ? EXIT_USAGE : 0;
	}
	pr_err("plan: policy %s needs a parameter: %s", names[p->kind],
	       p->kind == POLICY_TTL ? "ttl:10m (or ttl10, ttl20)" : "lru:8GiB, gdsf:8GiB");
	return EXIT_USAGE;
}

int plan_policy_parse(const char *s, struct plan_policy *p)
{
	const char *colon = strchr(s, ':');
	int r;

	memset(p, 0, sizeof(*p));
	if (!strcmp(s, "ttl10") || !strcmp(s, "ttl20")) {
		p->kind = POLICY_TTL;
		p->param = s[3] == '1' ? 600 : 1200;
	} else if (find(s, colon ? (size_t)(colon - s) : strlen(s), &p->kind)) {
		pr_err("plan: unknown policy '%s': want ttl:DUR, ttl10, ttl20, hybrid[:RANGE], "
		       "lru:SIZE, gdsf:SIZE, predictive[:VALUE] or layered", s);
		return EXIT_USAGE;
	} else if ((r = param(p, colon ? colon + 1 : NULL))) {
		return r;
	}
	if ((p->kind == POLICY_LRU || p->kind == POLICY_GDSF) && p->budget < 1048576) {
		pr_err("plan: policy '%s': a budget below 1 MiB holds no instance", s);
		return EXIT_USAGE;
	}
	if (p->kind == POLICY_LRU || p->kind == POLICY_GDSF)
		snprintf(p->label, sizeof(p->label), "%s:%.0fMiB", names[p->kind],
			 p->budget / 1048576);
	else if (p->kind == POLICY_LAYERED)
		snprintf(p->label, sizeof(p->label), "layered");
	else
		snprintf(p->label, sizeof(p->label), "%s:%g", names[p->kind], p->param);
	return 0;
}
