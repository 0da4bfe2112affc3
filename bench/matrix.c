// SPDX-License-Identifier: MIT
/*
 * matrix.c - expand each experiment of a config into cells: the cartesian
 * product of its comma-list keys, times its repeats. Each cell carries its
 * spec (every key = value, verbatim) and a stable key derived from it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define MAX_VALUES 64

struct dimension {
	const struct config_key *key;
	char *values[MAX_VALUES];
	int count;
};

static const char *lookup(const struct config_section *s, const char *key)
{
	size_t i;

	for (i = 0; s && i < s->nentries; i++)
		if (!strcmp(s->entries[i].key, key))
			return s->entries[i].value;
	return NULL;
}

static const struct config_section *defaults_of(const struct config *cfg)
{
	size_t i;

	for (i = 0; i < cfg->nsections; i++)
		if (cfg->sections[i].is_defaults)
			return &cfg->sections[i];
	return NULL;
}

/* Split "a, b,c" into trimmed values (lists of non-matrix keys stay whole). */
static int split_values(struct dimension *d, const char *value)
{
	char *copy = strdup(value), *tok, *save = NULL;

	if (!copy)
		return -ENOMEM;
	if (!d->key->matrix) {
		d->values[d->count++] = copy;
		return 0;
	}
	for (tok = strtok_r(copy, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		while (*tok == ' ' || *tok == '\t')
			tok++;
		tok[strcspn(tok, " \t")] = '\0';
		if (*tok && d->count < MAX_VALUES)
			d->values[d->count++] = strdup(tok);
	}
	free(copy);
	/* a free-text key may be empty ("" = unset) */
	if (!d->count && d->key->type == KEY_STRING)
		d->values[d->count++] = strdup("");
	return d->count ? 0 : -EINVAL;
}

static void free_dimensions(struct dimension *dims)
{
	size_t i;
	int j;

	for (i = 0; i < config_key_count; i++)
		for (j = 0; j < dims[i].count; j++)
			free(dims[i].values[j]);
}

static int build_dimensions(const struct config *cfg, const struct config_section *s,
			    struct dimension *dims, char *err, size_t errlen)
{
	const struct config_section *defaults = defaults_of(cfg);
	size_t i;

	for (i = 0; i < config_key_count; i++) {
		const struct config_key *k = &config_keys[i];
		const char *v = lookup(s, k->name);

		if (!v)
			v = lookup(defaults, k->name);
		if (!v)
			v = k->def;
		dims[i].key = k;
		if (!v) {
			snprintf(err, errlen, "%s:%d: [experiment %s] has no %s: set it there "
				 "or in [defaults]", cfg->path, s->line, s->name, k->name);
			return -EINVAL;
		}
		if (split_values(&dims[i], v)) {
			snprintf(err, errlen, "%s:%d: [experiment %s]: empty %s", cfg->path,
				 s->line, s->name, k->name);
			return -EINVAL;
		}
	}
	return 0;
}

static uint32_t spec_hash(const char *spec)
{
	uint64_t h = 0xcbf29ce484222325ULL;

	for (; *spec; spec++)
		h = (h ^ (unsigned char)*spec) * 0x100000001b3ULL;
	return (uint32_t)(h ^ (h >> 32));
}

static void fill_cell(const char *experiment, const struct dimension *dims,
		      const int *pick, int repeat, struct cell *c)
{
	size_t i, used;

	memset(c, 0, sizeof(*c));
	snprintf(c->experiment, sizeof(c->experiment), "%s", experiment);
	used = (size_t)snprintf(c->spec, sizeof(c->spec), "experiment = %s\n", experiment);
	for (i = 0; i < config_key_count; i++) {
		const char *v = dims[i].values[pick[i]];

		config_value_store(dims[i].key, v, c);
		if (dims[i].key->offset == (size_t)-1 || used >= sizeof(c->spec))
			continue;
		used += (size_t)snprintf(c->spec + used, sizeof(c->spec) - used,
					 "%s = %s\n", dims[i].key->name, v);
	}
	c->repeat_index = repeat;
	if (used < sizeof(c->spec))
		snprintf(c->spec + used, sizeof(c->spec) - used, "repeat = %d\n", repeat);
	snprintf(c->key, sizeof(c->key), "%s-%08x", experiment, spec_hash(c->spec));
}

static int push_cell(struct cell **cells, size_t *n, size_t *cap, const struct cell *c)
{
	if (*n == *cap) {
		size_t ncap = *cap ? *cap * 2 : 16;
		struct cell *nc = realloc(*cells, ncap * sizeof(*nc));

		if (!nc)
			return -ENOMEM;
		*cells = nc;
		*cap = ncap;
	}
	(*cells)[*n] = *c;
	(*cells)[*n].index = (int)*n;
	(*n)++;
	return 0;
}

/* Odometer over the dimensions: the last key varies fastest. 0 when done. */
static int advance(const struct dimension *dims, int *pick)
{
	size_t i = config_key_count;

	while (i-- > 0) {
		if (++pick[i] < dims[i].count)
			return 1;
		pick[i] = 0;
	}
	return 0;
}

static int expand_section(const struct config *cfg, const struct config_section *s,
			  struct cell **cells, size_t *n, size_t *cap, char *err,
			  size_t errlen)
{
	struct dimension dims[64] = { 0 };
	int pick[64] = { 0 }, r, ret;
	struct cell c;

	ret = build_dimensions(cfg, s, dims, err, errlen);
	while (!ret) {
		fill_cell(s->name, dims, pick, 0, &c);
		for (r = 0; r < c.repeats && !ret; r++) {
			fill_cell(s->name, dims, pick, r, &c);
			ret = push_cell(cells, n, cap, &c);
		}
		if (!advance(dims, pick))
			break;
	}
	free_dimensions(dims);
	return ret;
}

int config_expand(const struct config *cfg, struct cell **cells, size_t *ncells,
		  char *err, size_t errlen)
{
	size_t i, n = 0, cap = 0;
	struct cell *out = NULL;
	int ret = 0;

	for (i = 0; i < cfg->nsections && !ret; i++)
		if (!cfg->sections[i].is_defaults)
			ret = expand_section(cfg, &cfg->sections[i], &out, &n, &cap, err,
					     errlen);
	if (ret) {
		free(out);
		return ret;
	}
	*cells = out;
	*ncells = n;
	return 0;
}
