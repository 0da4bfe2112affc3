// SPDX-License-Identifier: MIT
/*
 * runner.c - `cvmbench run`: config -> cells -> database. Takes the
 * journal (restoring what a crashed run left), records the run and its
 * environment, prepares each workload's files, runs the cells, and marks
 * the run complete, skipped, failed or interrupted - never silently done.
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "call-log.h"
#include "cell-run.h"
#include "cell-svc.h"
#include "config.h"
#include "db.h"
#include "env.h"
#include "exitcode.h"
#include "journal.h"
#include "log.h"
#include "progress.h"
#include "sink.h"
#include "db-resume.h"
#include "run-journal.h"
#include "run-plan.h"
#include "run-status.h"
#include "shard-split.h"
#include "dry-run.h"
#include "runner.h"
#include "runner-stop.h"
#include "tracefs-host.h"

struct run_counts {
	int ok, skipped, failed, interrupted;
	int restore_failed;       /* a host setting or object was not restored */
};

static int check_only(const struct runner_opts *o, const struct cell *cells, size_t n)
{
	size_t j;
	int i, found;

	for (i = 0; i < o->nonly; i++) {
		for (found = 0, j = 0; j < n && !found; j++)
			found = !strcmp(o->only[i], cells[j].key);
		if (!found) {
			pr_err("%s: no cell %s (cvmbench run %s --dry-run lists them)",
			       o->config_path, o->only[i], o->config_path);
			return -EINVAL;
		}
	}
	return 0;
}

/*
 * The log of cell @cell_id's invocation rows (call-log.h), journalled
 * before it is made; the entry id, or -errno with the reason logged.
 */
static long open_call_log(struct db *db, int64_t cell_id, const char *db_path,
			  struct call_log **out)
{
	char path[PATH_MAX];
	long entry = run_journal_call_log(db_path, cell_id, path, sizeof(path));
	int ret = entry < 0 ? (int)entry : call_log_create(out, path, db);

	if (!ret)
		return entry;
	pr_err("cell %lld: cannot make its call log %s: %s", (long long)cell_id,
	       entry < 0 ? "entry in the journal" : path, strerror(-ret));
	if (entry >= 0 && journal_forget(entry))
		pr_warn("journal %s: cannot close the entry of %s", journal_path(), path);
	return ret;
}

/* Fold and remove the log; its entry stays for `restore` if that failed. */
static void close_call_log(struct call_log *calls, long entry)
{
	if (!call_log_close(calls) && journal_forget(entry))
		pr_warn("journal %s: cannot close the entry of a call log", journal_path());
}

static enum cell_status run_one(struct db *db, int64_t run_id, const struct cell *c,
				const struct runner_opts *o)
{
	struct cell_ctx ctx = { .db = db, .run_id = run_id, .cell = c,
				.env = { .cvmfn = o->cvmfn, .data_dir = o->data_dir,
					 .digest = o->digest, .service = svc_cell_is(c) } };
	enum cell_status st;
	static const char *const names[] = { "ok", "skipped", "failed", "interrupted" };
	struct sink backend_sink = { .db = db, .run_id = run_id, .probe = c->backend,
				     .ops = &sink_db_ops };

	long log_entry;

	ctx.cell_id = db_cell_begin(db, run_id, c);
	if (ctx.cell_id < 0)
		return CELL_FAILED;
	log_entry = open_call_log(db, ctx.cell_id, o->db_path, &ctx.calls);
	if (log_entry < 0) {
		db_error_add(db, run_id, ctx.cell_id, "runner", "cannot make the cell's call "
			     "log in the state directory (see the run's messages)");
		db_cell_end(db, ctx.cell_id, names[CELL_FAILED]);
		return CELL_FAILED;
	}
	backend_sink.cell_id = ctx.cell_id;
	ctx.env.sink = &backend_sink;
	st = cell_run(&ctx);     /* skips before any cost (cell_runnable) */
	close_call_log(ctx.calls, log_entry);
	db_cell_end(db, ctx.cell_id, names[st]);
	progress_cell_done(c->key, names[st]);
	return st;
}

