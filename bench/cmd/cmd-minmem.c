// SPDX-License-Identifier: MIT
/*
 * cmd-minmem.c - `cvmbench minmem WORKLOAD... [--vm-type LIST] [--db F]`:
 * the minimum guest memory of each function on each VM type, by a search
 * over memory sizes with real boots (minmem-search.c), every step a run
 * stored as usual, the answers in the minmem table (the planner's
 * `memory = minmem`, docs/capacity.md) and printed as a table. Bad input
 * (a range below what a guest takes, an unknown workload or VM type) is
 * exit 2 before anything runs.
 *
 * Exit status: 0 when every search ran (with or without an answer: a
 * search without one says why), 130 when interrupted (the steps so far
 * are kept: the same command goes on), 2 for bad input, 1 when a step
 * could not be run or stored.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "command.h"
#include "config.h"
#include "exitcode.h"
#include "log.h"
#include "minmem-search.h"
#include "opts.h"
#include "paths.h"

#define MAX_TYPES 4

enum { MM_DB, MM_CONFIGS, MM_TYPES, MM_FROM, MM_TO, MM_STEP, MM_THRESHOLD, MM_CALLS, MM_SIZE,
       MM_ACCEL, MM_DATA_DIR, MM_CVMFN, MM_WAIT_LOCK };

static const struct opt minmem_opts[] = {
	{ "db", 1, "FILE", "the database (default results.db)", MM_DB },
	{ "configs", 1, "DIR", "where the step configs are written and kept (default: the "
	  "database's path + .minmem)", MM_CONFIGS },
	{ "vm-type", 1, "LIST", "VM types, comma-separated: none (regular), model, sev-snp, tdx "
	  "(default none,model)", MM_TYPES },
	{ "from", 1, "MIB", "the smallest guest memory tried (default 64, the least a guest "
	  "takes)", MM_FROM },
	{ "to", 1, "MIB", "the baseline: the largest, where the function must pass (default "
	  "1024)", MM_TO },
	{ "step", 1, "MIB", "the answer's resolution (default 16)", MM_STEP },
	{ "threshold", 1, "PCT", "median latency growth allowed over the baseline (default 10)",
	  MM_THRESHOLD },
	{ "invocations", 1, "N", "measured calls per step (default 10)", MM_CALLS },
	{ "size", 1, "SIZE", "input size: test, small, large (default test)", MM_SIZE },
	{ "accel", 1, "auto|kvm|tcg", "the VMs' accelerator (default auto)", MM_ACCEL },
	{ "data-dir", 1, "DIR", "model and data files (default $" DATA_DIR_ENV " or "
	  DEFAULT_DATA_DIR ")", MM_DATA_DIR },
	{ "cvmfn", 1, "PATH", "the cvmfn binary (default: next to cvmbench)", MM_CVMFN },
	{ "wait-lock", 1, "SECONDS", "wait this long for another run's host-settings lock "
	  "(default 0)", MM_WAIT_LOCK },
	OPT_END
};

static const char synopsis[] = "minmem WORKLOAD... [--vm-type LIST] [--db FILE] [options]";

struct minmem_cmd {
	struct minmem_args a;
	char types_buf[128];
	const char *types[MAX_TYPES];
	int ntypes;
};

static int int_opt(const char *opt, const char *arg, int *out)
{
	size_t v;

	if (opts_count("minmem", opt, arg, &v))
		return 1;
	if (v > 1048576) {
		pr_err("minmem: %s %s: at most 1048576", opt, arg);
		return 1;
	}
	*out = (int)v;
	return 0;
}

static int on_opt(void *ctx, int id, const char *arg)
{
	struct minmem_cmd *m = ctx;
	char *end;

	switch (id) {
	case MM_DB: m->a.db = arg; return 0;
	case MM_CONFIGS: m->a.config_dir = arg; return 0;
	case MM_TYPES: snprintf(m->types_buf, sizeof(m->types_buf), "%s", arg); return 0;
	case MM_FROM: return int_opt("--from", arg, &m->a.from_mib);
	case MM_TO: return int_opt("--to", arg, &m->a.to_mib);
	case MM_STEP: return int_opt("--step", arg, &m->a.step_mib);
	case MM_CALLS: return int_opt("--invocations", arg, &m->a.invocations);
	case MM_SIZE: m->a.size = arg; return 0;
	case MM_ACCEL: m->a.accel = arg; return 0;
	case MM_DATA_DIR: m->a.data_dir = arg; return 0;
	case MM_CVMFN: m->a.cvmfn = arg; return 0;
	case MM_THRESHOLD:
		m->a.threshold_pct = strtod(arg, &end);
		if (end == arg || *end) {
			pr_err("minmem: --threshold %s: not a number", arg);
			return 1;
		}
		return 0;
	default: return opts_seconds("minmem", "--wait-lock", arg, &m->a.wait_lock);
	}
}

static int type_given(const struct minmem_cmd *m, const char *t)
{
	int i;

	for (i = 0; i < m->ntypes; i++)
		if (!strcmp(m->types[i], t))
			return 1;
	return 0;
}

/* --vm-type's list into m->types; 0, or 1 after saying what is wrong. */
static int split_types(struct minmem_cmd *m)
{
	static const char *const known[] = { "none", "model", "sev-snp", "tdx" };
	char *save = NULL, *t;
	size_t i;

	for (t = strtok_r(m->types_buf, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		t += strspn(t, " ");
		for (i = 0; i < sizeof(known) / sizeof(known[0]) && strcmp(t, known[i]); i++)
			;
		if (i == sizeof(known) / sizeof(known[0]) || m->ntypes == MAX_TYPES ||
		    type_given(m, known[i])) {
			pr_err("minmem: --vm-type %s: give none, model, sev-snp or tdx, each once", t);
			return 1;
		}
		m->types[m->ntypes++] = known[i];
	}
	if (!m->ntypes)
		pr_err("minmem: --vm-type: empty");
	return !m->ntypes;
}

/* Every step config @wl on @type would write loads and expands; else EXIT_USAGE. */
static int check_cells(const struct minmem_args *a, const char *wl, const char *type)
{
	struct config *cfg = NULL;
	struct cell *cells = NULL;
	char text[768], err[1024];
	size_t n = 0;
	int ret;

	snprintf(text, sizeof(text), "[experiment " MINMEM_EXPERIMENT "]\nworkload = %s\nbackend = qemu\n"
		 "confidential = %s\naccel = %s\nmemory = %d\nsize = %s\ninvocations = %d\n",
		 wl, type, a->accel, a->to_mib, a->size, a->invocations);
	ret = config_load_string("minmem", text, &cfg, err, sizeof(err));
	if (!ret)
		ret = config_expand(cfg, &cells, &n, err, sizeof(err));
	config_cells_free(cells, n);
	config_free(cfg);
	if (ret)
		pr_err("minmem: %s on %s: %s", wl, type, err);
	return ret ? EXIT_USAGE : EXIT_OK;
}

static void print_answer(const char *wl, const char *type, const struct minmem_answer *x)
{
	char base[32] = "-";

	if (x->baseline_ms >= 0)
		snprintf(base, sizeof(base), "%.3f", x->baseline_ms);
	if (x->min_mib)
		printf("%-22s %-8s %7d %12s %10.3f %6d\n", wl, type, x->min_mib, base,
		       x->at_min_ms, x->steps);
	else
		printf("%-22s %-8s %7s %12s %10s %6d  %s\n", wl, type, "-", base, "-", x->steps,
		       x->why);
}

static int minmem_all(struct minmem_cmd *m, char **wls, int nwl)
{
	struct minmem_answer *ans = calloc((size_t)(nwl * m->ntypes), sizeof(*ans));
	int i, t, ret = EXIT_OK;

	for (i = 0; ans && ret == EXIT_OK && i < nwl; i++)
		for (t = 0; ret == EXIT_OK && t < m->ntypes; t++)
			ret = check_cells(&m->a, wls[i], m->types[t]);
	for (i = 0; ans && ret == EXIT_OK && i < nwl; i++)
		for (t = 0; ret == EXIT_OK && t < m->ntypes; t++)
			ret = minmem_search(&m->a, wls[i], m->types[t], &ans[i * m->ntypes + t]);
	if (ans && ret == EXIT_OK) {
		printf("minimum guest memory (%s, size %s, accel %s; baseline at %d MiB, threshold "
		       "%g %%, resolution %d MiB)\n%-22s %-8s %7s %12s %10s %6s\n", m->a.db,
		       m->a.size, m->a.accel, m->a.to_mib, m->a.threshold_pct, m->a.step_mib,
		       "WORKLOAD", "VM TYPE", "MIN MiB", "BASELINE ms", "AT MIN ms", "STEPS");
		for (i = 0; i < nwl; i++)
			for (t = 0; t < m->ntypes; t++)
				print_answer(wls[i], m->types[t], &ans[i * m->ntypes + t]);
	}
	free(ans);
	return ans ? ret : EXIT_FAILED;
}

int cmd_minmem(int argc, char **argv)
{
	struct minmem_cmd *m = calloc(1, sizeof(*m));
	char dir[PATH_MAX], cvmfn[PATH_MAX], why[256];
	int first, ret;

	if (!m)
		return EXIT_FAILED;
	m->a = (struct minmem_args){ .db = "results.db", .size = "test", .accel = "auto",
				     .from_mib = MINMEM_FLOOR_MIB, .to_mib = 1024, .step_mib = 16,
				     .invocations = 10, .threshold_pct = 10,
				     .data_dir = default_data_dir() };
	snprintf(m->types_buf, sizeof(m->types_buf), "none,model");
	ret = opts_parse(argc, argv, synopsis, minmem_opts, on_opt, m, &first);
	if (!ret && first == argc) {
		pr_err("minmem: name at least one WORKLOAD (cvmbench list)");
		ret = 2;
	}
	if (!ret && split_types(m))
		ret = 2;
	if (!ret && minmem_check(&m->a, why, sizeof(why))) {
		pr_err("minmem: %s", why);
		ret = 2;
	}
	if (!ret && !m->a.config_dir) {
		snprintf(dir, sizeof(dir), "%s.minmem", m->a.db);
		m->a.config_dir = dir;
	}
	if (!ret && !m->a.cvmfn) {
		find_cvmfn(cvmfn, sizeof(cvmfn));
		m->a.cvmfn = cvmfn;
	}
	if (!ret)
		ret = minmem_all(m, argv + first, argc - first);
	else
		ret = ret == 1 ? EXIT_OK : EXIT_USAGE;
	free(m);
	return ret;
}
