// SPDX-License-Identifier: MIT
/*
 * plan-config.c - read the plan config (plan-config.h, docs/capacity.md)
 * with inih: [plan] keys, then one [platform NAME] section per platform.
 * Every error names the file, the line and the key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <ini.h>

#include "exitcode.h"
#include "log.h"
#include "plan-config.h"
#include "plan-num.h"

struct cfg_state {
	struct plan_config *c;
	FILE *f;
	int line, err;
	char where[1200], section[256];
};

/* inih's reader: a line of the file, counted (the handler names it). */
static char *read_line(char *str, int num, void *stream)
{
	struct cfg_state *s = stream;

	if (!fgets(str, num, s->f))
		return NULL;
	s->line++;
	return str;
}

static int copy(struct cfg_state *s, char *dst, size_t len, const char *v)
{
	if (strlen(v) >= len) {
		pr_err("%s '%s': longer than %zu characters", s->where, v, len - 1);
		return EXIT_USAGE;
	}
	memcpy(dst, v, strlen(v) + 1);
	return 0;
}

/* A comma list @v through @one per item (spaces around items dropped). */
static int each_item(struct cfg_state *s, const char *v,
		     int (*one)(struct cfg_state *s, const char *item))
{
	char buf[2048], *save = NULL, *tok;
	int r = 0;

	if (copy(s, buf, sizeof(buf), v))
		return EXIT_USAGE;
	for (tok = strtok_r(buf, ",", &save); tok && !r; tok = strtok_r(NULL, ",", &save)) {
		char *e = tok + strlen(tok);

		while (*tok == ' ' || *tok == '\t')
			tok++;
		while (e > tok && (e[-1] == ' ' || e[-1] == '\t'))
			*--e = '\0';
		if (*tok)
			r = one(s, tok);
	}
	return r;
}

static int ladder_item(struct cfg_state *s, const char *item)
{
	struct plan_config *c = s->c;

	if (c->nladder == PLAN_MAX_LADDER) {
		pr_err("%s: at most %d TTLs", s->where, PLAN_MAX_LADDER);
		return EXIT_USAGE;
	}
	if (plan_seconds(s->where, item, 1, &c->ladder[c->nladder]))
		return EXIT_USAGE;
	if (c->nladder && c->ladder[c->nladder] <= c->ladder[c->nladder - 1]) {
		pr_err("%s '%s': the TTLs must rise", s->where, item);
		return EXIT_USAGE;
	}
	c->nladder++;
	return 0;
}

static int target_item(struct cfg_state *s, const char *item)
{
	struct plan_config *c = s->c;
	double pct;

	if (c->ntarget == PLAN_MAX_TARGETS) {
		pr_err("%s: at most %d targets", s->where, PLAN_MAX_TARGETS);
		return EXIT_USAGE;
	}
	if (plan_num(s->where, item, 0.001, 100, &pct))
		return EXIT_USAGE;
	c->target[c->ntarget++] = pct / 100;
	return 0;
}

static int workload_item(struct cfg_state *s, const char *item)
{
	struct plan_config *c = s->c;

	if (c->nworkloads == PLAN_MAX_WORKLOADS) {
		pr_err("%s: at most %d workloads", s->where, PLAN_MAX_WORKLOADS);
		return EXIT_USAGE;
	}
	return copy(s, c->workloads[c->nworkloads++], sizeof(c->workloads[0]), item);
}

static int plan_key(struct cfg_state *s, const char *k, const char *v)
{
	struct plan_config *c = s->c;
	double n;
	int r;

	if (!strcmp(k, "trace"))
		return copy(s, c->trace, sizeof(c->trace), v);
	if (!strcmp(k, "format"))
		return copy(s, c->format, sizeof(c->format), v);
	if (!strcmp(k, "map"))
		return copy(s, c->map, sizeof(c->map), v);
	if (!strcmp(k, "workloads"))
		return each_item(s, v, workload_item);
	if (!strcmp(k, "ttl-ladder")) {
		c->nladder = 0;
		return each_item(s, v, ladder_item);
	}
	if (!strcmp(k, "targets")) {
		c->ntarget = 0;
		return each_item(s, v, target_item);
	}
	if (!strcmp(k, "budget"))
		return plan_bytes(s->where, v, &c->budget);
	if (!strcmp(k, "price"))
		return plan_num(s->where, v, 0, 1, &c->price);
	if (!strcmp(k, "seed"))
		return plan_seed(s->where, v, &c->seed);
	if (!strcmp(k, "run")) {
		r = !strcmp(v, "all") ? 0 : plan_num(s->where, v, 1, 1e15, &n);
		c->run_id = !strcmp(v, "all") ? 0 : (int64_t)n;
		return r;
	}
	if (!strcmp(k, "seeds") || !strcmp(k, "bootstrap")) {
		r = plan_num(s->where, v, !strcmp(k, "seeds"), 1000, &n);
		*(!strcmp(k, "seeds") ? &c->seeds : &c->bootstrap) = (int)n;
		return r;
	}
	pr_err("%s: unknown key in [plan] (docs/capacity.md lists them)", s->where);
	return EXIT_USAGE;
}

static int choice(struct cfg_state *s, char *dst, size_t len, const char *v,
		  const char *const *ok)
{
	size_t i;

	for (i = 1; ok[i]; i++)
		if (!strcmp(v, ok[i]))
			return copy(s, dst, len, strcmp(v, "any") ? v : "");
	pr_err("%s '%s': want one of %s", s->where, v, ok[0]);
	return EXIT_USAGE;
}

