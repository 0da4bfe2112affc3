// SPDX-License-Identifier: MIT
/*
 * tests/unit/backend-calls.c - the backend interface as the runner drives
 * it (cell-run.c), through a fake backend registered by name (the config
 * key `backend` is checked against the registry: `fake` is accepted and an
 * unknown name's message lists it): supported -> cell_begin -> prepare -> spawn ... cleanup
 * -> cell_end, in that order; cell_end on every exit path after a
 * cell_begin that succeeded (prepare fails, a spawn fails, interrupt); a
 * cell that cannot run calls nothing past supported(); a cell_begin that
 * skips or fails leaves nothing to end. Its instances are a scripted cvmfn
 * that answers the protocol; the journal must be empty after each cell.
 * The runner asks the backend's accel() (the accelerator its VMs run
 * under, for probe_target.accel) after prepare, with the cell's state.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "backend.h"
#include "call-log.h"
#include "cell-run.h"
#include "config-test.h"
#include "db.h"
#include "journal.h"
#include "runner-stop.h"

/* What the fake does in the cell under test. */
static struct {
	int unsupported, begin_ret, prepare_ret, fail_spawn, interrupt_spawn;
	int nspawn;
	char log[512];
	int state;              /* the cell state's address, checked in every call */
	int bad_state;          /* a call got another state */
	int accel_asked;        /* accel() calls after prepare (-100 before) */
} fake;

static void note(const char *what, void *state)
{
	size_t n = strlen(fake.log);

	snprintf(fake.log + n, sizeof(fake.log) - n, "%s%s", n ? " " : "", what);
	if (state != &fake.state)
		fake.bad_state = 1;
}

static int fake_supported(const struct cell *c, char *why, size_t len)
{
	(void)c;
	note("supported", &fake.state);
	if (fake.unsupported)
		snprintf(why, len, "the fake backend says no");
	return !fake.unsupported;
}

static int fake_begin(const struct cell *c, const struct backend_env *env, void **state,
		      char *err, size_t errlen)
{
	(void)c;
	(void)env;
	note("begin", &fake.state);
	snprintf(err, errlen, "the fake cell_begin refuses");
	if (!fake.begin_ret)
		*state = &fake.state;
	return fake.begin_ret;
}

static int fake_prepare(const struct cell *c, const struct backend_env *env, void *state,
			char *err, size_t errlen)
{
	(void)c;
	(void)env;
	note("prepare", state);
	snprintf(err, errlen, "the fake prepare fails");
	return fake.prepare_ret;
}

/* A cvmfn that says ready and answers every invoke; ends at EOF. */
static void fake_child(void *arg, int rd, int wr)
{
	char buf[256];
	long seq;
	FILE *f = fdopen(rd, "r");

	(void)arg;
	dprintf(wr, "ready pid=%d init_ns=1 rss_kb=1 pss_kb=1 threads=1\n", (int)getpid());
	while (f && fgets(buf, sizeof(buf), f) && sscanf(buf, "invoke %ld", &seq) == 1)
		dprintf(wr, "done %ld ok=1 fn_ns=5\ndigest %ld none\n", seq, seq);
	_exit(0);
}

static int fake_spawn(const struct cell *c, const struct backend_env *env, void *state,
		      struct instance *in, char *err, size_t errlen)
{
	(void)c;
	(void)env;
	if (++fake.nspawn == fake.fail_spawn) {
		note("spawn-fails", state);
		snprintf(err, errlen, "the fake spawn fails");
		return -EIO;
	}
	note("spawn", state);
	if (fake.interrupt_spawn)
		runner_stop = 1;      /* as a SIGINT during the start would */
	return backend_fork(in, fake_child, NULL, err, errlen);
}

static void fake_cleanup(void *state, struct instance *in)
{
	(void)in;
	note("cleanup", state);
}

static void fake_end(void *state)
{
	note("end", state);
}

static const char *fake_accel(void *state)
{
	fake.accel_asked += strstr(fake.log, "prepare") ? 1 : -100;
	if (state != &fake.state)
		fake.bad_state = 1;
	return "tcg";
}

static const struct backend_ops backend_fake = {
	.name = "fake",
	.supported = fake_supported,
	.cell_begin = fake_begin,
	.prepare = fake_prepare,
	.spawn = fake_spawn,
	.cleanup = fake_cleanup,
	.cell_end = fake_end,
	.accel = fake_accel,
};

static struct db *db;
static int64_t run_id;

/* Run the one cell of @ini's experiment; returns its status. */
static enum cell_status run_cell(const char *ini)
{
	char text[512], err[512] = "";
	struct cell *cells;
	struct cell_ctx ctx = { .db = db, .run_id = run_id,
				.env = { "/nonexistent/cvmfn", "/nonexistent", NULL } };
	enum cell_status st;
	size_t n;

