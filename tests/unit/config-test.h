/* SPDX-License-Identifier: MIT */
/*
 * config-test.h - helpers shared by the config unit tests: load a config
 * from a string and expect it to load, or to fail with a given message.
 */
#ifndef CVMBENCH_CONFIG_TEST_H
#define CVMBENCH_CONFIG_TEST_H

#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tap.h"

static inline int load(const char *text, struct config **cfg, char *err, size_t len)
{
	err[0] = '\0';
	return config_load_string("t.ini", text, cfg, err, len);
}

/* Load and expand @text; the cells in *@cells (NULL on error), message in @err. */
static inline int load_expand(const char *text, struct cell **cells, size_t *n,
			      char *err, size_t len)
{
	struct config *cfg = NULL;
	int ret = load(text, &cfg, err, len);

	*cells = NULL;
	*n = 0;
	if (!ret)
		ret = config_expand(cfg, cells, n, err, len);
	config_free(cfg);
	return ret;
}

/* Expect loading (or expanding) @text to fail with a one-line message containing @want. */
static inline void expect_error(const char *text, const char *want, const char *what)
{
	struct cell *cells;
	size_t n;
	char err[2048];

	if (!load_expand(text, &cells, &n, err, sizeof(err))) {
		tap_ok(0, "%s: expected an error", what);
		config_cells_free(cells, n);
		return;
	}
	if (strchr(err, '\n')) {
		tap_ok(0, "%s: the message is one line", what);
		printf("#   got: %s\n", err);
		return;
	}
	tap_contains(err, want, what);
}

#endif