static void count(struct run_counts *rc, enum cell_status st)
{
	if (st == CELL_OK)
		rc->ok++;
	else if (st == CELL_SKIPPED)
		rc->skipped++;
	else if (st == CELL_FAILED)
		rc->failed++;
	else
		rc->interrupted++;
}

static void store_env_fact(void *ctx, const char *key, const char *value,
			   const char *source)
{
	struct { struct db *db; int64_t run_id; } *e = ctx;

	db_env_add(e->db, e->run_id, key, value, source);
}

static void run_cells(struct db *db, int64_t run_id, const struct cell *cells,
		      const struct run_plan *p, const struct runner_opts *o,
		      struct run_counts *rc)
{
	size_t i, done = 0;

	progress_begin(p->ntodo);
	for (i = 0; i < p->n && !runner_stop; i++) {
		if (!p->todo[i])
			continue;
		progress_cell(done++, cells[i].key);
		count(rc, run_one(db, run_id, &cells[i], o));
	}
	progress_end();
}

/*
 * The exit code of `run --only` into a run: what this invocation measured
 * and whether a signal stopped it, not the cells of the run's matrix it
 * was not asked for (never reached, they leave the run interrupted).
 */
static int only_exit(const struct run_counts *rc)
{
	if (runner_stop || rc->interrupted)
		return EXIT_INTERRUPTED;
	if (rc->failed || rc->restore_failed)
		return EXIT_FAILED;
	return rc->skipped ? EXIT_SKIPPED : EXIT_OK;
}

/*
 * The run's status over its whole matrix (a resumed run: the cells kept
 * from before too), written with its counts; the exit code.
 */
static int finish(struct db *db, int64_t run_id, struct run_plan *p,
		  const struct cell *cells, const struct run_counts *rc, int only)
{
	struct run_tally t;
	const char *status;
	char text[160];
	int total = (int)p->nmatrix;

	if (run_plan_tally(db, run_id, p, cells, &t)) {
		/* the database cannot say: what this invocation saw */
		struct run_tally seen = { rc->ok, rc->skipped, rc->failed, 0, 1 };

		t = seen;
	}
	t.interrupted |= runner_stop || rc->interrupted;
	/* a cell, or a probe of a measured cell, could not measure: say so */
	t.probe_skips = db_probe_skip_count(db, run_id);
	if (t.probe_skips < 0)
		t.probe_skips = db_skip_count(db, run_id) > 0;
	status = run_status_pick(&t);
	if (rc->restore_failed && !t.interrupted)
		status = "failed";        /* the machine was not left as found */
	run_status_text(text, sizeof(text), status, &t);
	db_run_end(db, run_id, status, total, t.ok, t.skipped, t.failed);
	pr_info("run %lld %s (%d cells)%s", (long long)run_id, text, total,
		rc->restore_failed ? "; host settings not restored" : "");
	if (only)
		return only_exit(rc);
	if (t.interrupted)
		return EXIT_INTERRUPTED;
	if (t.failed || rc->restore_failed)
		return EXIT_FAILED;
	return strcmp(status, "complete") ? EXIT_SKIPPED : EXIT_OK;
}

/*
 * A probe mounted tracefs for this run (it was not mounted): say so in the
 * run's environment. The mount is a journal object, undone at the end of the
 * run with everything else (restore_at_end) or by `cvmbench restore`.
 */
static void record_tracefs_mount(struct db *db, int64_t run_id)
{
	if (tracefs_host_mounted_by_run())
		db_env_add(db, run_id, "tracefs.mounted_by_run",
			   "yes, unmounted at the end of the run", TRACEFS_HOST_MOUNT);
}

/*
 * Undo what the run changed (all but the run's own entry, closed once its
 * status is written). Something that could not be restored is an error of
 * the run: it fails, and the entries stay for `cvmbench restore`.
 */