	snprintf(text, sizeof(text), "[experiment t]\nworkload = hello-world\n"
		 "backend = fake\nwarmup = 1\n%s", ini);
	if (load_expand(text, &cells, &n, err, sizeof(err)) || n != 1) {
		printf("# config: %s\n", err);
		return -1;
	}
	ctx.cell = &cells[0];
	ctx.cell_id = db_cell_begin(db, run_id, &cells[0]);
	/* the invocation rows' log, as the runner makes it (runner.c) */
	snprintf(text, sizeof(text), "%s/calls-%lld", getenv("CVMBENCH_STATE_DIR"),
		 (long long)ctx.cell_id);
	if (call_log_create(&ctx.calls, text, db)) {
		printf("# cannot make the call log %s\n", text);
		config_cells_free(cells, n);
		return -1;
	}
	st = cell_run(&ctx);
	if (call_log_close(ctx.calls))
		st = -1;
	config_cells_free(cells, n);
	return st;
}

static void check(const char *what, const char *ini, enum cell_status want_st,
		  const char *want_log)
{
	enum cell_status st;
	int ok;

	memset(&fake, 0, sizeof(fake));
	fake.unsupported = strstr(what, "unsupported") != NULL;
	fake.begin_ret = strstr(what, "begin skips") ? BACKEND_SKIP :
			 strstr(what, "begin fails") ? -EIO : 0;
	fake.prepare_ret = strstr(what, "prepare fails") ? -EIO : 0;
	fake.fail_spawn = strstr(what, "2nd spawn fails") ? 2 : 0;
	fake.interrupt_spawn = strstr(what, "interrupt") != NULL;
	st = run_cell(ini);
	runner_stop = 0;
	ok = st == want_st && !strcmp(fake.log, want_log) && !fake.bad_state;
	tap_ok(ok, "%s: status %d, calls: %s", what, (int)st, want_log);
	if (!ok)
		printf("# got status %d, calls: %s%s\n", (int)st, fake.log,
		       fake.bad_state ? " (a call got another state)" : "");
	tap_ok(journal_open_entries() == 0, "%s: nothing left in the journal (%zu)", what,
	       journal_open_entries());
}

static void test_calls(void)
{
	check("warm, 2 instances", "instances = 2\ninvocations = 2\n", CELL_OK,
	      "supported begin prepare spawn spawn cleanup cleanup end");
	check("cold, 2 calls", "mode = cold\ninvocations = 1\n", CELL_OK,
	      "supported begin prepare spawn cleanup spawn cleanup end");
	check("cold, parallel 2", "mode = cold\nparallel = 2\ninvocations = 1\n",
	      CELL_OK, "supported begin prepare spawn spawn cleanup cleanup "
	      "spawn spawn cleanup cleanup end");
	check("prepare fails", "", CELL_FAILED, "supported begin prepare end");
	check("2nd spawn fails (warm)", "instances = 2\n", CELL_FAILED,
	      "supported begin prepare spawn spawn-fails cleanup end");
	check("2nd spawn fails (cold)", "mode = cold\nparallel = 2\n", CELL_FAILED,
	      "supported begin prepare spawn spawn-fails cleanup end");
	check("interrupt during the start", "", CELL_INTERRUPTED,
	      "supported begin prepare spawn cleanup end");
	check("begin skips", "", CELL_SKIPPED, "supported begin");
	check("begin fails", "", CELL_FAILED, "supported begin");
	check("unsupported", "", CELL_SKIPPED, "supported");
	memset(&fake, 0, sizeof(fake));
	run_cell("invocations = 1\n");
	tap_ok(fake.accel_asked == 1 && !fake.bad_state,
	       "accel() asked once, after prepare, with the cell's state (%d)",
	       fake.accel_asked);
}

int main(void)
{
	char dir[] = "/tmp/cvmbench-backend-XXXXXX", path[128], err[1024] = "";
	struct run_info info = { "guest", "test", "t.ini", "" };

	tap_plan(23);
	if (!mkdtemp(dir))
		return 1;
	snprintf(path, sizeof(path), "%s/state", dir);
	setenv("CVMBENCH_STATE_DIR", path, 1);
	snprintf(path, sizeof(path), "%s/lock", dir);
	setenv("CVMBENCH_TEST_HOST_LOCK", path, 1);
	backend_test_register(&backend_fake);
	snprintf(path, sizeof(path), "%s/r.db", dir);
	tap_ok(!journal_open(err, sizeof(err)) &&
	       !db_open(&db, path, DB_CREATE, err, sizeof(err)) &&
	       (run_id = db_run_begin(db, &info)) > 0, "a journal and a database (%s)", err);
	test_calls();
	expect_error("[experiment a]\nworkload = null\nbackend = kvm\n",
		     "t.ini:3: bad value 'kvm' for backend: allowed native|runc|crun|qemu|zygote|fake",
		     "the backend key names the registry's backends");
	db_close(db);
	journal_close();
	backend_test_register(NULL);
	snprintf(path, sizeof(path), "rm -rf '%s'", dir);
	return system(path) ? 1 : tap_done();
}
