// SPDX-License-Identifier: MIT
/*
 * cmd-replay.c - `cvmbench replay TRACE --workloads LIST --backend B`:
 * a trace run for real through a keep-alive pool, and the simulator's
 * prediction of the same run beside it. The trace's functions (2019
 * format, `cvmbench trace gen`) become replay cells (replay-plan.c: their
 * arrivals compressed --compress times, a workload each by the plan's map
 * rule or --map, the TTL compressed with them), run by `cvmbench run` as a
 * child process (argv, the same binary) into the database; then each
 * cell is read back and the simulator run on the same arrivals
 * (replay-check.c). Prints per function: calls, cold starts live and
 * predicted, calls that arrived while the one before still ran (overlapped), the
 * live median latency with its 95 % interval and the simulator's.
 *
 * Exit status: 0 when the replay ran and every function without overlapped calls
 * has the simulator's cold count; 1 when one does not (or a cell failed);
 * 2 for bad input (before anything runs, or a function the backend cannot
 * run: its cell skipped, the run saying why); 130 when interrupted.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "command.h"
#include "exitcode.h"
#include "log.h"
#include "opts.h"
#include "plan-num.h"
#include "replay-check.h"
#include "replay-plan.h"

enum { RP_WORKLOADS, RP_BACKEND, RP_TTL, RP_COMPRESS, RP_MAP, RP_DB, RP_DIR, RP_SIZE,
       RP_MAX, RP_FUNCTIONS };

static const struct opt replay_opts[] = {
	{ "workloads", 1, "LIST", "the measured functions the trace's map onto (required)",
	  RP_WORKLOADS },
	{ "backend", 1, "NAME", "native, runc, crun or qemu (default native)", RP_BACKEND },
	{ "ttl", 1, "DUR", "keep-alive after each call, in trace time (default 600)", RP_TTL },
	{ "compress", 1, "F", "replay F times faster than the trace (default 60)", RP_COMPRESS },
	{ "map", 1, "FILE", "TRACE_FUNCTION,WORKLOAD lines (as plan's map)", RP_MAP },
	{ "db", 1, "FILE", "the database (default results.db)", RP_DB },
	{ "dir", 1, "DIR", "where the schedules and the config are written (default: the "
	  "database's path + .replay)", RP_DIR },
	{ "size", 1, "SIZE", "input size (default test)", RP_SIZE },
	{ "max-seconds", 1, "S", "refuse a replay longer than this (default 3600)", RP_MAX },
	{ "functions", 1, "N", "the first N trace functions with a call (default all)",
	  RP_FUNCTIONS },
	OPT_END
};

static const char synopsis[] = "replay TRACE --workloads LIST [--backend B] [--ttl S] "
	"[--compress F] [--db FILE]";

struct replay_cmd {
	struct replay_args a;
	const char *db;
	char dir[PATH_MAX];
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct replay_cmd *m = ctx;
	double v;

	switch (id) {
	case RP_WORKLOADS: m->a.workloads = arg; return 0;
	case RP_BACKEND: m->a.backend = arg; return 0;
	case RP_TTL: return plan_seconds("replay: --ttl", arg, 0, &m->a.ttl);
	case RP_COMPRESS: return plan_num("replay: --compress", arg, 1, 1e6, &m->a.compress);
	case RP_MAP: m->a.map = arg; return 0;
	case RP_DB: m->db = arg; return 0;
	case RP_DIR: m->a.dir = arg; return 0;
	case RP_SIZE: m->a.size = arg; return 0;
	case RP_MAX: return plan_num("replay: --max-seconds", arg, 1, 1e7, &m->a.max_seconds);
	default:
		if (plan_num("replay: --functions", arg, 1, 1e6, &v))
			return EXIT_USAGE;
		m->a.max_functions = (size_t)v;
		return 0;
	}
}

/* `cvmbench run CONFIG --db DB` as a child (this binary, by argv): its exit code. */
static int run_child(const char *config, const char *db)
{
	char *argv[] = { "cvmbench", "run", (char *)config, "--db", (char *)db, NULL };
	int status;
	pid_t p = fork();

	if (p == 0) {
		execv("/proc/self/exe", argv);
		_exit(127);
	}
	if (p < 0 || waitpid(p, &status, 0) != p)
		return EXIT_FAILED;
	return WIFEXITED(status) ? WEXITSTATUS(status) : EXIT_INTERRUPTED;
}

