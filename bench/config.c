// SPDX-License-Identifier: MIT
/*
 * config.c - read an experiment config with inih and check its sections,
 * keys and values. inih reports lines only for syntax errors, so the
 * reader below counts lines itself: every error names file:line.
 */
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

struct parse_state {
	struct config *cfg;
	const char *text;         /* what is left to read */
	int line;                 /* line of the text inih handles now */
	int continued;            /* it starts with white space: continues a value */
	struct config_entry *last; /* the entry the previous line set */
	char *err;
	size_t errlen;
	int failed;
};

static int fail(struct parse_state *ps, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* inih's reader: one line per call, counting them. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	const char *nl;
	size_t n;

	if (!*ps->text)
		return NULL;
	nl = strchr(ps->text, '\n');
	n = nl ? (size_t)(nl - ps->text) + 1 : strlen(ps->text);
	ps->line++;
	if (n > (size_t)num - 1) {
		fail(ps, "line longer than %d characters: continue a long value on "
		     "indented lines", num - 2);
		return NULL;
	}
	memcpy(str, ps->text, n);
	str[n] = '\0';
	ps->text += n;
	ps->continued = (str[0] == ' ' || str[0] == '\t') && str[strspn(str, " \t\r\n")];
	return str;
}

static int fail(struct parse_state *ps, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->cfg->path, ps->line, msg);
	ps->failed = 1;
	return -EINVAL;
}

static struct config_section *section_for(struct parse_state *ps, const char *name)
{
	struct config *cfg = ps->cfg;
	struct config_section *s;
	size_t i;

	for (i = 0; i < cfg->nsections; i++)
		if (!strcmp(cfg->sections[i].is_defaults ? "defaults" : "", name) ||
		    (!cfg->sections[i].is_defaults && !strncmp(name, "experiment ", 11) &&
		     !strcmp(cfg->sections[i].name, name + 11)))
			return &cfg->sections[i];
	s = realloc(cfg->sections, (cfg->nsections + 1) * sizeof(*s));
	if (!s)
		return NULL;
	cfg->sections = s;
	s = &cfg->sections[cfg->nsections++];
	memset(s, 0, sizeof(*s));
	s->line = ps->line;
	s->is_defaults = !strcmp(name, "defaults");
	if (!s->is_defaults)
		snprintf(s->name, sizeof(s->name), "%s", name + 11);
	return s;
}

static int check_section_name(struct parse_state *ps, const char *name)
{
	const char *exp = name + 11, *p;

	if (!strcmp(name, "defaults"))
		return 0;
	if (strncmp(name, "experiment ", 11) || !*exp)
		return fail(ps, "section [%s]: expected [defaults] or [experiment NAME]",
			    name);
	for (p = exp; *p; p++)
		if (!strchr("abcdefghijklmnopqrstuvwxyz0123456789-_.", *p))
			return fail(ps, "experiment name '%s': use a-z, 0-9, '-', '_', '.'",
				    exp);
	if (strlen(exp) >= sizeof(((struct config_section *)0)->name))
		return fail(ps, "experiment name '%s' is too long", exp);
	return 0;
}

static int check_value_list(struct parse_state *ps, const struct config_key *k,
			    const char *value)
{
	char *copy = strdup(value), *tok, *save = NULL, msg[1200];
	int count = 0, ret = 0;

	if (!copy)
		return -ENOMEM;
	if (k->type == KEY_STRING && !k->matrix) {    /* free text: commas are text */
		if (config_value_check(k, value, msg, sizeof(msg)))
			ret = fail(ps, "%s", msg);
		free(copy);
		return ret;
	}
	for (tok = strtok_r(copy, ",", &save); tok && !ret;
	     tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		tok[strcspn(tok, " \t")] = '\0';
		if (!*tok)
			continue;
		count++;
		if (count > 1 && !k->matrix && k->type != KEY_PROBES)
			ret = fail(ps, "%s takes one value, not a list", k->name);
		else if (config_value_check(k, tok, msg, sizeof(msg)))
			ret = fail(ps, "%s", msg);
	}
	if (!count && !ret && k->type != KEY_STRING && k->type != KEY_PROBES)
		ret = fail(ps, "empty value for %s", k->name);
	free(copy);
	return ret;
}

/* An indented line continues the previous key's value (a list goes on). */
static int append_value(struct parse_state *ps, struct config_entry *e,
			const char *more)
{
	size_t len = strlen(e->value);
	int list = len && e->value[len - 1] == ',';
	char *v = malloc(len + strlen(more) + 3);

	if (!v)
		return !fail(ps, "out of memory");
	sprintf(v, "%s%s%s", e->value, list || !len ? "" : " ", more);
	free(e->value);
	e->value = v;
	return 1;
}

