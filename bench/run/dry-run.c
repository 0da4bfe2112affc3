// SPDX-License-Identifier: MIT
/*
 * dry-run.c - what `cvmbench run --dry-run` prints: one line per cell, its
 * key and the settings that tell it from the other cells of its experiment
 * (the spec lines whose value is not the same in all of them; the
 * experiment is the key's prefix). With --verbose each cell's whole spec
 * follows.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dry-run.h"

/* The value of spec line @key in @spec ("" when absent), length in *@len. */
static const char *spec_value(const char *spec, const char *key, size_t *len)
{
	size_t kl = strlen(key);
	const char *p = spec;

	while (p && *p) {
		if (!strncmp(p, key, kl) && !strncmp(p + kl, " = ", 3)) {
			p += kl + 3;
			*len = strcspn(p, "\n");
			return p;
		}
		p = strchr(p, '\n');
		p = p ? p + 1 : NULL;
	}
	*len = 0;
	return "";
}

/* Whether spec line @key has one value in all cells of @c's experiment. */
static int same_everywhere(const struct cell *cells, size_t n, const struct cell *c,
			   const char *key)
{
	size_t i, l0, l;
	const char *v0 = spec_value(c->spec, key, &l0), *v;

	for (i = 0; i < n; i++) {
		if (strcmp(cells[i].experiment, c->experiment))
			continue;
		v = spec_value(cells[i].spec, key, &l);
		if (l != l0 || strncmp(v, v0, l))
			return 0;
	}
	return 1;
}

/* " key=value" of each line of @c's spec whose value varies in its experiment. */
static void print_varying(FILE *f, const struct cell *c, const struct cell *cells,
			  size_t n)
{
	const char *p = c->spec, *eq, *nl;
	char key[64];

	for (; p && *p; p = nl ? nl + 1 : NULL) {
		nl = strchr(p, '\n');
		eq = strstr(p, " = ");
		if (!eq || (nl && eq > nl) || (size_t)(eq - p) >= sizeof(key))
			continue;
		snprintf(key, sizeof(key), "%.*s", (int)(eq - p), p);
		if (!strcmp(key, "experiment") || same_everywhere(cells, n, c, key))
			continue;
		fprintf(f, " %s=%.*s", key, (int)(nl ? nl - eq - 3 : (long)strlen(eq + 3)),
			eq + 3);
	}
}

/**
 * dry_run_print() - print the @n cells of a config to @f: "KEY key=value
 * ..." with the settings that vary within its experiment, and with @verbose each
 * cell's whole spec under its line.
 */
void dry_run_print(FILE *f, const struct cell *cells, size_t n, int verbose)
{
	size_t i;

	for (i = 0; i < n; i++) {
		fputs(cells[i].key, f);
		print_varying(f, &cells[i], cells, n);
		fputc('\n', f);
		if (verbose)
			fprintf(f, "%s\n", cells[i].spec);
	}
	if (!verbose && n)
		fprintf(f, "(%zu cells; shown: the settings that vary within each experiment; "
			"--verbose prints every key of every cell)\n", n);
}
