// SPDX-License-Identifier: MIT
/*
 * svc-parse-text.c - the text readers the tool parsers share: finding a
 * line by its leading key, and strict numbers, durations (to ns) and sizes
 * (to bytes). Strict: a plain decimal number only (no sign, no "nan" or
 * "inf", no hex), and every refusal names the field and the line.
 */
#include <ctype.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "svc-parse-local.h"

static void line_at(const char *start, const char *text, struct svc_line *l)
{
	const char *nl = strchr(start, '\n');
	const char *p;

	l->s = start;
	l->len = nl ? (size_t)(nl - start) : strlen(start);
	l->no = 1;
	for (p = text; p < start; p++)
		l->no += *p == '\n';
}

int svc_line_find(const struct svc_parse_ctx *c, const char *key, struct svc_line *l)
{
	const char *p = c->text, *s;
	size_t k = strlen(key);

	while (*p) {
		for (s = p; *s == ' ' || *s == '\t'; s++)
			;
		if (!strncmp(s, key, k)) {
			line_at(p, c->text, l);
			l->len -= (s + k) - p;
			l->s = s + k;
			return 1;
		}
		p = strchr(p, '\n');
		if (!p)
			break;
		p++;
	}
	return 0;
}

int svc_line_with(const struct svc_parse_ctx *c, const char *needle, struct svc_line *l,
		  const char **hit)
{
	const char *at = strstr(c->text, needle), *start;

	if (!at)
		return 0;
	if (hit)
		*hit = at;
	for (start = at; start > c->text && start[-1] != '\n'; start--)
		;
	line_at(start, c->text, l);
	while (l->len && (*l->s == ' ' || *l->s == '\t')) {
		l->s++;
		l->len--;
	}
	return 1;
}

int svc_line_next(const struct svc_parse_ctx *c, struct svc_line *l)
{
	const char *end = l->s + l->len;
	int no = l->no;

	(void)c;
	if (*end != '\n')
		return 0;
	line_at(end + 1, end + 1, l);
	l->no = no + 1;
	return 1;
}

int svc_rest_blank(const char *s)
{
	while (*s == ' ' || *s == '\t' || *s == '\r')
		s++;
	return *s == '\n' || *s == '\0';
}

static void field_at(char *buf, size_t n, const char *s)
{
	size_t i;

	while (*s == ' ' || *s == '\t')
		s++;
	for (i = 0; i + 1 < n && s[i] && s[i] != '\n' && !isspace((unsigned char)s[i]); i++)
		buf[i] = s[i];
	buf[i] = '\0';
}

static int where_fail(struct svc_parse_ctx *c, const char *field, int line, const char *s,
		      const char *why)
{
	char got[40];

	field_at(got, sizeof(got), s);
	if (line > 0)
		return svc_fail(c, "%s (line %d): '%s' %s", field, line, got, why);
	return svc_fail(c, "%s: '%s' %s", field, got, why);
}

int svc_number(struct svc_parse_ctx *c, const char *s, const char **end, const char *field,
	       int line, double *v)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '-')
		return where_fail(c, field, line, s, "is negative");
	if (!isdigit((unsigned char)s[0]))
		return where_fail(c, field, line, s, "is not a number");
	*v = strtod(s, &e);
	if (!isfinite(*v))
		return where_fail(c, field, line, s, "is out of range");
	for (const char *p = s; p < e; p++)
		if (!isdigit((unsigned char)*p) && !strchr(".eE+-", *p))
			return where_fail(c, field, line, s, "is not a decimal number");
	*end = e;
	return 0;
}

/* The longest of @names that @s starts with: its index, or -1. */
static int unit_at(const char *s, const char *const *names, int n)
{
	int i, best = -1;

	for (i = 0; i < n; i++)
		if (!strncmp(s, names[i], strlen(names[i])) &&
		    (best < 0 || strlen(names[i]) > strlen(names[best])))
			best = i;
	return best;
}

static int number_unit(struct svc_parse_ctx *c, const char *s, const char **end,
		       const char *field, int line, const char *const *names,
		       const double *scale, int n, double *v)
{
	const char *e;
	int u;

	if (svc_number(c, s, &e, field, line, v))
		return -1;
	u = unit_at(e, names, n);
	if (u < 0 || isalnum((unsigned char)e[strlen(names[u])]))
		return where_fail(c, field, line, s, "has no unit this parser knows");
	*v *= scale[u];
	*end = e + strlen(names[u]);
	return 0;
}

int svc_duration_ns(struct svc_parse_ctx *c, const char *s, const char **end,
		    const char *field, int line, double *ns)
{
	static const char *const names[] = { "ns", "us", "ms", "s", "m", "h" };
	static const double scale[] = { 1, 1e3, 1e6, 1e9, 60e9, 3600e9 };

	return number_unit(c, s, end, field, line, names, scale, 6, ns);
}

int svc_size_bytes(struct svc_parse_ctx *c, const char *s, const char **end,
		   const char *field, int line, double *bytes)
{
	static const char *const names[] = { "B", "KB", "MB", "GB", "TB", "PB" };
	static const double scale[] = { 1, 1024.0, 1048576.0, 1073741824.0,
					1099511627776.0, 1125899906842624.0 };

	return number_unit(c, s, end, field, line, names, scale, 6, bytes);
}