static int add_entry(struct parse_state *ps, struct config_section *s,
		     const struct config_key *k, const char *value)
{
	struct config_entry *e;
	size_t i;

	if (ps->continued && ps->last && !strcmp(ps->last->key, k->name))
		return append_value(ps, ps->last, value);
	for (i = 0; i < s->nentries; i++)
		if (!strcmp(s->entries[i].key, k->name))
			return !fail(ps, "%s given twice in this section (first at line %d)",
				     k->name, s->entries[i].line);
	e = realloc(s->entries, (s->nentries + 1) * sizeof(*e));
	if (!e)
		return !fail(ps, "out of memory");
	s->entries = e;
	e = &s->entries[s->nentries++];
	e->key = strdup(k->name);
	e->value = strdup(value);
	e->line = ps->line;
	ps->last = e;
	return 1;
}

static int on_key(void *user, const char *section, const char *name,
		  const char *value)
{
	struct parse_state *ps = user;
	const struct config_key *k;
	struct config_section *s;
	char keys[1024];

	if (ps->failed)
		return 0;
	if (!*section)
		return !fail(ps, "key '%s' outside a section: put it under [defaults] or "
			     "[experiment NAME]", name);
	if (check_section_name(ps, section))
		return 0;
	k = config_key_find(name);
	if (!k) {
		config_key_names(keys, sizeof(keys));
		return !fail(ps, "unknown key '%s' in [%s]; keys are: %s", name, section, keys);
	}
	if (check_value_list(ps, k, value))
		return 0;
	s = section_for(ps, section);
	if (!s)
		return !fail(ps, "out of memory");
	return add_entry(ps, s, k, value);
}

static int on_section(struct parse_state *ps, const char *section)
{
	return check_section_name(ps, section) || !section_for(ps, section);
}

/* inih's handler: 1 to go on, 0 on error (the message is in ps->err). */
/* inih calls the handler with a NULL name at each new section (INI_CALL_HANDLER_ON_NEW_SECTION
 * is off in Debian's build), so sections are checked when their first key
 * arrives and, for empty ones, by a scan in check_sections(). */
static int check_sections(struct parse_state *ps, const char *text)
{
	const char *p = text;
	char name[128];
	size_t before;

	ps->line = 0;
	while (p && *p) {
		ps->line++;
		while (*p == ' ' || *p == '\t')
			p++;
		if (*p != '[' || sscanf(p, "[%127[^]]]", name) != 1)
			goto next;
		before = ps->cfg->nsections;
		if (on_section(ps, name))
			return -EINVAL;
		if (ps->cfg->nsections == before)
			return fail(ps, "section [%s] given twice (first at line %d)", name,
				    section_for(ps, name)->line);
next:
		p = strchr(p, '\n');
		if (p)
			p++;
	}
	return 0;
}

void config_free(struct config *cfg)
{
	size_t i, j;

	if (!cfg)
		return;
	for (i = 0; i < cfg->nsections; i++) {
		for (j = 0; j < cfg->sections[i].nentries; j++) {
			free(cfg->sections[i].entries[j].key);
			free(cfg->sections[i].entries[j].value);
		}
		free(cfg->sections[i].entries);
	}
	free(cfg->sections);
	free(cfg->path);
	free(cfg->text);
	free(cfg);
}

static int count_experiments(const struct config *cfg)
{
	size_t i;
	int n = 0;

	for (i = 0; i < cfg->nsections; i++)
		n += !cfg->sections[i].is_defaults;
	return n;
}

int config_load_string(const char *path, const char *text, struct config **out,
		       char *err, size_t errlen)
{
	struct config *cfg = calloc(1, sizeof(*cfg));
	struct parse_state ps = { .cfg = cfg, .text = text, .err = err, .errlen = errlen };
	int rc;

	if (!cfg)
		return -ENOMEM;
	cfg->path = strdup(path);
	cfg->text = strdup(text);
	rc = check_sections(&ps, text) ? -1 : 0;
	if (!rc) {
		ps.line = 0;
		rc = ini_parse_stream(read_line, &ps, on_key, &ps);
	}
	if (rc > 0 && !ps.failed)
		snprintf(err, errlen, "%s:%d: syntax error: expected [section], "
			 "key = value or a ; comment", path, rc);
	else if (!rc && !ps.failed && !count_experiments(cfg))
		snprintf(err, errlen, "%s: no [experiment NAME] section: nothing to run", path);
	else if (!rc && !ps.failed) {
		*out = cfg;
		return 0;
	}
	config_free(cfg);
	return -EINVAL;
}

int config_load(const char *path, struct config **out, char *err, size_t errlen)
{
	FILE *f = fopen(path, "re");
	char *text = NULL;
	size_t cap = 0, len = 0, n;
	int ret;

	if (!f) {
		snprintf(err, errlen, "cannot open config %s: %s", path, strerror(errno));
		return -errno;
	}
	do {
		if (len + 4096 + 1 > cap) {
			char *t = realloc(text, cap = cap * 2 + 8192);

			if (!t) {
				free(text);
				fclose(f);
				return -ENOMEM;
			}
			text = t;
		}
		n = fread(text + len, 1, cap - len - 1, f);
		len += n;
	} while (n > 0);
	fclose(f);
	text[len] = '\0';
	if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: not a text file (NUL byte)", path);
		free(text);
		return -EINVAL;
	}
	ret = config_load_string(path, text, out, err, errlen);
	free(text);
	return ret;
}
