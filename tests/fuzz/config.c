// SPDX-License-Identifier: MIT
/*
 * tests/fuzz/config.c - libFuzzer target for the config reader (inih and
 * config.c), the value checks (config-values.c, config-keys.c) and the
 * matrix expansion (matrix.c), built with ASan and UBSan by `make fuzz`.
 * Besides "no crash, no leak, no undefined behaviour" it checks what the
 * issues promised: a refusal has a one-line message naming the file, no
 * expansion exceeds the cell limit, no two cells share a spec or a key, and
 * every spec ends with its repeat line (nothing cut).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"

#define FUZZ_MAX_CELLS 2000

static void check(int cond, const char *what, const char *detail)
{
	if (cond)
		return;
	fprintf(stderr, "fuzz-config: %s: %s\n", what, detail);
	abort();
}

static void check_error(const char *err)
{
	check(!strncmp(err, "fuzz.ini", 8), "the message does not name the file", err);
	check(!strchr(err, '\n'), "the message is not one line", err);
}

static int by_spec(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_cells(const struct cell *cells, size_t n)
{
	const char **specs = malloc((n + 1) * sizeof(*specs));
	char tail[32];
	size_t i, len;

	check(n <= FUZZ_MAX_CELLS, "more cells than the limit", "");
	for (i = 0; i < n; i++) {
		snprintf(tail, sizeof(tail), "\nrepeat = %d\n", cells[i].repeat_index);
		len = strlen(cells[i].spec);
		check(len > strlen(tail) && !strcmp(cells[i].spec + len - strlen(tail), tail),
		      "a spec does not end with its repeat line", cells[i].spec);
		specs[i] = cells[i].spec;
	}
	qsort(specs, n, sizeof(*specs), by_spec);
	for (i = 1; i < n; i++)
		check(strcmp(specs[i - 1], specs[i]) != 0, "two cells share a spec", specs[i]);
	for (i = 0; i < n; i++)
		specs[i] = cells[i].key;
	qsort(specs, n, sizeof(*specs), by_spec);
	for (i = 1; i < n; i++)
		check(strcmp(specs[i - 1], specs[i]) != 0, "two cells share a key", specs[i]);
	free(specs);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = strndup((const char *)data, size), err[2048];
	struct config *cfg = NULL;
	struct cell *cells = NULL;
	size_t n = 0;

	if (!text)
		return 0;
	if (config_load_string("fuzz.ini", text, &cfg, err, sizeof(err))) {
		check_error(err);
	} else {
		cfg->max_cells = FUZZ_MAX_CELLS;
		if (config_expand(cfg, &cells, &n, err, sizeof(err)))
			check_error(err);
		else
			check_cells(cells, n);
		config_cells_free(cells, n);
		config_free(cfg);
	}
	free(text);
	return 0;
}
