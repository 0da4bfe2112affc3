// SPDX-License-Identifier: MIT
/*
 * config-diff.c - the keys in which two configs differ, section by section:
 * what `run --resume` names when the config given is not the one the run
 * in the database was measured with. Comments, blank lines, order and the
 * spelling of a number ("01" and "1") are not differences.
 */
#include <stdio.h>
#include <string.h>

#include "config.h"
#include "config-diff.h"

struct diff_out {
	char *buf;
	size_t len, used;
	int n;
};

static const struct config_section *section_find(const struct config *c,
						 const struct config_section *s)
{
	size_t i;

	for (i = 0; i < c->nsections; i++)
		if (c->sections[i].is_defaults == s->is_defaults &&
		    !strcmp(c->sections[i].name, s->name))
			return &c->sections[i];
	return NULL;
}

/* The canonical name of @key (an alias names its key). */
static const char *key_name(const char *key)
{
	const struct config_key *k = config_key_find(key);

	return k ? k->name : key;
}

static const struct config_entry *entry_find(const struct config_section *s,
					     const char *key)
{
	size_t i;

	for (i = 0; s && i < s->nentries; i++)
		if (!strcmp(key_name(s->entries[i].key), key_name(key)))
			return &s->entries[i];
	return NULL;
}

/* Add "[section] key: 'a' vs 'b'" (long values cut at 40 bytes). */
static void add(struct diff_out *d, const struct config_section *s, const char *key,
		const char *a, const char *b)
{
	int l;

	if (d->used >= d->len)
		return;
	l = snprintf(d->buf + d->used, d->len - d->used, "%s[%s%s] %s: %s%.40s%s vs %s%.40s%s",
		     d->n ? "; " : "", s->is_defaults ? "defaults" : "experiment ",
		     s->is_defaults ? "" : s->name, key, a ? "'" : "", a ? a : "absent",
		     a ? "'" : "", b ? "'" : "", b ? b : "absent", b ? "'" : "");
	d->n++;
	if (l > 0)
		d->used += (size_t)l;
	if (d->used > d->len)
		d->used = d->len;
}

/* Same values: a list element by element, each as config_value_same() says. */
static int same_value(const char *key, const char *a, const char *b)
{
	const struct config_key *k = config_key_find(key);
	struct config_values va = { 0 }, vb = { 0 };
	size_t i;
	int same;

	if (!k)
		return !strcmp(a, b);
	if (config_values_split(k, a, &va) || config_values_split(k, b, &vb)) {
		same = !strcmp(a, b);
		goto out;
	}
	same = va.n == vb.n;
	for (i = 0; same && i < va.n; i++)
		same = config_value_same(k, va.v[i], vb.v[i]);
out:
	config_values_free(&va);
	config_values_free(&vb);
	return same;
}

/*
 * Entries of @sa missing or different in @sb (@a_first: @sa is the first
 * config's), or with !@a_first only those missing; a section only one has
 * counts even when it has no entries.
 */
static void diff_section(struct diff_out *d, const struct config_section *sa,
			 const struct config_section *sb, int a_first)
{
	const struct config_entry *e;
	size_t i;

	if (!sb && !sa->nentries)
		add(d, sa, "(section)", a_first ? "present" : NULL, a_first ? NULL : "present");
	for (i = 0; i < sa->nentries; i++) {
		e = entry_find(sb, sa->entries[i].key);
		if (e && (!a_first || same_value(e->key, sa->entries[i].value, e->value)))
			continue;
		if (a_first)
			add(d, sa, key_name(sa->entries[i].key), sa->entries[i].value,
			    e ? e->value : NULL);
		else
			add(d, sa, key_name(sa->entries[i].key), NULL, sa->entries[i].value);
	}
}

/**
 * config_diff() - write the keys in which @a and @b differ to @buf, as
 * "[experiment x] invocations: '5' vs '7'; [defaults] size: 'test' vs
 * absent" (a section only one config has counts as its keys). Returns the
 * number of differences (0: the same matrix).
 */
int config_diff(const struct config *a, const struct config *b, char *buf, size_t len)
{
	struct diff_out d = { buf, len, 0, 0 };
	const struct config_section *s;
	size_t i;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < a->nsections; i++) {
		s = section_find(b, &a->sections[i]);
		diff_section(&d, &a->sections[i], s, 1);
	}
	for (i = 0; i < b->nsections; i++) {
		s = section_find(a, &b->sections[i]);
		diff_section(&d, &b->sections[i], s, 0);
	}
	return d.n;
}

/**
 * config_diff_text() - whether @text, a run's stored config, is the config
 * @cfg: the same text, or key by key (config_diff()). Returns 1 when it is;
 * 0 when not, with the differing keys (or why it cannot be read) in @why.
 */
int config_diff_text(const char *text, const struct config *cfg, char *why, size_t len)
{
	struct config *old = NULL;
	char err[512];
	int same;

	snprintf(why, len, "its config cannot be read");
	if (text && !strcmp(text, cfg->text))
		return 1;
	if (!text || config_load_string("(config of the run)", text, &old, err, sizeof(err)))
		return 0;
	same = !config_diff(old, cfg, why, len);
	config_free(old);
	return same;
}