static int restore_at_end(struct db *db, int64_t run_id, long keep)
{
	int failed = 0, ret = journal_restore_all_but(keep, NULL, &failed);
	char msg[PATH_MAX + 160];

	if (ret >= 0 && !failed)
		return 0;
	snprintf(msg, sizeof(msg), "%d host setting(s) or object(s) could not be restored "
		 "(journal %s): run cvmbench restore", ret < 0 ? -1 : failed, journal_path());
	pr_err("%s", msg);
	db_error_add(db, run_id, 0, "journal", msg);
	return 1;
}

/*
 * A new run: its row, which cells it was asked for and its environment
 * (a continued run keeps those of its first start). Returns its id or < 0.
 */
static int64_t begin_run(struct db *db, const struct config *cfg, const struct run_plan *p,
			 const struct runner_opts *o)
{
	struct run_info info = { env_in_vm() ? "guest" : "host", o->command_line,
				 o->config_path, cfg->text };
	struct { struct db *db; int64_t run_id; } env_ctx;
	int64_t run_id;

	if (p->run_id) {
		pr_info("run %lld of %s continued: %zu of its %zu cells to measure",
			(long long)p->run_id, o->db_path, p->ntodo, p->nmatrix);
		return db_run_reopen(db, p->run_id) ? -EIO : p->run_id;
	}
	run_id = db_run_begin(db, &info);
	if (run_id < 0)
		return run_id;
	if ((p->shard[0] && db_env_add(db, run_id, DB_FACT_SHARD, p->shard, "cvmbench run "
				       "--shard")) ||
	    (p->only && db_env_add(db, run_id, DB_FACT_ONLY, p->only, "cvmbench run --only")))
		return -EIO;
	env_ctx.db = db;
	env_ctx.run_id = run_id;
	env_collect(store_env_fact, &env_ctx);
	return run_id;
}

static int measure_all(struct db *db, const struct config *cfg, const struct cell *cells,
		       size_t n, const struct runner_opts *o)
{
	struct run_counts rc = { 0 };
	struct run_plan p;
	int64_t run_id;
	long entry;
	int code;

	code = run_plan_make(db, o, cfg, cells, n, &p);
	if (code) {
		run_plan_free(&p);
		return code == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	}
	/* a continued run is journalled before it reads `running` again */
	entry = p.run_id ? run_journal_begin(o->db_path, p.run_id) : 0;
	run_id = entry < 0 ? entry : begin_run(db, cfg, &p, o);
	if (run_id > 0 && !p.run_id)
		entry = run_journal_begin(o->db_path, run_id);
	if (run_id < 0 || entry < 0) {
		if (entry < 0)
			pr_err("cannot journal run %lld: %s", (long long)(p.run_id ?: run_id),
			       strerror((int)-entry));
		if (run_id > 0 && !p.run_id)
			db_run_end(db, run_id, runner_stop ? "interrupted" : "failed", 0, 0, 0, 0);
		run_plan_free(&p);
		return EXIT_FAILED;
	}
	run_cells(db, run_id, cells, &p, o, &rc);
	record_tracefs_mount(db, run_id);
	rc.restore_failed = restore_at_end(db, run_id, entry);
	code = finish(db, run_id, &p, cells, &rc, o->nonly > 0);
	run_plan_free(&p);
	if (journal_forget(entry))
		pr_warn("journal %s: cannot close the entry of run %lld", journal_path(),
			(long long)run_id);
	return code;
}

/* --dry-run: the cells of the shard (all without --shard), as dry-run.c lists them. */
static int print_cells(const struct runner_opts *o, const struct cell *cells, size_t n)
{
	struct cell *mine = calloc(n ? n : 1, sizeof(*mine));
	size_t i, k = 0;
	int ret;

	if (!mine) {
		pr_err("--dry-run: out of memory listing the cells");
		return -ENOMEM;
	}
	for (i = 0; i < n; i++)
		if (run_plan_in_shard(o, &cells[i]))
			mine[k++] = cells[i];
	ret = dry_run_print(stdout, mine, k, o->verbose);
	if (ret)
		pr_err("--dry-run: out of memory listing the cells");
	free(mine);
	return ret;
}

