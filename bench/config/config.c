// SPDX-License-Identifier: MIT
/*
 * config.c - read an experiment config with inih and check its sections,
 * keys and values. inih reports lines only for syntax errors and cuts
 * section and key names at 49 bytes, so the reader below sees each line
 * first, classifies it exactly as inih will, counts lines, and refuses what
 * inih would cut or misread: every error names file:line, on one line.
 */
#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define INI_NAME_MAX 49           /* inih's MAX_NAME - 1, for keys */

struct parse_state {
	struct config *cfg;
	const char *text;         /* what is left to read */
	int line;                 /* line of the text inih handles now */
	int have_key;             /* inih's prev_name: indented lines continue it */
	int continued;            /* inih hands this line over as a continuation */
	long sec;                 /* index of the section read now; -1 before one */
	long last;                /* its entry the last key line set; -1 none */
	char *err;
	size_t errlen;
	int failed;
};

static int fail_at(struct parse_state *ps, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct parse_state *ps, int line, const char *fmt, ...)
{
	char msg[768];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(ps->err, ps->errlen, "%s:%d: %s", ps->cfg->path, line, msg);
	ps->failed = 1;
	return -EINVAL;
}

#define fail(ps, ...) fail_at(ps, (ps)->line, __VA_ARGS__)

static struct config_section *cur_section(struct parse_state *ps)
{
	return ps->sec < 0 ? NULL : &ps->cfg->sections[ps->sec];
}

/* The entry read last is complete: check its whole value. */
static int finish_entry(struct parse_state *ps)
{
	struct config_entry *e;
	char msg[1200];

	if (ps->last < 0)
		return 0;
	e = &cur_section(ps)->entries[ps->last];
	ps->last = -1;
	if (config_entry_check(config_key_find(e->key), e->value, msg, sizeof(msg)))
		return fail_at(ps, e->line, "%s", msg);
	return 0;
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
	return 0;
}

static long find_section(const struct config *cfg, const char *name)
{
	size_t i;

	for (i = 0; i < cfg->nsections; i++)
		if (cfg->sections[i].is_defaults ? !strcmp(name, "defaults") :
		    !strncmp(name, "experiment ", 11) && !strcmp(cfg->sections[i].name, name + 11))
			return (long)i;
	return -1;
}

static int add_section(struct parse_state *ps, const char *name)
{
	struct config *cfg = ps->cfg;
	struct config_section *s;
	long i = find_section(cfg, name);

	if (i >= 0)
		return fail(ps, "section [%s] given twice (first at line %d)", name,
			    cfg->sections[i].line);
	s = realloc(cfg->sections, (cfg->nsections + 1) * sizeof(*s));
	if (!s)
		return fail(ps, "out of memory");
	cfg->sections = s;
	s = &cfg->sections[cfg->nsections];
	memset(s, 0, sizeof(*s));
	s->line = ps->line;
	s->is_defaults = !strcmp(name, "defaults");
	if (!s->is_defaults)
		snprintf(s->name, sizeof(s->name), "%s", name + 11);
	ps->sec = (long)cfg->nsections++;
	return 0;
}

/* "[name]" from @p to @end (trimmed): inih stops at ']' or a " ;" comment. */
static int on_section_line(struct parse_state *ps, const char *p, const char *end)
{
	const char *close = p + 1, *rest;
	char name[CONFIG_SECTION_MAX + 1];
	size_t len;

	while (close < end && *close != ']' && !(*close == ';' && isspace((unsigned char)close[-1])))
		close++;
	if (close == end || *close != ']')
		return fail(ps, "section header without ']'");
	for (rest = close + 1; rest < end && isspace((unsigned char)*rest); rest++)
		;
	if (rest < end && *rest != ';' && *rest != '#')
		return fail(ps, "text after ']': one section header per line");
	len = (size_t)(close - p - 1);
	if (len > CONFIG_SECTION_MAX)
		return fail(ps, "section name '%.*s' is longer than %d characters "
			    "(experiment names: at most %d)", (int)len, p + 1,
			    CONFIG_SECTION_MAX, CONFIG_NAME_MAX);
	memcpy(name, p + 1, len);
	name[len] = '\0';
	ps->have_key = 0;
	return check_section_name(ps, name) || add_section(ps, name);
}

/* "key = value": inih splits at the first '=' or ':' before a " ;" comment. */
static int on_key_line(struct parse_state *ps, const char *p, const char *end)
{
	const char *sep = p, *name_end;

	while (sep < end && *sep != '=' && *sep != ':' &&
	       !(sep > p && *sep == ';' && isspace((unsigned char)sep[-1])))
		sep++;
	if (sep == end || (*sep != '=' && *sep != ':'))
		return fail(ps, "syntax error: expected [section], key = value or a ; comment");
	for (name_end = sep; name_end > p && isspace((unsigned char)name_end[-1]); name_end--)
		;
	if (name_end - p > INI_NAME_MAX)
		return fail(ps, "unknown key '%.*s...': longer than any key", INI_NAME_MAX, p);
	ps->have_key = 1;
	return 0;
}

/* An indented "key = value" after a key would be taken as part of its value. */
static int check_continuation(struct parse_state *ps, const char *p)
{
	char name[INI_NAME_MAX + 1];
	size_t len = strcspn(p, "=:");

	while (len && isspace((unsigned char)p[len - 1]))
		len--;
	if (!p[strcspn(p, "=:")] || !len || len > INI_NAME_MAX)
		return 0;
	memcpy(name, p, len);
	name[len] = '\0';
	if (!config_key_find(name) || ps->last < 0)
		return 0;
	return fail(ps, "this indented line continues %s; start a new key in column 1",
		    cur_section(ps)->entries[ps->last].key);
}

