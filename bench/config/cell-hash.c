// SPDX-License-Identifier: MIT
/*
 * cell-hash.c - the hash in a cell's key. It covers what makes the cell
 * differ from the built-in defaults: the experiment, the repeat and each
 * `key = value` line of the spec whose value is not the key's default
 * (numbers compare as numbers: "threads = 00" is at the default 0). The
 * lines are hashed sorted, so neither a new key with a default nor a new
 * order of the key table changes an existing key.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cell-hash.h"
#include "config.h"

#define FNV_OFFSET 0xcbf29ce484222325ULL
#define FNV_PRIME 0x100000001b3ULL

static uint64_t fnv(uint64_t h, const char *p, size_t n)
{
	while (n--)
		h = (h ^ (unsigned char)*p++) * FNV_PRIME;
	return h;
}

/* A "name = value" line of a key at its default (1), or not (0), or -ENOMEM. */
static int at_default(const char *line, size_t len)
{
	const char *eq = memmem(line, len, " = ", 3);
	const struct config_key *k;
	char name[64], *value;
	int ret;

	if (!eq || (size_t)(eq - line) >= sizeof(name))
		return 0;
	memcpy(name, line, (size_t)(eq - line));
	name[eq - line] = '\0';
	k = config_key_find(name);
	if (!k || !k->def)
		return 0;
	value = strndup(eq + 3, len - (size_t)(eq + 3 - line));
	if (!value)
		return -ENOMEM;
	ret = config_value_same(k, value, k->def);
	free(value);
	return ret;
}

static int by_text(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Whether @line ("name = value") is of key @name. */
static int line_of(const char *line, size_t len, const char *name)
{
	size_t l = name ? strlen(name) : 0;

	return l && len > l + 3 && !memcmp(line, name, l) && !memcmp(line + l, " = ", 3);
}

/* Whether @line is of one of the keys of the NULL-ended @drop (NULL: none). */
static int line_dropped(const char *line, size_t len, const char *const *drop)
{
	for (; drop && *drop; drop++)
		if (line_of(line, len, *drop))
			return 1;
	return 0;
}

/*
 * The spec's lines (each with its '\n'), not at their default and not of
 * the keys in @drop (NULL-ended; NULL: none); NULL-ended.
 */
static char **hashed_lines(const char *spec, const char *const *drop, size_t *n)
{
	const char *p, *nl;
	size_t len, lines = 1;
	char **v;
	int skip;

	for (p = spec; (p = strchr(p, '\n')); p++)
		lines++;
	v = calloc(lines + 1, sizeof(*v));
	p = spec;
	for (*n = 0; v && *p; p += len) {
		nl = strchr(p, '\n');
		len = nl ? (size_t)(nl - p) + 1 : strlen(p);
		skip = at_default(p, nl ? len - 1 : len);
		if (line_dropped(p, len, drop))
			skip = 1;
		if (skip > 0)
			continue;
		v[*n] = skip ? NULL : strndup(p, len);
		if (!v[*n])
			goto err_lines;
		(*n)++;
	}
	return v;
err_lines:
	while (*n)
		free(v[--*n]);
	free(v);
	return NULL;
}

/* FNV-1a of the sorted lines of @spec that hashed_lines() keeps. */
static int hash_lines(const char *spec, const char *const *drop, uint64_t *out)
{
	uint64_t h = FNV_OFFSET;
	char **lines;
	size_t i, n;

	lines = hashed_lines(spec, drop, &n);
	if (!lines)
		return -ENOMEM;
	qsort(lines, n, sizeof(*lines), by_text);
	for (i = 0; i < n; i++) {
		h = fnv(h, lines[i], strlen(lines[i]));
		free(lines[i]);
	}
	free(lines);
	*out = h;
	return 0;
}

int cell_hash(const char *spec, int salt, uint32_t *out)
{
	char tail[16] = "";
	uint64_t h;

	if (hash_lines(spec, NULL, &h))
		return -ENOMEM;
	if (salt) {
		snprintf(tail, sizeof(tail), "#%d", salt);
		h = fnv(h, tail, strlen(tail));
	}
	*out = (uint32_t)(h ^ (h >> 32));
	return 0;
}

/*
 * guest-accept is a key of the confidential side only (a regular cell
 * cannot have it): pairing by confidential, a model or CVM cell at either
 * acceptance point has the regular cell with the other keys equal as twin.
 */
int cell_pair_hash(const char *spec, const char *dim, uint64_t *out)
{
	const char *drop[] = { dim, "repeat",
			       !strcmp(dim, "confidential") ? "guest-accept" : NULL, NULL };

	return hash_lines(spec, drop, out);
}
