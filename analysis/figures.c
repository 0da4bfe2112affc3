// SPDX-License-Identifier: MIT
/*
 * figures.c - the registry of figures (expanded from figure-list.h; each
 * fig-NAME.c defines its name, what it shows, its gnuplot script in
 * analysis/ and the function that writes its data) and the gnuplot
 * variables a figure's data function hands to its script.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "figure-list.h"
#include "figures.h"
#include "gp-string.h"

#define DECLARE_FIGURE(ident) extern const struct figure figure_##ident;
FIGURES(DECLARE_FIGURE)
#undef DECLARE_FIGURE

#define LIST_FIGURE(ident) &figure_##ident,
static const struct figure *const figures[] = { FIGURES(LIST_FIGURE) };
#undef LIST_FIGURE

#define N_FIGURES (sizeof(figures) / sizeof(figures[0]))

/* Old names a figure had, still accepted by `plot` (not listed). */
static const char *const aliases[][2] = {
	{ "memory", "memory-scaling" },
};

/**
 * figure_find() - the figure called @name (or an old name of it), or NULL.
 */
const struct figure *figure_find(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(aliases) / sizeof(aliases[0]); i++)
		if (!strcmp(aliases[i][0], name))
			name = aliases[i][1];
	for (i = 0; i < N_FIGURES; i++)
		if (!strcmp(figures[i]->name, name))
			return figures[i];
	return NULL;
}

/**
 * figure_at() - the @i-th figure of the registry, NULL past the last:
 * for (i = 0; (f = figure_at(i)); i++).
 */
const struct figure *figure_at(size_t i)
{
	return i < N_FIGURES ? figures[i] : NULL;
}

/* Append "; " (unless first), @name, '=' and @value; 0 or -ENOSPC. */
static int vars_append(struct figure_ctx *ctx, const char *name, const char *value)
{
	size_t len = strlen(ctx->vars);
	int n = snprintf(ctx->vars + len, sizeof(ctx->vars) - len, "%s%s=%s",
			 len ? "; " : "", name, value);

	if (n < 0 || (size_t)n >= sizeof(ctx->vars) - len) {
		ctx->vars[len] = '\0';
		return -ENOSPC;
	}
	return 0;
}

/* A gnuplot variable name: a letter or '_', then letters, digits, '_'. */
static int name_ok(const char *name)
{
	const char *p = name;

	if (!isalpha((unsigned char)*p) && *p != '_')
		return 0;
	while (*++p)
		if (!isalnum((unsigned char)*p) && *p != '_')
			return 0;
	return p - name < 32;
}

/* Latch the first error and the variable it was about. */
static void vars_fail(struct figure_ctx *ctx, const char *name, int err)
{
	if (ctx->vars_err)
		return;
	ctx->vars_err = err;
	snprintf(ctx->vars_bad, sizeof(ctx->vars_bad), "%s", name);
}

/**
 * figure_var_int() - set the gnuplot variable @name to the integer @value
 * for the figure's script. A bad name or a full buffer is latched in
 * @ctx->vars_err (plot_render() then fails the figure, draws nothing).
 */
void figure_var_int(struct figure_ctx *ctx, const char *name, long long value)
{
	char num[32];
	int ret;

	snprintf(num, sizeof(num), "%lld", value);
	ret = name_ok(name) ? vars_append(ctx, name, num) : -EINVAL;
	if (ret)
		vars_fail(ctx, name, ret);
}

/**
 * figure_var_str() - set the gnuplot variable @name to the string @value,
 * written as a quoted constant by gp_string_quote(): never read as
 * gnuplot language. A control character in @value is drawn as a space
 * (gp_printable(), the rule of every label); a bad name or a full buffer
 * is latched in @ctx->vars_err as for figure_var_int().
 */
void figure_var_str(struct figure_ctx *ctx, const char *name, const char *value)
{
	char q[1024], v[sizeof(q)];
	int ret = strlen(value) < sizeof(v) ? 0 : -ENOSPC;   /* never cut */

	gp_printable(v, sizeof(v), value);
	ret = ret ?: name_ok(name) ? gp_string_quote(q, sizeof(q), v) : -EINVAL;

	ret = ret ?: vars_append(ctx, name, q);
	if (ret)
		vars_fail(ctx, name, ret);
}

/* The next line of @text up to @width characters, cut at a blank if any. */
static size_t line_len(const char *text, size_t width)
{
	size_t n = strlen(text), cut;

	if (n <= width)
		return n;
	for (cut = width; cut > 0 && text[cut] != ' '; cut--)
		;
	return cut ? cut : width;
}

/**
 * figure_var_text() - set the gnuplot variable @name to @text broken into
 * lines of about @width characters at blanks, for a label: each line is a
 * quoted constant (gp_string_quote()), joined by "\n" in the program.
 * Control characters and errors as for figure_var_str().
 */
void figure_var_text(struct figure_ctx *ctx, const char *name, const char *text,
		     size_t width)
{
	char expr[2048] = "", line[512], q[1100];
	size_t n, l;
	int ret = name_ok(name) && width && width < sizeof(line) ? 0 : -EINVAL;

	do {
		n = line_len(text, width);
		snprintf(line, sizeof(line), "%.*s", (int)n, text);
		gp_printable(line, sizeof(line), line);
		ret = ret ?: gp_string_quote(q, sizeof(q), line);
		l = strlen(expr);
		if (!ret && snprintf(expr + l, sizeof(expr) - l, "%s%s", l ? ".\"\\n\"." : "",
				     q) >= (int)(sizeof(expr) - l))
			ret = -ENOSPC;
		text += n;
		text += strspn(text, " ");
	} while (!ret && *text);
	ret = ret ?: vars_append(ctx, name, expr);
	if (ret)
		vars_fail(ctx, name, ret);
}

/**
 * figure_source() - note that the figure draws @n @unit ("invocations",
 * "container starts") of cell @cell_id: the report's caption names the
 * experiments of these cells, their N and the run. A cell noted twice
 * counts once among the cells, its @n each time.
 */
void figure_source(struct figure_ctx *ctx, int64_t cell_id, long long n,
		   const char *unit)
{
	size_t i;

	ctx->src_n += n;
	ctx->src_unit = unit;
	for (i = 0; i < ctx->src_ncells; i++)
		if (ctx->src_cells[i] == cell_id)
			return;
	if (ctx->src_ncells < FIGURE_SRC_MAX)
		ctx->src_cells[ctx->src_ncells++] = cell_id;
}