/* What inih will make of @str, checked before it sees it. */
static int classify(struct parse_state *ps, const char *str)
{
	const char *p = str, *end;

	if (ps->line == 1 && !strncmp(p, "\xef\xbb\xbf", 3))
		p += 3;
	end = p + strlen(p);
	while (end > p && isspace((unsigned char)end[-1]))
		end--;
	while (p < end && isspace((unsigned char)*p))
		p++;
	ps->continued = 0;
	if (p == end || *p == ';' || *p == '#')
		return 0;
	if (ps->have_key && p > str) {
		ps->continued = 1;
		return check_continuation(ps, p);
	}
	if (finish_entry(ps))
		return -EINVAL;
	if (*p == '[')
		return on_section_line(ps, p, end);
	return on_key_line(ps, p, end);
}

/* inih's reader: one line per call, counted and classified. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse_state *ps = stream;
	const char *nl;
	size_t n;

	if (ps->failed)
		return NULL;
	if (!*ps->text) {
		finish_entry(ps);
		return NULL;
	}
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
	return classify(ps, str) ? NULL : str;
}

/* inih drops a " ; comment" from key lines only: the same for continuations. */
static int uncommented_len(const char *s)
{
	const char *p = s;

	while (*p && !(*p == ';' && p > s && isspace((unsigned char)p[-1])))
		p++;
	while (p > s && isspace((unsigned char)p[-1]))
		p--;
	return (int)(p - s);
}

/* An indented line continues the previous key's value (a list goes on). */
static int append_value(struct parse_state *ps, const char *more)
{
	struct config_entry *e = &cur_section(ps)->entries[ps->last];
	size_t len = strlen(e->value);
	int list = len && e->value[len - 1] == ',', more_len = uncommented_len(more);
	char *v = malloc(len + (size_t)more_len + 2);

	if (!v)
		return !fail(ps, "out of memory");
	sprintf(v, "%s%s%.*s", e->value, list || !len ? "" : " ", more_len, more);
	free(e->value);
	e->value = v;
	return 1;
}

static int add_entry(struct parse_state *ps, const struct config_key *k, const char *value)
{
	struct config_section *s = cur_section(ps);
	struct config_entry *e;
	size_t i;

	for (i = 0; i < s->nentries; i++)
		if (!strcmp(s->entries[i].key, k->name))
			return !fail(ps, "%s given twice in this section (first at line %d)",
				     k->name, s->entries[i].line);
	e = realloc(s->entries, (s->nentries + 1) * sizeof(*e));
	if (!e)
		return !fail(ps, "out of memory");
	s->entries = e;
	e = &s->entries[s->nentries];
	e->key = strdup(k->name);
	e->value = strdup(value);
	e->line = ps->line;
	if (!e->key || !e->value) {
		free(e->key);
		free(e->value);
		return !fail(ps, "out of memory");
	}
	ps->last = (long)s->nentries++;
	return 1;
}

/* inih's handler: 1 to go on, 0 on error (the message is in ps->err). */
static int on_key(void *user, const char *section, const char *name,
		  const char *value)
{
	struct parse_state *ps = user;
	const struct config_key *k;
	char keys[1024];

	if (ps->failed)
		return 0;
	if (ps->continued)
		return append_value(ps, value);
	if (ps->sec < 0)
		return !fail(ps, "key '%s' outside a section: put it under [defaults] or "
			     "[experiment NAME]", name);
	if (find_section(ps->cfg, section) != ps->sec)
		return !fail(ps, "the INI parser cut section [%s]: use a shorter name", section);
	k = config_key_find(name);
	if (!k && (!strcmp(name, "repeat") || !strcmp(name, "repeat_index")))
		return !fail(ps, "key '%s' in [%s] is set by cvmbench (which repeat a cell is, "
			     "0 .. repeats-1): to run each cell N times, write repeats = N",
			     name, section);
	if (!k) {
		config_key_names(keys, sizeof(keys));
		return !fail(ps, "unknown key '%s' in [%s]; keys are: %s", name, section, keys);
	}
	return add_entry(ps, k, value);
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
	struct parse_state ps = { .cfg = cfg, .text = text, .sec = -1, .last = -1,
				  .err = err, .errlen = errlen };
	int rc;

	if (cfg) {
		cfg->path = strdup(path);
		cfg->text = strdup(text);
	}
	if (!cfg || !cfg->path || !cfg->text) {
		snprintf(err, errlen, "%s: out of memory", path);
		config_free(cfg);
		return -ENOMEM;
	}
	cfg->max_cells = CONFIG_MAX_CELLS;
	rc = ini_parse_stream(read_line, &ps, on_key, &ps);
	if (!ps.failed && rc > 0)
		fail_at(&ps, rc, "syntax error: expected [section], key = value or a ; comment");
	else if (!ps.failed && rc < 0)
		snprintf(err, errlen, "%s: out of memory", path);
	else if (!ps.failed && !count_experiments(cfg))
		snprintf(err, errlen, "%s: no [experiment NAME] section: nothing to run", path);
	else if (!ps.failed) {
		*out = cfg;
		return 0;
	}
	config_free(cfg);
	return rc < 0 ? -ENOMEM : -EINVAL;
}
