// SPDX-License-Identifier: MIT
/* opts.c - getopt_long driven by a struct opt table. */
#include <ctype.h>
#include <errno.h>
#include <getopt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opts.h"

#define OPT_HELP_ID -1000
#define OPT_LONG_BASE 256         /* getopt values of long options: above any char */

void opts_usage(FILE *out, const char *synopsis, const struct opt *table)
{
	const struct opt *o;

	fprintf(out, "usage: cvmbench %s\n", synopsis);
	if (!table || !table->name)
		return;
	fprintf(out, "options:\n");
	for (o = table; o->name; o++) {
		char left[64];

		snprintf(left, sizeof(left), "%s%s%s%s", o->name[1] ? "--" : "-", o->name,
			 o->has_arg ? " " : "",
			 o->has_arg ? o->metavar : "");
		fprintf(out, "  %-24s %s\n", left, o->help);
	}
	fprintf(out, "  %-24s %s\n", "--help", "show this help");
}

static struct option *build_longopts(const struct opt *table)
{
	size_t n = 0, i;
	struct option *lo;

	while (table && table[n].name)
		n++;
	lo = calloc(n + 2, sizeof(*lo));
	if (!lo)
		return NULL;
	for (i = 0; i < n; i++) {
		lo[i].name = table[i].name;
		lo[i].has_arg = table[i].has_arg ? required_argument : no_argument;
		lo[i].val = OPT_LONG_BASE + (int)i;
	}
	lo[n].name = "help";
	lo[n].val = OPT_HELP_ID;
	return lo;
}

/* The getopt short options of @table, its one-letter names ("o:v"), into @buf. */
static void build_shortopts(const struct opt *table, char *buf, size_t len)
{
	size_t n = 0;

	buf[0] = '\0';
	for (; table && table->name && n + 3 < len; table++) {
		if (!table->name[0] || table->name[1] || !isalnum((unsigned char)table->name[0]))
			continue;
		buf[n++] = table->name[0];
		if (table->has_arg)
			buf[n++] = ':';
		buf[n] = '\0';
	}
}

/* The index in @table of getopt's answer @c, or -1. */
static int opt_index(const struct opt *table, int c)
{
	int i;

	if (c >= OPT_LONG_BASE)
		return c - OPT_LONG_BASE;
	for (i = 0; table && table[i].name; i++)
		if (table[i].name[0] == c && !table[i].name[1])
			return i;
	return -1;
}

int opts_parse(int argc, char **argv, const char *synopsis,
	       const struct opt *table, opt_fn fn, void *ctx, int *first_arg)
{
	struct option *lo = build_longopts(table);
	char shortopts[64];
	int c, ret = 0;

	if (!lo)
		return 2;
	build_shortopts(table, shortopts, sizeof(shortopts));
	optind = 1;
	opterr = 0;
	while (!ret && (c = getopt_long(argc, argv, shortopts, lo, NULL)) != -1) {
		if (c == OPT_HELP_ID) {
			opts_usage(stdout, synopsis, table);
			ret = 1;
		} else if (c == '?' || c == ':' || opt_index(table, c) < 0) {
			fprintf(stderr, "cvmbench: %s '%s'\n",
				c == ':' ? "missing value for option" : "unknown option",
				argv[optind - 1]);
			opts_usage(stderr, synopsis, table);
			ret = 2;
		} else if (fn(ctx, table[opt_index(table, c)].id, optarg)) {
			ret = 2;
		}
	}
	free(lo);
	*first_arg = optind;
	return ret;
}

int opts_count(const char *cmd, const char *opt, const char *arg, size_t *out)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(arg, &end, 10);
	if (!*arg || arg[strspn(arg, "0123456789")] || errno || *end || !v || v > SIZE_MAX) {
		fprintf(stderr, "cvmbench %s: --%s '%s': expected a whole number from 1\n",
			cmd, opt, arg);
		return 1;
	}
	*out = (size_t)v;
	return 0;
}

int opts_seconds(const char *cmd, const char *opt, const char *arg, double *out)
{
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (errno || end == arg || *end || !(v >= 0 && v <= 1e6) || isspace((unsigned char)*arg)) {
		fprintf(stderr, "cvmbench %s: %s: '%s' is not a number of seconds "
			"(0 to 1000000)\n", cmd, opt, arg);
		return 1;
	}
	*out = v;
	return 0;
}