static int report(const struct replay_set *s, const struct replay_row *r)
{
	size_t i;
	int bad = 0, skipped = 0;
	char ci[40];

	printf("%-8s %-16s %6s %6s %9s %5s %11s %-19s %9s  %s\n", "FUNCTION", "WORKLOAD", "CALLS",
	       "COLD", "PREDICTED", "OVERL", "P50 ms", "(95 % interval)", "SIM P50", "TRACE NAME");
	for (i = 0; i < s->n; i++) {
		const struct replay_row *x = &r[i];
		const char *verdict = x->overlapped ? "overlap: not compared" :
				      x->sim_cold < 0 ? "not simulated" :
				      x->sim_cold != x->live_cold ? "cold starts DIFFER" :
				      x->live_lo_ms < 0 ? "" :
				      x->sim_p50_ms < x->live_lo_ms || x->sim_p50_ms > x->live_hi_ms ?
				      "(its p50 outside the live interval)" : "";

		bad |= !x->overlapped && x->sim_cold != x->live_cold;
		bad |= strcmp(x->status, "ok") != 0;
		skipped |= !strcmp(x->status, "skipped");
		snprintf(ci, sizeof(ci), "(too few calls)");
		if (x->live_lo_ms >= 0)
			snprintf(ci, sizeof(ci), "[%7.3f,%7.3f]", x->live_lo_ms, x->live_hi_ms);
		printf("replay-%-1zu %-16s %6ld %6ld %9ld %5ld %11.3f %-19s %9.3f  %s %s\n",
		       i, s->fn[i].workload, x->calls, x->live_cold, x->sim_cold, x->overlapped,
		       x->live_p50_ms, ci, x->sim_p50_ms, s->fn[i].name, verdict);
	}
	if (skipped)
		pr_err("replay: the backend cannot run a function here (its cell was skipped: the "
		       "run said why above)");
	return skipped ? EXIT_USAGE : bad ? EXIT_FAILED : EXIT_OK;
}

static int replay_all(struct replay_cmd *m)
{
	struct replay_set s;
	struct replay_row *rows = NULL;
	int64_t run, before = 0;
	int ret = replay_plan_make(&m->a, &s);

	if (!ret) {
		pr_info("replay: %zu functions, %.1f s of replay (%s)", s.n, s.span, s.config);
		before = access(m->db, F_OK) ? 0 : replay_newest_run(m->db);
		ret = run_child(s.config, m->db);
	}
	if (ret == EXIT_OK || ret == EXIT_FAILED || ret == EXIT_SKIPPED) {
		run = replay_newest_run(m->db);
		if (run <= before)
			pr_err("replay: the run of %s left no new run in %s", s.config, m->db);
		rows = calloc(s.n ? s.n : 1, sizeof(*rows));
		ret = !rows || run <= before ? EXIT_FAILED :
		      replay_check(m->db, run, &s, m->a.ttl / m->a.compress, 1, rows) ?:
		      report(&s, rows);
	}
	free(rows);
	replay_plan_free(&s);
	return ret;
}

int cmd_replay(int argc, char **argv)
{
	struct replay_cmd *m = calloc(1, sizeof(*m));
	int first, ret;

	if (!m)
		return EXIT_FAILED;
	m->a = (struct replay_args){ .map = "", .backend = "native", .size = "test", .ttl = 600,
				     .compress = 60, .max_seconds = 3600,
				     .max_functions = (size_t)-1 };
	m->db = "results.db";
	ret = opts_parse(argc, argv, synopsis, replay_opts, on_opt, m, &first);
	if (!ret && argc - first != 1) {
		pr_err("replay: give one TRACE (cvmbench trace gen writes one)");
		ret = EXIT_USAGE;
	}
	if (!ret && !m->a.workloads) {
		pr_err("replay: --workloads: name the measured functions the trace maps onto");
		ret = EXIT_USAGE;
	}
	if (!ret) {
		m->a.trace = argv[first];
		if (!m->a.dir) {
			snprintf(m->dir, sizeof(m->dir), "%s.replay", m->db);
			m->a.dir = m->dir;
		}
		ret = replay_all(m);
	} else {
		ret = ret == 1 ? EXIT_OK : EXIT_USAGE;
	}
	free(m);
	return ret;
}
