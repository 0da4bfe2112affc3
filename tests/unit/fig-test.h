/* SPDX-License-Identifier: MIT */
/*
 * fig-test.h - a figure's data function run on a test database: the data
 * file it wrote into @out (NUL-terminated), or on -ENODATA its reason
 * (ctx.why). Returns what the function returned.
 */
#ifndef CVMBENCH_FIG_TEST_H
#define CVMBENCH_FIG_TEST_H

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "figures.h"

static inline int fig_test_draw(sqlite3 *h, int64_t run, int (*fn)(struct figure_ctx *),
				char *out, size_t len, struct figure_ctx *ctx)
{
	int ret;
	size_t n;

	memset(ctx, 0, sizeof(*ctx));
	ctx->h = h;
	ctx->run_id = run;
	ctx->data = tmpfile();
	if (!ctx->data)
		return -errno;
	ret = fn(ctx);
	rewind(ctx->data);
	n = fread(out, 1, len - 1, ctx->data);
	out[n] = '\0';
	fclose(ctx->data);
	if (ret == -ENODATA)
		snprintf(out, len, "%s", ctx->why);
	return ret;
}

#endif
