// SPDX-License-Identifier: MIT
/*
 * minmem-search.c - one minmem search (minmem-search.h). Each step writes
 * the config of one qemu cell at one memory size into the config folder
 * (minmem-WORKLOAD-VMTYPE-MIB.ini, kept: `cvmbench run` takes it as it is)
 * and runs it in-process into the database (runner_run()), unless the
 * database already holds a finished run of that config text (study-runs.c:
 * kept, and so is a failed one: a guest that did not boot is an outcome; an
 * interrupted one is resumed), so a killed minmem run again measures
 * nothing twice. Then the step's cell is read back (db-minmem.c): it
 * passes when its status is ok, every measured call succeeded and its
 * median latency is within threshold_pct of the baseline's (to_mib).
 * A step that is skipped (the VM type cannot run here) ends the search
 * without an answer, with the skip's reason.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "db.h"
#include "exitcode.h"
#include "log.h"
#include "minmem-search.h"
#include "runner.h"
#include "study-runs.h"

int minmem_check(const struct minmem_args *a, char *why, size_t len)
{
	if (a->from_mib < MINMEM_FLOOR_MIB)
		snprintf(why, len, "--from %d: below %d MiB, the smallest guest a VM takes (its "
			 "kernel and initramfs need more)", a->from_mib, MINMEM_FLOOR_MIB);
	else if (a->to_mib <= a->from_mib)
		snprintf(why, len, "--to %d: must be above --from %d", a->to_mib, a->from_mib);
	else if (a->step_mib < 1 || a->step_mib > a->to_mib - a->from_mib)
		snprintf(why, len, "--step %d: must be from 1 to the range (%d MiB)", a->step_mib,
			 a->to_mib - a->from_mib);
	else if ((a->to_mib - a->from_mib) % a->step_mib)
		snprintf(why, len, "--to %d: not on the grid --from %d + k x --step %d (the "
			 "baseline is booted at --to)", a->to_mib, a->from_mib, a->step_mib);
	else if (!(a->threshold_pct > 0))
		snprintf(why, len, "--threshold %g: must be above 0 %%", a->threshold_pct);
	else
		return 0;
	return -EINVAL;
}

/* The step config of @wl on @type at @mib into @path; its text into @text. */
static int write_step(const struct minmem_args *a, const char *wl, const char *type, int mib,
		      char *path, size_t plen, char *text, size_t tlen)
{
	FILE *f;
	int n;

	n = snprintf(text, tlen, "; cvmbench minmem: %s on %s at %d MiB (written by minmem; "
		     "cvmbench run takes it as it is)\n[experiment " MINMEM_EXPERIMENT "]\nworkload = %s\n"
		     "backend = qemu\nconfidential = %s\naccel = %s\nmemory = %d\nsize = %s\n"
		     "invocations = %d\nwarmup = 1\nprobes = latency\n", wl, type, mib, wl, type,
		     a->accel, mib, a->size, a->invocations);
	if (n < 0 || (size_t)n >= tlen ||
	    snprintf(path, plen, "%s/minmem-%s-%s-%d.ini", a->config_dir, wl, type, mib) >=
	    (int)plen)
		return -ENAMETOOLONG;
	if (mkdir(a->config_dir, 0755) && errno != EEXIST)
		return -errno;
	f = fopen(path, "we");
	if (!f)
		return -errno;
	fputs(text, f);
	return fclose(f) ? -errno : 0;
}

/* Run @config (kept, resumed or new, as the database says); its run id into @run. */
static int run_step(const struct minmem_args *a, const char *config, const char *text,
		    int64_t *run)
{
	struct runner_opts o = { 0 };
	struct study_run r;
	char cmd[PATH_MAX * 2 + 64];
	int ret;

	if (study_run_find(a->db, text, &r))
		return EXIT_USAGE;
	/* a step whose cell failed (the guest did not boot) is an outcome: kept */
	if (r.state != STUDY_DONE && strcmp(r.status, "failed")) {
		snprintf(cmd, sizeof(cmd), "cvmbench run %s --db %s%s (cvmbench minmem)", config,
			 a->db, r.state == STUDY_RESUME ? " --resume" : "");
		o.config_path = config;
		o.db_path = a->db;
		o.data_dir = a->data_dir;
		o.cvmfn = a->cvmfn;
		o.command_line = cmd;
		o.wait_lock = a->wait_lock;
		o.resume = r.state == STUDY_RESUME;
		ret = runner_run(&o);
		if (ret == EXIT_INTERRUPTED || ret == EXIT_USAGE)
			return ret;
		if (study_run_find(a->db, text, &r))
			return EXIT_USAGE;
	}
	*run = r.run_id;
	return r.run_id ? EXIT_OK : EXIT_FAILED;
}

