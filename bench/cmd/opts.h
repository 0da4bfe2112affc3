/* SPDX-License-Identifier: MIT */
/*
 * opts.h - one option table per subcommand drives both parsing and --help
 * (kvmtool's OPT_* tables, in small).
 */
#ifndef CVMBENCH_OPTS_H
#define CVMBENCH_OPTS_H

#include <stddef.h>
#include <stdio.h>

struct opt {
	const char *name;         /* long name, without "--"; one letter: also -X */
	int has_arg;              /* 0 or 1 */
	const char *metavar;      /* shown in --help, e.g. "FILE" */
	const char *help;
	int id;                   /* passed to the callback */
};

#define OPT_END { NULL, 0, NULL, NULL, 0 }

/* Called for each option found; return 0 to go on, non-zero to stop. */
typedef int (*opt_fn)(void *ctx, int id, const char *arg);

/**
 * opts_parse() - parse argv[1..] of a subcommand (argv[0] is its name).
 * --help prints the usage and returns 1. Positional arguments are left in
 * argv[*first_arg .. argc-1]. Returns 0, 1 (help shown) or 2 (usage error,
 * already reported).
 */
int opts_parse(int argc, char **argv, const char *synopsis,
	       const struct opt *table, opt_fn fn, void *ctx, int *first_arg);
/**
 * opts_count() - @arg, the value of --@opt of `cvmbench @cmd`, as a count
 * from 1 (decimal digits only) into *@out. Returns 0, or 1 after saying why.
 */
int opts_count(const char *cmd, const char *opt, const char *arg, size_t *out);
/** opts_usage() - print "usage: cvmbench SYNOPSIS" and the option table. */
void opts_usage(FILE *out, const char *synopsis, const struct opt *table);

/**
 * opts_seconds() - parse @arg of option @opt of command @cmd as a number of
 * seconds (0 to 1e6, the whole string) into @out. Returns 0, or 1 after
 * saying what is wrong (an opt_fn can return it as is).
 */
int opts_seconds(const char *cmd, const char *opt, const char *arg, double *out);

#endif
