// SPDX-License-Identifier: MIT
/*
 * cmd-calibrate.c - `cvmbench calibrate TARGET`: test a measuring engine
 * against counts it generates itself, and print requested against counted.
 *   counters  the tracepoint-counter engine (calib-counters.c): getpid and
 *             getppid calls of two threads, per window
 *   vmexit    the vmexit probe's sources against a micro-VM (calib-vmexit.c)
 *   cost      what counting costs per event (interleaved counter-off /
 *             counter-on pairs, the median with its interval) and per
 *             window (calib-cost.c)
 * Exit 0 when every count is exact, 1 on a mismatch, 3 (skipped) when this
 * machine cannot count (the reason on stderr), 2 on a usage error. tracefs
 * is mounted (journalled, unmounted at the end) only if it is not already.
 * The journal (and so the host lock) is taken when it can be: the
 * trace-stream method's tracefs instance is journalled; without it that
 * check is skipped, saying why.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "calib-cost.h"
#include "calib-counters.h"
#include "calib-vmexit.h"
#include "command.h"
#include "exitcode.h"
#include "journal.h"
#include "log.h"
#include "opts.h"
#include "tracefs-find.h"

enum { CAL_CALLS, CAL_WINDOWS, CAL_PAIRS, CAL_WAIT_LOCK };

struct cal_opts {
	size_t calls, windows, pairs;
	double wait_lock;         /* seconds to wait for the host-settings lock */
};

static const struct opt calibrate_opts[] = {
	{ "calls", 1, "N", "counters: getpid calls of the first thread in the first "
	  "window (others scale from it; default 10000); vmexit: port-I/O exits "
	  "(default 1000); cost: getpid calls per round (default 20000)", CAL_CALLS },
	{ "windows", 1, "N", "windows to count (default 3)", CAL_WINDOWS },
	{ "pairs", 1, "N", "cost: counter-off / counter-on pairs of rounds per way of "
	  "counting (default 21)", CAL_PAIRS },
	{ "wait-lock", 1, "SECONDS", "wait this long for another run's host-settings lock "
	  "(needed where tracefs must be mounted; default 0: do not wait)", CAL_WAIT_LOCK },
	OPT_END
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct cal_opts *o = ctx;

	if (id == CAL_WAIT_LOCK)
		return opts_seconds("calibrate", "--wait-lock", arg, &o->wait_lock);
	if (id == CAL_PAIRS)
		return opts_count("calibrate", "pairs", arg, &o->pairs);
	return opts_count("calibrate", id == CAL_CALLS ? "calls" : "windows", arg,
			  id == CAL_CALLS ? &o->calls : &o->windows);
}

/*
 * The journal, for a tracefs mount or the trace-stream method's instance;
 * needed (an error if it cannot be opened) only when tracefs must be
 * mounted, else its error is kept in @why (the stream check is skipped).
 */
static int journal_for(double wait_s, int *opened, char *why, size_t len)
{
	struct tracefs_place place;
	int ret, must = tracefs_find(&place) && !place.mounted;

	*opened = 0;
	if (geteuid()) {
		snprintf(why, len, "not root");
		return 0;
	}
	ret = journal_lock_host(wait_s, why, len);
	ret = ret ?: journal_open(why, len);
	if (ret) {
		journal_close();
		if (must)
			pr_err("%s", why);
		return must ? ret : 0;
	}
	*opened = 1;
	why[0] = '\0';
	return journal_restore_all(stderr, NULL) < 0 ? -EIO : 0;
}

static int run_target(const char *target, const struct cal_opts *o, const char *no_journal,
		      char *why, size_t len)
{
	if (!strcmp(target, "counters")) {
		struct calib_counters_opts co = { (long)(o->calls ? o->calls : 10000),
						  (int)(o->windows ? o->windows : 3),
						  no_journal[0] ? no_journal : NULL };

		return calib_counters(&co, stdout, why, len);
	}
	if (!strcmp(target, "cost")) {
		struct calib_cost_opts co = { (long)(o->calls ? o->calls : 20000),
					      (int)(o->pairs ? o->pairs : 21),
					      no_journal[0] ? no_journal : NULL };

		return calib_cost(&co, stdout, why, len);
	}
	struct calib_vmexit_opts vo = { (long)(o->calls ? o->calls : 1000),
					(int)(o->windows ? o->windows : 3) };

	return calib_vmexit(&vo, stdout, why, len);
}

int cmd_calibrate(int argc, char **argv)
{
	static const char synopsis[] = "calibrate counters|vmexit|cost [--calls N] [--windows N] "
				       "[--pairs N] [--wait-lock SECONDS]";
	struct cal_opts o = { 0, 0, 0, 0 };
	char why[1024] = "", nj[512] = "";
	int first, opened, ret = opts_parse(argc, argv, synopsis, calibrate_opts, on_opt, &o,
					    &first);

	if (ret)
		return ret == 1 ? EXIT_OK : EXIT_USAGE;
	if (first != argc - 1 || (strcmp(argv[first], "counters") &&
				  strcmp(argv[first], "vmexit") && strcmp(argv[first], "cost"))) {
		opts_usage(stderr, synopsis, calibrate_opts);
		return EXIT_USAGE;
	}
	if (o.windows > 1000 || o.pairs > 1000 || o.calls > 100000000) {
		pr_err("calibrate: --windows and --pairs at most 1000, --calls at most 100000000");
		return EXIT_USAGE;
	}
	if (!strcmp(argv[first], "cost") && o.calls && o.calls < CALIB_COST_MIN_CALLS) {
		pr_err("calibrate cost: --calls %zu: at least %d calls per round", o.calls,
		       CALIB_COST_MIN_CALLS);
		return EXIT_USAGE;
	}
	if (journal_for(o.wait_lock, &opened, nj, sizeof(nj)))
		return EXIT_FAILED;
	ret = run_target(argv[first], &o, nj, why, sizeof(why));
	fflush(stdout);           /* the results before the journal's undo lines */
	if (opened && journal_restore_all(stderr, NULL) < 0)
		ret = ret ?: 1;
	journal_close();
	if (ret < 0) {
		printf("SKIP %s: %s\n", argv[first], why);
		return EXIT_SKIPPED;
	}
	printf("%s: %s\n", argv[first], ret ? "MISMATCH" : "every count exact");
	return ret ? EXIT_FAILED : EXIT_OK;
}