/* Whether @o passes against @baseline (< 0: it is the baseline); why not into @why. */
static int step_passes(const struct minmem_outcome *o, double baseline, double pct,
		       char *why, size_t len)
{
	if (strcmp(o->status, "ok"))
		snprintf(why, len, "the cell %s: %.*s", o->status,
			 (int)strcspn(o->reason, "\n"), o->reason[0] ? o->reason :
			 "(no reason stored)");
	else if (!o->calls || o->calls_ok < o->calls)
		snprintf(why, len, "%ld of %ld measured calls failed", o->calls - o->calls_ok,
			 o->calls);
	else if (baseline >= 0 && o->median_ms > baseline * (1 + pct / 100))
		snprintf(why, len, "median %.3f ms: %.1f %% over the baseline's %.3f ms (threshold "
			 "%g %%)", o->median_ms, 100 * (o->median_ms / baseline - 1), baseline, pct);
	else
		return 1;
	return 0;
}

struct search {
	const struct minmem_args *a;
	const char *wl, *type;
	struct db *db;
	int64_t id;
	struct minmem_answer *ans;
};

/* One step at @mib: run, read back, store; *@passed, o's median. An exit code. */
static int step(struct search *s, int mib, double baseline, int *passed,
		struct minmem_outcome *o)
{
	char path[PATH_MAX], text[1024], why[480];
	int64_t run = 0;
	int ret;

	ret = write_step(s->a, s->wl, s->type, mib, path, sizeof(path), text, sizeof(text));
	if (ret) {
		pr_err("minmem: cannot write the step config in %s: %s", s->a->config_dir,
		       strerror(-ret));
		return EXIT_USAGE;
	}
	ret = run_step(s->a, path, text, &run);
	if (ret != EXIT_OK)
		return ret;
	if (db_minmem_outcome(s->db, run, o))
		return EXIT_FAILED;
	*passed = step_passes(o, baseline, s->a->threshold_pct, why, sizeof(why));
	s->ans->steps++;
	pr_info("minmem %s on %s at %d MiB: %s%s", s->wl, s->type, mib,
		*passed ? "passes" : "does not pass: ", *passed ? "" : why);
	if (!*passed)
		snprintf(s->ans->why, sizeof(s->ans->why), "at %d MiB %s", mib, why);
	return db_minmem_step(s->db, s->id, mib, run, o, *passed, why) ? EXIT_FAILED : EXIT_OK;
}

/* Bisection on the grid between @lo (fails) and @hi (passes); the answer is hi. */
static int bisect(struct search *s, int lo, int hi, double base, double *at_hi)
{
	struct minmem_outcome o;
	int mid, passed, ret;

	while (hi - lo > s->a->step_mib) {
		mid = lo + ((hi - lo) / s->a->step_mib / 2) * s->a->step_mib;
		ret = step(s, mid, base, &passed, &o);
		if (ret != EXIT_OK)
			return ret;
		if (passed) {
			hi = mid;
			*at_hi = o.median_ms;
		} else {
			lo = mid;
		}
	}
	s->ans->min_mib = hi;
	return EXIT_OK;
}

static int search_run(struct search *s)
{
	const struct minmem_args *a = s->a;
	struct minmem_outcome o;
	int passed, ret, top;
	double base;

	top = a->to_mib;             /* on the grid (minmem_check()) */
	ret = step(s, top, -1, &passed, &o);
	if (ret != EXIT_OK || !passed)
		return ret;
	base = s->ans->baseline_ms = s->ans->at_min_ms = o.median_ms;
	ret = step(s, a->from_mib, base, &passed, &o);
	if (ret != EXIT_OK)
		return ret;
	if (passed) {
		s->ans->min_mib = a->from_mib;
		s->ans->at_min_ms = o.median_ms;
		return EXIT_OK;
	}
	return bisect(s, a->from_mib, top, base, &s->ans->at_min_ms);
}

int minmem_search(const struct minmem_args *a, const char *workload, const char *vm_type,
		  struct minmem_answer *ans)
{
	struct minmem_search row = { workload, vm_type, a->accel, a->size, a->from_mib,
				     a->to_mib, a->step_mib, a->threshold_pct };
	struct search s = { a, workload, vm_type, NULL, 0, ans };
	char err[1024];
	int ret;

	memset(ans, 0, sizeof(*ans));
	ans->baseline_ms = ans->at_min_ms = -1;
	if (db_open(&s.db, a->db, DB_CREATE, err, sizeof(err))) {
		pr_err("minmem: %s", err);
		return EXIT_USAGE;
	}
	s.id = db_minmem_begin(s.db, &row);
	ret = s.id < 0 ? EXIT_FAILED : search_run(&s);
	if (ret == EXIT_OK && ans->min_mib)
		ans->why[0] = '\0';
	if (s.id > 0 && ret == EXIT_OK &&
	    db_minmem_end(s.db, s.id, ans->baseline_ms, ans->min_mib, ans->why))
		ret = EXIT_FAILED;
	db_close(s.db);
	return ret;
}
