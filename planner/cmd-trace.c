// SPDX-License-Identifier: MIT
/*
 * cmd-trace.c - `cvmbench trace gen`: write a seeded synthetic trace in the
 * Azure Functions 2019 format (trace-gen.h), so that the planner and its
 * tests run where no public trace can be downloaded. The file is written
 * under a temporary name and renamed when complete: a refused command
 * leaves nothing.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "command.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "out-file.h"
#include "plan-num.h"
#include "trace-gen.h"

enum { OPT_KIND, OPT_FUNCTIONS, OPT_MINUTES, OPT_RATE, OPT_PERIOD, OPT_SEED, OPT_OUT };

static const struct opt gen_opts[] = {
	{ "kind", 1, "KIND", "poisson (default), periodic, diurnal, bursty or mix", OPT_KIND },
	{ "functions", 1, "N", "functions (default 100)", OPT_FUNCTIONS },
	{ "minutes", 1, "N", "minute columns (default 1440: one day)", OPT_MINUTES },
	{ "rate", 1, "R", "mean invocations per minute per function (default 1; "
	  "mix draws its own)", OPT_RATE },
	{ "period", 1, "MIN", "periodic: minutes between invocations (default 10)", OPT_PERIOD },
	{ "seed", 1, "N", "seed (default 1)", OPT_SEED },
	{ "out", 1, "FILE", "the trace file to write (required)", OPT_OUT },
	OPT_END
};

struct gen_args {
	struct trace_gen g;
	const char *out;
};

static int gen_opt(void *ctx, int id, const char *arg)
{
	struct gen_args *a = ctx;
	double v;

	switch (id) {
	case OPT_KIND:
		if (trace_kind_parse(arg, &a->g.kind)) {
			pr_err("trace gen: --kind '%s': want poisson, periodic, diurnal, "
			       "bursty or mix", arg);
			return EXIT_USAGE;
		}
		return 0;
	case OPT_FUNCTIONS:
		if (plan_num("trace gen: --functions", arg, 1, 1e7, &v))
			return EXIT_USAGE;
		a->g.functions = (size_t)v;
		return 0;
	case OPT_MINUTES:
		if (plan_num("trace gen: --minutes", arg, 1, 14 * 1440, &v))
			return EXIT_USAGE;
		a->g.minutes = (unsigned)v;
		return 0;
	case OPT_RATE:
		return plan_num("trace gen: --rate", arg, 0, 1e6, &a->g.rate);
	case OPT_PERIOD:
		return plan_num("trace gen: --period", arg, 1, 14 * 1440, &a->g.period);
	case OPT_SEED:
		return plan_seed("trace gen: --seed", arg, &a->g.seed);
	}
	a->out = arg;
	return 0;
}

static int gen_write(const struct gen_args *a)
{
	struct out_dir dir;
	struct out_file o;
	const char *name;
	uint64_t total = 0;
	int r = out_dir_of(&dir, a->out, &name);

	if (r)
		return EXIT_FAILED;
	r = out_file_create_tmp(&o, &dir, name);
	if (!r) {
		r = trace_gen_write(o.f, &a->g, &total);
		if (r) {
			pr_err("trace gen: %s: write failed", a->out);
			out_file_abort(&o);
		} else {
			r = out_file_commit(&o);
		}
	}
	out_dir_close(&dir);
	if (r)
		return EXIT_FAILED;
	pr_info("trace gen: %s: %s, %zu functions, %u minutes, %llu invocations, seed %llu",
		a->out, trace_kind_name(a->g.kind), a->g.functions, a->g.minutes,
		(unsigned long long)total, (unsigned long long)a->g.seed);
	return EXIT_OK;
}

static int cmd_trace_gen(int argc, char **argv)
{
	struct gen_args a = { .g = { TRACE_POISSON, 100, 1440, 1, 10, 1 } };
	int first, r = opts_parse(argc, argv, "trace gen [options] --out FILE", gen_opts,
				  gen_opt, &a, &first);

	if (r)
		return r == 1 ? EXIT_OK : EXIT_USAGE;
	if (first < argc) {
		pr_err("trace gen: unexpected argument '%s'", argv[first]);
		return EXIT_USAGE;
	}
	if (!a.out) {
		pr_err("trace gen: --out FILE is required");
		return EXIT_USAGE;
	}
	return gen_write(&a);
}

/**
 * cmd_trace() - `cvmbench trace gen ...` (the one trace subcommand so far).
 */
int cmd_trace(int argc, char **argv)
{
	if (argc >= 2 && !strcmp(argv[1], "gen"))
		return cmd_trace_gen(argc - 1, argv + 1);
	if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
		printf("usage: cvmbench trace gen [options] --out FILE  (trace gen --help)\n");
		return EXIT_OK;
	}
	pr_err("trace: want a subcommand: gen (cvmbench trace gen --help)");
	return EXIT_USAGE;
}
