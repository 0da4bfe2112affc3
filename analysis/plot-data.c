// SPDX-License-Identifier: MIT
/*
 * plot-data.c - the one rule for degenerate numbers, the same for every
 * figure: plot.c runs it on each data file a figure wrote, before gnuplot
 * reads it. Every quantity a figure draws (a latency, a duration, a count,
 * a rate, a size, a ratio, an x position) is finite and not negative (a
 * FIGURE_SIGNED figure's may be: its percentages over a reference), so an
 * unquoted number that is infinite, negative or beyond PLOT_DATA_HUGE cannot
 * be a point: it is written as NaN, which gnuplot leaves out of the plot and
 * of its ranges, and its row counts as one point left out. The rows, blocks
 * and labels stay where they were (a bar's tick label, a block's index).
 * NaN and '?' are a figure's own "no value" and stay as they are; quoted
 * fields (labels, gp_data_string()) are never read as numbers. The file
 * ends with a blank line: gnuplot 5.4 crashes (SIGSEGV) on `with labels`
 * whose every point is undefined when the file ends just after them.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "plot-data.h"

enum drop_why { DROP_NONE, DROP_NONFINITE, DROP_NEGATIVE, DROP_HUGE };

/* Why the unquoted field @tok (@len bytes) cannot be drawn, or DROP_NONE. */
static enum drop_why field_why(const char *tok, size_t len, int signed_ok)
{
	char small[64], *num = len < sizeof(small) ? small : malloc(len + 1), *end;
	int whole;
	double v;

	if (!num)
		return DROP_NONE;
	memcpy(num, tok, len);        /* a %.3f of 1e300 is 305 digits long */
	num[len] = '\0';
	v = strtod(num, &end);
	whole = end != num && !*end;
	if (num != small)
		free(num);
	if (!whole || isnan(v))
		return DROP_NONE;         /* not a number, or the figure's NaN */
	if (isinf(v))
		return DROP_NONFINITE;
	if (v < 0 && !signed_ok)
		return DROP_NEGATIVE;
	return fabs(v) > PLOT_DATA_HUGE ? DROP_HUGE : DROP_NONE;
}

/* Copy the line @s (without its '\n') to @out, bad numbers as NaN; its why. */
static enum drop_why clean_line(const char *s, size_t n, int signed_ok, FILE *out)
{
	enum drop_why why = DROP_NONE, w;
	size_t i = 0, j;

	if (n && s[0] == '#')
		return fwrite(s, 1, n, out), DROP_NONE;
	while (i < n) {
		for (j = i; j < n && s[j] != ' ' && s[j] != '\t'; j++)
			if (s[j] == '"')          /* a quoted field: to its closing quote */
				for (j++; j < n && s[j] != '"'; j++)
					;
		if (j > n)
			j = n;                /* a quote left open ends with the line */
		w = s[i] == '"' ? DROP_NONE : field_why(s + i, j - i, signed_ok);
		if (w == DROP_NONE)
			fwrite(s + i, 1, j - i, out);
		else
			fputs("NaN", out);
		why = why ?: w;
		for (i = j; i < n && (s[i] == ' ' || s[i] == '\t'); i++)
			fputc(s[i], out);
	}
	return why;
}

static void drop_count(struct plot_drop *d, enum drop_why why)
{
	d->nonfinite += why == DROP_NONFINITE;
	d->negative += why == DROP_NEGATIVE;
	d->huge += why == DROP_HUGE;
}

/* The cleaned text of @in (@n bytes) into @out, counted in @d. */
static void clean_text(const char *in, size_t n, int signed_ok, FILE *out,
		       struct plot_drop *d)
{
	const char *p = in, *nl;

	while (p < in + n) {
		nl = memchr(p, '\n', (size_t)(in + n - p));
		drop_count(d, clean_line(p, nl ? (size_t)(nl - p) : (size_t)(in + n - p),
					 signed_ok, out));
		fputc('\n', out);
		if (!nl)
			break;
		p = nl + 1;
	}
	if (n < 2 || memcmp(in + n - 2, "\n\n", 2))
		fputc('\n', out);        /* the blank line at the end, see above */
}

/* The whole file @path into a malloc'd buffer (*@buf, *@n); 0 or -errno. */
static int slurp(const char *path, char **buf, size_t *n)
{
	FILE *f = fopen(path, "r"), *m;
	char chunk[8192];
	size_t k;
	int ret = 0;

	if (!f)
		return -errno;
	m = open_memstream(buf, n);
	if (!m) {
		fclose(f);
		return -ENOMEM;
	}
	while ((k = fread(chunk, 1, sizeof(chunk), f)) > 0)
		fwrite(chunk, 1, k, m);
	if (ferror(f))
		ret = -EIO;
	fclose(f);
	return fclose(m) ? -ENOMEM : ret;
}

/**
 * plot_data_clean() - rewrite the data file @path by the rule at the top of
 * this file, counting the rows left out in @d (zeroed first); @signed_ok
 * for a FIGURE_SIGNED figure.
 * Returns 0 or -errno.
 */
int plot_data_clean(const char *path, int signed_ok, struct plot_drop *d)
{
	char *in = NULL;
	size_t n = 0;
	FILE *out;
	int ret;

	memset(d, 0, sizeof(*d));
	ret = slurp(path, &in, &n);
	out = ret ? NULL : fopen(path, "w");
	if (!ret && !out)
		ret = -errno;
	if (out) {
		clean_text(in, n, signed_ok, out, d);
		if (fclose(out))
			ret = -EIO;
	}
	free(in);
	return ret;
}

/** plot_drop_total() - the points left out, whatever why. */
long long plot_drop_total(const struct plot_drop *d)
{
	return d->nonfinite + d->negative + d->huge;
}

/* Append ", N WHAT" (or "N WHAT" first) to @buf when @n. */
static void note_add(char *buf, size_t len, long long n, const char *what)
{
	size_t l = strlen(buf);

	if (n)
		snprintf(buf + l, len - l, "%s%lld %s", l ? ", " : "", n, what);
}

/**
 * plot_drop_note() - "left out 3 points: 2 not finite, 1 negative" into
 * @buf, the note a figure and stderr give; "" when none was left out.
 */
void plot_drop_note(const struct plot_drop *d, char *buf, size_t len)
{
	long long t = plot_drop_total(d);
	char why[160] = "";

	buf[0] = '\0';
	if (!t)
		return;
	note_add(why, sizeof(why), d->nonfinite, "not finite");
	note_add(why, sizeof(why), d->negative, "negative");
	note_add(why, sizeof(why), d->huge, "beyond 1e18");
	snprintf(buf, len, "left out %lld point%s that cannot be drawn: %s", t,
		 t == 1 ? "" : "s", why);
}