/* EXIT_OK, EXIT_USAGE (state directory busy or unsafe) or EXIT_FAILED. */
static int open_journal(void)
{
	char err[1024];
	int undone, ret = journal_open(err, sizeof(err));

	if (ret) {
		pr_err("%s", err);
		return ret == -EBUSY || ret == -EPERM ? EXIT_USAGE : EXIT_FAILED;
	}
	undone = journal_restore_all(stderr, NULL);
	if (undone < 0) {
		pr_err("cannot restore from journal %s: %s", journal_path(), strerror(-undone));
		return EXIT_FAILED;
	}
	if (undone > 0)
		pr_warn("restored %d setting(s) or object(s) a previous run left (journal %s)",
			undone, journal_path());
	return 0;
}

/* The config's cells, counted on stderr; errors name file:line (exit 2). */
static int load_cells(const struct runner_opts *o, struct config **cfg,
		      struct cell **cells, size_t *n)
{
	char err[1600];

	if (config_load(o->config_path, cfg, err, sizeof(err))) {
		pr_err("%s", err);
		return -EINVAL;
	}
	if (o->max_cells)
		(*cfg)->max_cells = o->max_cells;
	if (config_expand(*cfg, cells, n, err, sizeof(err))) {
		pr_err("%s", err);
		return -EINVAL;
	}
	pr_info("%s: %zu cells", o->config_path, *n);
	return 0;
}

/* --balance: @o with the cells' shards of the split by cost into @with. */
static int balance(const struct runner_opts **o, struct runner_opts *with,
		   const struct config *cfg, const struct cell *cells, size_t n, int **shard_of)
{
	int ret;

	if (!(*o)->balance_db)
		return EXIT_OK;
	*shard_of = calloc(n + 1, sizeof(**shard_of));
	ret = *shard_of ? shard_split(*o, cfg, cells, n, *shard_of) : -ENOMEM;
	if (ret && ret != -EINVAL)
		pr_err("--balance %s: %s", (*o)->balance_db, strerror(-ret));
	if (ret)
		return ret == -EINVAL ? EXIT_USAGE : EXIT_FAILED;
	*with = **o;
	with->shard_of = *shard_of;
	*o = with;
	return EXIT_OK;
}

int runner_run(const struct runner_opts *o)
{
	struct runner_opts balanced;
	struct config *cfg = NULL;
	struct cell *cells = NULL;
	struct db *db = NULL;
	int *shard_of = NULL;
	size_t n = 0;
	char err[1600];
	int code = EXIT_USAGE;

	/*
	 * From the start: a shell starts a background job with SIGINT ignored,
	 * so a Ctrl-C or kill -INT while the config, the lock, the plan or the
	 * environment was read was lost and the whole run went on.
	 */
	runner_stop_catch_signals();
	if (load_cells(o, &cfg, &cells, &n))
		goto out;
	if (check_only(o, cells, n))
		goto out;
	code = balance(&o, &balanced, cfg, cells, n, &shard_of);
	if (code)
		goto out;
	code = EXIT_USAGE;
	if (o->dry_run) {
		code = print_cells(o, cells, n) ? EXIT_FAILED : EXIT_OK;
		goto out;
	}
	if (access(o->cvmfn, X_OK)) {
		pr_err("cannot run cvmfn at %s: %s (set CVMBENCH_CVMFN or --cvmfn)",
		       o->cvmfn, strerror(errno));
		code = EXIT_FAILED;
		goto out;
	}
	/* before anything is created: a refused run leaves nothing behind */
	if (journal_lock_host(o->wait_lock, err, sizeof(err))) {
		pr_err("%s", err);
		goto out;
	}
	code = open_journal();    /* an unsafe state directory: no database made */
	if (code)
		goto out;
	if (db_open(&db, o->db_path, DB_CREATE, err, sizeof(err))) {
		pr_err("%s", err);
		code = EXIT_USAGE;
		goto out;
	}
	code = measure_all(db, cfg, cells, n, o);
out:
	if (runner_stop && code != EXIT_OK)
		code = EXIT_INTERRUPTED;  /* a wait or read it cut short failed */
	journal_close();
	db_close(db);
	config_cells_free(cells, n);
	config_free(cfg);
	free(shard_of);
	return code;
}
