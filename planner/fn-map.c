// SPDX-License-Identifier: MIT
/* fn-map.c - trace function names to dense indexes (fn-map.h). */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fn-map.h"

static uint64_t fnv1a(const char *s, size_t len)
{
	uint64_t h = 1469598103934665603ULL;

	while (len--) {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

static size_t probe(const struct fn_map *m, const char *s, size_t len)
{
	size_t i = fnv1a(s, len) & (m->nslot - 1);

	while (m->slot[i]) {
		const char *o = m->name[m->slot[i] - 1];

		if (!strncmp(o, s, len) && !o[len])
			break;
		i = (i + 1) & (m->nslot - 1);
	}
	return i;
}

static int grow(struct fn_map *m)
{
	size_t nslot = m->nslot ? 2 * m->nslot : 1024, i;
	uint32_t *old = m->slot, *slot = calloc(nslot, sizeof(*slot));
	size_t oldn = m->nslot;

	if (!slot)
		return -ENOMEM;
	m->slot = slot;
	m->nslot = nslot;
	for (i = 0; i < oldn; i++)
		if (old[i]) {
			const char *s = m->name[old[i] - 1];

			m->slot[probe(m, s, strlen(s))] = old[i];
		}
	free(old);
	return 0;
}

static int add_name(struct fn_map *m, const char *s, size_t len)
{
	char *copy;

	if (m->n == m->cap_names) {
		size_t cap = m->cap_names ? 2 * m->cap_names : 256;
		char **p = realloc(m->name, cap * sizeof(*p));

		if (!p)
			return -ENOMEM;
		m->name = p;
		m->cap_names = cap;
	}
	copy = strndup(s, len);
	if (!copy)
		return -ENOMEM;
	m->name[m->n++] = copy;
	return 0;
}

long fn_map_get(struct fn_map *m, const char *s, size_t len, int add)
{
	size_t i;

	if ((m->n + 1) * 2 > m->nslot && grow(m))
		return -ENOMEM;
	i = probe(m, s, len);
	if (m->slot[i])
		return (long)m->slot[i] - 1;
	if (!add)
		return -ENOENT;
	if (add_name(m, s, len))
		return -ENOMEM;
	m->slot[i] = (uint32_t)m->n;
	return (long)m->n - 1;
}

void fn_map_free(struct fn_map *m)
{
	size_t i;

	for (i = 0; i < m->n; i++)
		free(m->name[i]);
	free(m->name);
	free(m->slot);
	memset(m, 0, sizeof(*m));
}