static int platform_key(struct cfg_state *s, const char *k, const char *v)
{
	static const char *const confs[] = { "none, model, sev-snp, tdx or any", "none",
					     "model", "sev-snp", "tdx", "any", NULL };
	static const char *const ksms[] = { "on, off, unchanged or any", "on", "off",
					    "unchanged", "any", NULL };
	static const char *const mems[] = { "measured or minmem", "measured", "minmem", NULL };
	struct plan_platform_conf *p = &s->c->plat[s->c->nplat - 1];

	if (!strcmp(k, "backend"))
		return copy(s, p->backend, sizeof(p->backend), v);
	if (!strcmp(k, "confidential"))
		return choice(s, p->conf, sizeof(p->conf), v, confs);
	if (!strcmp(k, "ksm"))
		return choice(s, p->ksm, sizeof(p->ksm), v, ksms);
	if (!strcmp(k, "twin"))
		return copy(s, p->twin, sizeof(p->twin), v);
	if (!strcmp(k, "memory")) {
		char m[16];
		int r = choice(s, m, sizeof(m), v, mems);

		p->minmem = !r && !strcmp(m, "minmem");
		return r;
	}
	pr_err("%s: unknown key in a [platform] section: want backend, confidential, ksm, twin, "
	       "memory", s->where);
	return EXIT_USAGE;
}

static int new_platform(struct cfg_state *s, const char *name)
{
	struct plan_config *c = s->c;
	int i;

	if (!*name || c->nplat == PLAN_MAX_PLATFORMS) {
		pr_err("%s: want [platform NAME], at most %d platforms", s->where,
		       PLAN_MAX_PLATFORMS);
		return EXIT_USAGE;
	}
	for (i = 0; i < c->nplat; i++)
		if (!strcmp(c->plat[i].name, name)) {
			pr_err("%s: platform '%s' named twice", s->where, name);
			return EXIT_USAGE;
		}
	memset(&c->plat[c->nplat], 0, sizeof(c->plat[0]));
	return copy(s, c->plat[c->nplat++].name, sizeof(c->plat[0].name), name);
}

static int on_key(void *user, const char *section, const char *k, const char *v)
{
	struct cfg_state *s = user;

	if (s->err)
		return 0;
	snprintf(s->where, sizeof(s->where), "%s:%d: [%s]", s->c->path, s->line, section);
	if (strcmp(section, s->section)) {
		snprintf(s->section, sizeof(s->section), "%s", section);
		if (!strncmp(section, "platform ", 9))
			s->err = new_platform(s, section + 9);
		else if (strcmp(section, "plan"))
			s->err = (pr_err("%s: unknown section: want [plan] or [platform NAME]",
					 s->where), EXIT_USAGE);
	}
	snprintf(s->where, sizeof(s->where), "%s:%d: %s", s->c->path, s->line, k);
	if (!s->err)
		s->err = !strcmp(section, "plan") ? plan_key(s, k, v) : platform_key(s, k, v);
	return !s->err;
}

/* The platforms' twins exist and are regular; there is something to do. */
static int check(const struct plan_config *c)
{
	int i, j;

	if (!*c->trace || !c->nplat) {
		pr_err("%s: want trace = FILE in [plan] and at least one [platform NAME]", c->path);
		return EXIT_USAGE;
	}
	for (i = 0; i < c->nplat; i++) {
		if (c->plat[i].minmem && !*c->plat[i].conf) {
			pr_err("%s: platform %s: memory = minmem is a VM type's: give confidential = "
			       "none, model, sev-snp or tdx", c->path, c->plat[i].name);
			return EXIT_USAGE;
		}
		if (!*c->plat[i].twin)
			continue;
		for (j = 0; j < c->nplat && strcmp(c->plat[j].name, c->plat[i].twin); j++)
			;
		if (j == c->nplat || j == i) {
			pr_err("%s: platform %s: twin '%s' is not another [platform]", c->path,
			       c->plat[i].name, c->plat[i].twin);
			return EXIT_USAGE;
		}
	}
	return 0;
}

static const double default_ladder[] = { 1, 10, 30, 60, 120, 300, 600, 1200, 1800, 3600,
					 7200, 14400, 43200, 86400 };

int plan_config_read(const char *path, struct plan_config *c)
{
	struct cfg_state s = { c, NULL, 0, 0, "", "" };
	int rc;

	memset(c, 0, sizeof(*c));
	c->path = path;
	c->nladder = sizeof(default_ladder) / sizeof(default_ladder[0]);
	memcpy(c->ladder, default_ladder, sizeof(default_ladder));
	c->ntarget = 3;
	c->target[0] = 0.01, c->target[1] = 0.05, c->target[2] = 0.10;
	c->seeds = 3;
	c->bootstrap = 20;
	c->seed = 1;
	c->price = 0.0000133334;
	s.f = fopen(path, "r");
	if (!s.f) {
		pr_err("plan: --config %s: %s", path, strerror(errno));
		return EXIT_USAGE;
	}
	rc = ini_parse_stream(read_line, &s, on_key, &s);
	fclose(s.f);
	if (rc < 0) {
		pr_err("plan: %s: out of memory", path);
		return EXIT_FAILED;
	}
	if (s.err)
		return s.err;
	if (rc > 0) {
		pr_err("%s:%d: not a key = value line or [section]", path, rc);
		return EXIT_USAGE;
	}
	return check(c);
}
