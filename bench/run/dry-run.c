// SPDX-License-Identifier: MIT
/*
 * dry-run.c - what `cvmbench run --dry-run` prints: one line per cell, its
 * key and the settings that tell it from the other cells of its experiment
 * (the spec lines whose value is not the same in all of them, a line absent
 * from a cell counting as the empty value; the experiment is the key's
 * prefix). With --verbose each cell's whole spec follows.
 *
 * Linear in the spec lines: one pass records, for every (experiment, key),
 * its first value, whether another value was seen and in how many cells it
 * appears (a hash table); the printing pass looks each line up.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dry-run.h"

/* One (experiment, key) of the matrix. */
struct setting {
	struct setting *next;        /* in its hash bucket */
	const char *experiment;      /* the cell's, not a copy */
	char key[64];
	const char *value;           /* the first cell's value, in its spec */
	size_t value_len;
	size_t cells;                /* cells whose spec has the line */
	int varies;                  /* another cell's value differs */
};

/* The table; the key "" (no spec line has it) counts an experiment's cells. */
struct settings {
	struct setting **bucket;
	size_t nbucket;
};

/* FNV-1a over @experiment and @key. */
static size_t setting_hash(const char *experiment, const char *key)
{
	uint64_t h = 1469598103934665603ULL;
	const char *s;

	for (s = experiment; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	h = (h ^ 0xff) * 1099511628211ULL;
	for (s = key; *s; s++)
		h = (h ^ (unsigned char)*s) * 1099511628211ULL;
	return (size_t)h;
}

/* The setting (@experiment, @key) of @t, made when @make and absent. */
static struct setting *setting_get(struct settings *t, const char *experiment,
				   const char *key, int make)
{
	size_t b = setting_hash(experiment, key) % t->nbucket;
	struct setting *s;

	for (s = t->bucket[b]; s; s = s->next)
		if (!strcmp(s->key, key) && !strcmp(s->experiment, experiment))
			return s;
	if (!make || !(s = calloc(1, sizeof(*s))))
		return NULL;
	s->experiment = experiment;
	snprintf(s->key, sizeof(s->key), "%s", key);
	s->next = t->bucket[b];
	t->bucket[b] = s;
	return s;
}

/*
 * Walk the "key = value" lines of @spec: @fn(ctx, key, value, len) for each
 * whose key fits; stops at the first nonzero return and returns it.
 */
static int spec_each(const char *spec, int (*fn)(void *, const char *, const char *, size_t),
		     void *ctx)
{
	const char *p = spec, *eq, *nl;
	char key[64];
	int ret;

	for (; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		eq = strstr(p, " = ");
		if (!eq || (nl && eq > nl) || (size_t)(eq - p) >= sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
		ret = fn(ctx, key, eq + 3, nl ? (size_t)(nl - eq - 3) : strlen(eq + 3));
		if (ret)
			return ret;
	}
	return 0;
}

struct record_ctx {
	struct settings *t;
	const char *experiment;
};

/* spec_each() callback: record one line of a cell in the table. */
static int record_line(void *arg, const char *key, const char *value, size_t len)
{
	struct record_ctx *r = arg;
	struct setting *s = setting_get(r->t, r->experiment, key, 1);

	if (!s)
		return -ENOMEM;
	if (!s->cells++) {
		s->value = value;
		s->value_len = len;
	} else if (len != s->value_len || strncmp(value, s->value, len)) {
		s->varies = 1;
	}
	return 0;
}

/* Fill @t from the @n cells: every line's value, and whether it varies. */
static int settings_fill(struct settings *t, const struct cell *cells, size_t n)
{
	struct record_ctx r = { .t = t };
	struct setting *s, *exp;
	size_t i, b;
	int ret;

	for (i = 0; i < n; i++) {
		r.experiment = cells[i].experiment;
		exp = setting_get(t, r.experiment, "", 1);
		if (!exp)
			return -ENOMEM;
		exp->cells++;
		ret = spec_each(cells[i].spec, record_line, &r);
		if (ret)
			return ret;
	}
	/* a line some cells of the experiment lack varies unless its value is "" */
	for (b = 0; b < t->nbucket; b++)
		for (s = t->bucket[b]; s; s = s->next) {
			exp = setting_get(t, s->experiment, "", 0);
			if (s->key[0] && s->value_len && s->cells < exp->cells)
				s->varies = 1;
		}
	return 0;
}

static void settings_free(struct settings *t)
{
	struct setting *s, *next;
	size_t b;

	for (b = 0; t->bucket && b < t->nbucket; b++)
		for (s = t->bucket[b]; s; s = next) {
			next = s->next;
			free(s);
		}
	free(t->bucket);
}

struct print_ctx {
	FILE *f;
	struct settings *t;
	const char *experiment;
};

/* spec_each() callback: print " key=value" when the line varies in its experiment. */
static int print_line(void *arg, const char *key, const char *value, size_t len)
{
	struct print_ctx *pc = arg;
	struct setting *s = setting_get(pc->t, pc->experiment, key, 0);

	if (strcmp(key, "experiment") && s && s->varies)
		fprintf(pc->f, " %s=%.*s", key, (int)len, value);
	return 0;
}

/**
 * dry_run_print() - print the @n cells of a config to @f: "KEY key=value
 * ..." with the settings that vary within its experiment, and with @verbose each
 * cell's whole spec under its line.
 *
 * Returns 0, or -ENOMEM (nothing printed).
 */
int dry_run_print(FILE *f, const struct cell *cells, size_t n, int verbose)
{
	struct settings t = { .nbucket = 2 * n + 64 };
	struct print_ctx pc = { .f = f, .t = &t };
	size_t i;
	int ret;

	t.bucket = calloc(t.nbucket, sizeof(*t.bucket));
	ret = t.bucket ? settings_fill(&t, cells, n) : -ENOMEM;
	if (ret) {
		settings_free(&t);
		return ret;
	}
	for (i = 0; i < n; i++) {
		fputs(cells[i].key, f);
		pc.experiment = cells[i].experiment;
		spec_each(cells[i].spec, print_line, &pc);
		fputc('\n', f);
		if (verbose)
			fprintf(f, "%s\n", cells[i].spec);
	}
	if (!verbose && n)
		fprintf(f, "(%zu cells; shown: the settings that vary within each experiment; "
			"--verbose prints every key of every cell)\n", n);
	settings_free(&t);
	return 0;
}
