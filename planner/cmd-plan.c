// SPDX-License-Identifier: MIT
/*
 * cmd-plan.c - `cvmbench plan TRACE`: run an invocation trace through the
 * keep-alive policies on a platform and print, per policy, the cold-start
 * fraction, p50/p99 latency, mean and peak warm memory, the GiB-seconds of
 * idle warm memory and their cost (docs/capacity.md). The platform is given
 * on the command line (one instance's memory, cold and warm latency), or
 * with --config by a plan config naming database cells (plan-db.c).
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "plan-db.h"
#include "plan-num.h"
#include "plan-run.h"

enum { OPT_FORMAT, OPT_DUR, OPT_MEM, OPT_POLICY, OPT_SEED, OPT_SPREAD, OPT_PRICE,
       OPT_INST_MIB, OPT_COLD, OPT_WARM, OPT_CSV, OPT_CONFIG, OPT_DB };

static const struct opt plan_opts[] = {
	{ "format", 1, "F", "azure19 or azure21 (default: from the header)", OPT_FORMAT },
	{ "durations", 1, "FILE", "2019 function_durations_percentiles file: execution "
	  "time added to each invocation", OPT_DUR },
	{ "memory", 1, "FILE", "2019 app_memory_percentiles file: instance memory per "
	  "function (else --instance-mib)", OPT_MEM },
	{ "policy", 1, "P", "ttl:DUR, ttl10, ttl20, hybrid[:RANGE], lru:SIZE, gdsf:SIZE, "
	  "predictive[:VALUE], layered; repeat for several (default ttl10)", OPT_POLICY },
	{ "seed", 1, "N", "seed of arrivals within a minute and latency draws (default 1)",
	  OPT_SEED },
	{ "spread", 1, "HOW", "a minute's invocations: poisson (default) or uniform",
	  OPT_SPREAD },
	{ "price", 1, "$", "price per GB-second of memory (default 0.0000133334, AWS Lambda "
	  "Arm; GB = 1024 MiB)", OPT_PRICE },
	{ "instance-mib", 1, "MIB", "memory of one warm instance (default 128)", OPT_INST_MIB },
	{ "cold-ms", 1, "MS", "cold-start latency (default 500)", OPT_COLD },
	{ "warm-ms", 1, "MS", "warm latency (default 10)", OPT_WARM },
	{ "csv", 0, NULL, "print CSV", OPT_CSV },
	{ "config", 1, "FILE", "a plan config: platforms as cells of --db, the answers "
	  "stored there (docs/capacity.md); TRACE then overrides its trace", OPT_CONFIG },
	{ "db", 1, "FILE", "with --config: the results database (default results.db)", OPT_DB },
	OPT_END
};

static int policy_add(struct plan_args *a, const char *arg)
{
	if (a->npolicy == PLAN_MAX_POLICIES) {
		pr_err("plan: at most %d policies", PLAN_MAX_POLICIES);
		return EXIT_USAGE;
	}
	return plan_policy_parse(arg, &a->policy[a->npolicy++]);
}

static int plan_opt(void *ctx, int id, const char *arg)
{
	struct plan_args *a = ctx;

	switch (id) {
	case OPT_FORMAT:
		if (strcmp(arg, "azure19") && strcmp(arg, "azure21")) {
			pr_err("plan: --format '%s': want azure19 or azure21", arg);
			return EXIT_USAGE;
		}
		a->format = arg;
		return 0;
	case OPT_DUR:
		a->durations = arg;
		return 0;
	case OPT_MEM:
		a->memory = arg;
		return 0;
	case OPT_POLICY:
		return policy_add(a, arg);
	case OPT_SEED:
		return plan_seed("plan: --seed", arg, &a->seed);
	case OPT_SPREAD:
		if (strcmp(arg, "poisson") && strcmp(arg, "uniform")) {
			pr_err("plan: --spread '%s': want poisson or uniform", arg);
			return EXIT_USAGE;
		}
		a->spread = !strcmp(arg, "uniform") ? SPREAD_UNIFORM : SPREAD_POISSON;
		return 0;
	case OPT_PRICE:
		return plan_num("plan: --price", arg, 0, 1, &a->price);
	case OPT_INST_MIB:
		return plan_num("plan: --instance-mib", arg, 1, 1048576, &a->inst_mib);
	case OPT_COLD:
		return plan_num("plan: --cold-ms", arg, 0, 1e7, &a->cold_ms);
	case OPT_WARM:
		return plan_num("plan: --warm-ms", arg, 0, 1e7, &a->warm_ms);
	case OPT_CONFIG:
		a->config = arg;
		return 0;
	case OPT_DB:
		a->db = arg;
		return 0;
	}
	a->csv = 1;
	return 0;
}

/**
 * cmd_plan() - `cvmbench plan [options] TRACE`: exit 0, 2 (bad input:
 * nothing run), 3 (a policy skipped, named) or 1.
 */
int cmd_plan(int argc, char **argv)
{
	struct plan_args a = { .seed = 1, .price = 0.0000133334, .inst_mib = 128,
			       .cold_ms = 500, .warm_ms = 10 };
	int first, r = opts_parse(argc, argv, "plan [options] TRACE | plan --config FILE [--db DB] [TRACE]", plan_opts, plan_opt,
				  &a, &first);

	if (r)
		return r == 1 ? EXIT_OK : EXIT_USAGE;
	if (a.config && first >= argc - 1)
		return plan_db_run(a.config, a.db ? a.db : "results.db",
				   first == argc - 1 ? argv[first] : NULL);
	if (first != argc - 1) {
		pr_err("plan: want one TRACE file (cvmbench plan --help)");
		return EXIT_USAGE;
	}
	a.trace = argv[first];
	if (!a.npolicy)
		plan_policy_parse("ttl10", &a.policy[a.npolicy++]);
	return plan_run(&a, stdout);
}
