// SPDX-License-Identifier: MIT
/*
 * cell-run.c - measure one cell: skip it before it costs anything if it
 * cannot run here, apply its knobs, let its backend set up (cell_begin,
 * prepare), start its instances, bracket the cell and each invocation with
 * its probes (start in order, stop in reverse, then emit), write every
 * invocation row as soon as it completes, and undo all of it in reverse.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "cell-check.h"
#include "call-log.h"
#include "cell-replay.h"
#include "cell-run.h"
#include "cell-svc.h"
#include "clock.h"
#include "db.h"
#include "journal.h"
#include "knob-corunner.h"
#include "knob-membind.h"
#include "knob-pin.h"
#include "knob.h"
#include "log.h"
#include "probe-set.h"
#include "probe.h"
#include "procmem.h"
#include "progress.h"
#include "runner-stop.h"
#include "sink.h"
#include "cell-noise.h"

#define MAX_INSTANCES 256

struct cell_state {
	struct cell_ctx *ctx;
	const struct backend_ops *be;
	void *be_state;           /* from be->cell_begin() */
	struct probe_set probes;
	struct probe_target target;
	struct instance inst[MAX_INSTANCES];
	long journal_id[MAX_INSTANCES];
	pid_t pids[MAX_INSTANCES];
	int ninst;
	pid_t *cold_pids;         /* cold mode: every instance started so far */
	size_t ncold, cold_cap;
	double *latency, *fn;
	size_t nresults, capacity;
	int64_t *inv_ids;             /* invocation row of each call, by seq */
	size_t ninv_ids, capinv_ids;
	int failed;
	int fold_each_call;       /* a probe writes rows of one call: they refer to its row */
	int placement_noted;      /* pin.obtained and sanity.* stored */
	struct replay *replay;    /* a replay cell's pool (cell-replay.h), else NULL */
	long replay_journal;      /* its live instance's journal entry */
	pid_t replay_pid;         /* ... and pid: the probes' target */
	int last_cold;            /* the call just made was a cold start */
	struct svc_cell *svc;     /* a service cell's server (cell-svc.h), else NULL */
	pid_t svc_pid;            /* ... its process on this machine: the probes' target */
};

void cell_fail_at(struct cell_ctx *ctx, const char *file, int line, const char *func,
		  const char *fmt, ...)
{
	char msg[8192], where[256];      /* a VM boot error holds 25 console lines */
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	snprintf(where, sizeof(where), "%s:%d %s", file, line, func);
	pr_err("%s: %s", ctx->cell->key, msg);
	db_error_add(ctx->db, ctx->run_id, ctx->cell_id, where, msg);
}

/* An instance probe whose rows could not be written, or a broken agent link. */
static void probe_failed(void *ctx, const char *probe, const char *msg)
{
	cell_fail((struct cell_ctx *)ctx, "probe %s: %s", probe, msg);
}

/* The invocation row of call @seq, for rows the agent sends after it. */
static int64_t inv_id_of(void *ctx, long seq)
{
	struct cell_state *cs = ctx;

	return seq >= 0 && (size_t)seq < cs->ninv_ids ? cs->inv_ids[seq] : 0;
}

static void open_probes(struct cell_state *cs)
{
	struct sink base = { .db = cs->ctx->db, .run_id = cs->ctx->run_id,
			     .cell_id = cs->ctx->cell_id, .ops = &sink_db_ops };

	cs->probes.fail = probe_failed;
	cs->probes.fail_ctx = cs->ctx;
	probe_set_open(&cs->probes, cs->ctx->cell->probes, &cs->target, &base, inv_id_of,
		       cs);
}

/* Remember call @seq's invocation row; the array grows by doubling. */
static int keep_inv_id(struct cell_state *cs, long seq, int64_t id)
{
	size_t cap = cs->capinv_ids ? cs->capinv_ids : 64;
	int64_t *a = cs->inv_ids;

	while ((size_t)seq >= cap)
		cap *= 2;
	if (cap != cs->capinv_ids) {
		a = realloc(cs->inv_ids, cap * sizeof(*a));
		if (!a)
			return -ENOMEM;
		memset(a + cs->capinv_ids, 0, (cap - cs->capinv_ids) * sizeof(*a));
		cs->inv_ids = a;
		cs->capinv_ids = cap;
	}
	a[seq] = id;
	if ((size_t)seq >= cs->ninv_ids)
		cs->ninv_ids = (size_t)seq + 1;
	return 0;
}

/*
 * A Python twin's start phases of the cell's first instance, from its ready
 * line (docs/workloads.md): runtime.interp_ns (exec to the handler's first
 * statement), runtime.import_ns (the function's modules); its init is
 * init_ns as for C.
 */
static void note_phases(struct cell_state *cs, const struct instance *in)
{
	char v[32];

	if (in->interp_ns >= 0 && in->runtime[0]) {
		snprintf(v, sizeof(v), "%lld", in->interp_ns);
		db_cell_note(cs->ctx->db, cs->ctx->cell_id, "runtime.interp_ns", v);
	}
	if (in->import_ns >= 0 && in->runtime[0]) {
		snprintf(v, sizeof(v), "%lld", in->import_ns);
		db_cell_note(cs->ctx->db, cs->ctx->cell_id, "runtime.import_ns", v);
	}
}

static void record_instance(struct cell_state *cs, int idx, const struct instance *in)
{
	struct instance_row row = {
		.cell_id = cs->ctx->cell_id, .idx = idx, .pid = in->pid,
		.init_ns = in->init_ns, .start_ns = in->start_ns,
		.rss_kb = in->rss_kb, .pss_kb = in->pss_kb, .threads = in->threads,
	};

	db_instance_add(cs->ctx->db, &row);
	if (idx == 0 && in->runtime[0])
		db_cell_note(cs->ctx->db, cs->ctx->cell_id, "runtime.interpreter", in->runtime);
	if (idx == 0)
		note_phases(cs, in);
}

static void note_applied(void *ctx, const char *key, const char *value);

/* Bind this thread as `pin` and `membind` say for instance @idx; 0 or -errno. */
static int placement_enter(struct cell_state *cs, int idx)
{
	int ret = pin_spawn_enter(idx) ?: membind_spawn_enter(idx);

	if (ret) {
		pin_spawn_leave();
		membind_spawn_leave();
		cell_fail(cs->ctx, "cannot bind instance %d as pin = %s, membind = %s: %s", idx,
			  cs->ctx->cell->pin, cs->ctx->cell->membind, strerror(-ret));
	}
	return ret;
}

/*
 * The CPUs instance @idx obtained (read back), stored per instance of a
 * warm cell and for the first start of a cold one, and the cell's setup
 * flags (knob-pin.h) once.
 */
static void placement_note(struct cell_state *cs, int idx, pid_t pid)
{
	char key[48], cpus[PIN_CPUS_TEXT_MAX];

	if (cs->placement_noted || idx >= 8 || pin_obtained(pid, cpus, sizeof(cpus)))
		return;
	snprintf(key, sizeof(key), "pin.obtained.%d", idx);
	db_cell_note(cs->ctx->db, cs->ctx->cell_id, key, cpus);
	if (idx == 0)
		pin_sanity(cs->ctx->cell->backend, pid, corunner_pid(), note_applied, cs->ctx);
	if (!strcmp(cs->ctx->cell->mode, "cold") || idx + 1 >= cs->ctx->cell->instances)
		cs->placement_noted = 1;
}

/*
 * A container's CPUs once it is up (its runtime's, pin.obtained.I, say only
 * what the container started with; its cgroup may change them): stored as
 * pin.obtained.container.I for the first 8 instances of a warm cell.
 */
static void placement_note_container(struct cell_state *cs, int idx, pid_t pid)
{
	char key[48], cpus[PIN_CPUS_TEXT_MAX];

	if (!(cs->be->flags & BACKEND_CGROUPS) || idx >= 8 ||
	    pin_obtained_child(pid, cpus, sizeof(cpus)))
		return;
	snprintf(key, sizeof(key), "pin.obtained.container.%d", idx);
	db_cell_note(cs->ctx->db, cs->ctx->cell_id, key, cpus);
}

/* Start instance @idx without waiting for it; the error goes to in->error. */
static int spawn_begin(struct cell_state *cs, struct instance *in, int idx)
{
	const struct cell *c = cs->ctx->cell;
	int ret;

	memset(in, 0, sizeof(*in));
	in->to_fd = in->from_fd = -1;
	in->pid = -1;
	ret = placement_enter(cs, idx);
	if (ret)
		return ret;
	ret = cs->be->spawn(c, &cs->ctx->env, cs->be_state, in, in->error,
			    sizeof(in->error));
	pin_spawn_leave();
	membind_spawn_leave();
	if (ret)
		cell_fail(cs->ctx, "cannot start an instance of %s: %s", c->workload,
			  in->error);
	else if (in->pid > 0)
		placement_note(cs, idx, in->pid);
	return ret;
}

static double start_timeout(const struct cell *c)
{
	return c->start_timeout > 0 ? c->start_timeout : c->timeout;
}

static int spawn_instance(struct cell_state *cs, struct instance *in, int idx)
{
	const struct cell *c = cs->ctx->cell;
	int ret = spawn_begin(cs, in, idx);

	if (ret)
		return ret;
	ret = instance_handshake(in, start_timeout(c));
	if (ret) {
		cell_fail(cs->ctx, "instance of %s: %s", c->workload, in->error);
		backend_close(cs->be, cs->be_state, in, 1.0);
	} else {
		placement_note_container(cs, idx, in->pid);
	}
	return ret;
}

static int start_instances(struct cell_state *cs)
{
	const struct cell *c = cs->ctx->cell;
	int i;

	for (i = 0; i < c->instances && i < MAX_INSTANCES; i++) {
		if (spawn_instance(cs, &cs->inst[i], i))
			return -EIO;
		cs->journal_id[i] = journal_process(cs->inst[i].pid);
		if (cs->journal_id[i] < 0) {
			cell_fail(cs->ctx, "cannot journal instance %d (so it is ended): %s", i,
				  strerror((int)-cs->journal_id[i]));
			backend_close(cs->be, cs->be_state, &cs->inst[i], 1.0);
			return -EIO;
		}
		cs->pids[i] = cs->inst[i].pid;
		cs->ninst = i + 1;
		record_instance(cs, i, &cs->inst[i]);
	}
	cs->target.pids = cs->pids;
	cs->target.npids = cs->ninst;
	return 0;
}

static void stop_instances(struct cell_state *cs)
{
	int i;

	for (i = 0; i < cs->ninst; i++) {
		backend_close(cs->be, cs->be_state, &cs->inst[i], 5.0);
		if (journal_forget(cs->journal_id[i]))
			pr_warn("journal %s: cannot close the entry of instance %d",
				journal_path(), i);
	}
	cs->ninst = 0;
}

/* Wait for, then call each of the @n started instances once. */
static int cold_invoke_all(struct cell_state *cs, struct instance *in, int n, long seq,
			   struct invoke_result *r)
{
	const struct cell *c = cs->ctx->cell;
	struct invoke_result other, *res;
	int k, ret = 0;

	for (k = 0; k < n && !ret; k++) {
		ret = instance_handshake(&in[k], start_timeout(c));
		if (ret) {
			cell_fail(cs->ctx, "instance of %s: %s", c->workload, in[k].error);
			snprintf(r->error, sizeof(r->error), "%s", in[k].error);
		}
	}
	for (k = 0; k < n && !ret; k++) {
		res = k ? &other : r;
		ret = instance_invoke(&in[k], seq, c->timeout, res);
		if (!ret)
			res->latency_ns = clock_now_ns() - in[k].spawn_ns;
		if (k && (ret || !res->ok))
			snprintf(r->error, sizeof(r->error), "parallel start %d: %.480s", k,
				 res->error);
		ret = ret ?: (res->ok ? 0 : -EIO);
		record_instance(cs, (int)(seq * n + k), &in[k]);
	}
	return ret;
}

/*
 * Cold mode: the @n instances of this call are the invocation window's
 * pids; the cell window's are all those started so far.
 */
static void cold_pids_add(struct cell_state *cs, const struct instance *in, int n)
{
	size_t cap = cs->cold_cap ? cs->cold_cap : 64;
	pid_t *p = cs->cold_pids;
	int k;

	while (cap < cs->ncold + (size_t)n)
		cap *= 2;
	if (cap != cs->cold_cap && !(p = realloc(cs->cold_pids, cap * sizeof(*p)))) {
		cs->target.npids = 0;    /* no list rather than a wrong one */
		return;
	}
	cs->cold_pids = p;
	cs->cold_cap = cap;
	for (k = 0; k < n; k++)
		p[cs->ncold + (size_t)k] = in[k].pid;
	cs->target.pids = p + cs->ncold;
	cs->target.npids = n;
	cs->ncold += (size_t)n;
}

/* The cell window's pids in cold mode: every instance of the cell. */
static void cold_pids_all(struct cell_state *cs)
{
	if (!strcmp(cs->ctx->cell->mode, "cold")) {
		cs->target.pids = cs->cold_pids;
		cs->target.npids = (int)cs->ncold;
	}
}

/* Cold mode: start `parallel` new instances at once, call each, close all. */
static int cold_call(struct cell_state *cs, long seq, struct invoke_result *r)
{
	const struct cell *c = cs->ctx->cell;
	int n = c->parallel > 1 ? c->parallel : 1, started = 0, k, ret = 0;
	struct instance *in = calloc((size_t)n, sizeof(*in));

	memset(r, 0, sizeof(*r));
	r->latency_ns = r->fn_ns = -1;
	if (!in)
		return -ENOMEM;
	for (; started < n && !ret; started++)
		ret = spawn_begin(cs, &in[started], started);
	cold_pids_add(cs, in, ret ? started - 1 : started);
	if (ret) {
		started--;
		snprintf(r->error, sizeof(r->error), "%s", in[started].error);
	} else {
		ret = cold_invoke_all(cs, in, n, seq, r);
	}
	for (k = 0; k < started; k++)
		backend_close(cs->be, cs->be_state, &in[k], 5.0);
	free(in);
	return ret;
}

/* One call on a warm instance, or a whole cold start in cold mode. */
static int call_once(struct cell_state *cs, long seq, int *instance_idx,
		     struct invoke_result *r)
{
	const struct cell *c = cs->ctx->cell;

	if (cs->svc) {
		*instance_idx = 0;
		return svc_cell_call(cs->svc, seq, r);
	}
	if (cs->replay) {
		int ret = replay_call(cs->replay, seq, c->timeout, r, &cs->last_cold, instance_idx);

		cs->replay_pid = replay_pid(cs->replay);
		cs->target.npids = cs->replay_pid > 0;
		return ret;
	}
	if (strcmp(c->mode, "cold")) {
		*instance_idx = (int)(seq % cs->ninst);
		return instance_invoke(&cs->inst[*instance_idx], seq, c->timeout, r);
	}
	/* instances seq*n .. seq*n+n-1 (cold_invoke_all); the row times the first */
	*instance_idx = (int)(seq * (c->parallel > 1 ? c->parallel : 1));
	return cold_call(cs, seq, r);
}

/* Keep a measured call's times for the probes; the arrays grow by doubling. */
static int keep_result(struct cell_state *cs, const struct invoke_result *r)
{
	size_t n = cs->nresults;

	if (n == cs->capacity) {
		size_t cap = cs->capacity ? 2 * cs->capacity : 64;
		double *l = realloc(cs->latency, cap * sizeof(*l));
		double *f = l ? realloc(cs->fn, cap * sizeof(*f)) : NULL;

		if (l)
			cs->latency = l;
		if (!f)
			return -ENOMEM;
		cs->fn = f;
		cs->capacity = cap;
	}
	cs->latency[n] = (double)r->latency_ns;
	cs->fn[n] = (double)r->fn_ns;
	cs->nresults = n + 1;
	cs->target.latency_ns = cs->latency;
	cs->target.fn_ns = cs->fn;
	cs->target.nresults = n + 1;
	return 0;
}

static int invoke_and_record(struct cell_state *cs, long seq, int measured)
{
	struct invocation_row row = { .cell_id = cs->ctx->cell_id, .seq = seq };
	struct invoke_result r;
	char started[40];
	int64_t inv_id;
	int idx, ret;

	if (cs->replay && replay_wait(cs->replay, seq))
		return -EINTR;     /* waiting for the arrival: outside the call's windows */
	utc_now(started, sizeof(started));
	if (measured)
		probe_set_start(&cs->probes, PROBE_WINDOW_INVOCATION, seq);
	ret = call_once(cs, seq, &idx, &r);
	if (measured)
		probe_set_stop(&cs->probes, PROBE_WINDOW_INVOCATION, seq);
	row.instance_idx = idx;
	row.phase = measured ? "measured" : "warmup";
	if (cs->replay)
		row.start = cs->last_cold ? "cold" : "warm";
	else
		row.start = strcmp(cs->ctx->cell->mode, "cold") ? "warm" : "cold";
	row.started_at = started;
	row.latency_ns = r.latency_ns;
	row.fn_ns = r.fn_ns;
	row.ok = !ret && r.ok;
	row.digest = r.ok && r.digest[0] ? r.digest : NULL;
	row.digest_ns = r.ok ? r.digest_ns : -1;
	row.error = row.ok ? NULL : r.error;
	inv_id = call_log_add(cs->ctx->calls, &row);
	if (inv_id > 0 && ((measured && cs->fold_each_call) || cs->svc) &&
	    call_log_fold(cs->ctx->calls))
		inv_id = -EIO;
	if (cs->svc && inv_id > 0 && (ret || r.ok) && svc_cell_store(cs->svc, inv_id, measured))
		return -EIO;      /* its error row says why */
	if (!row.ok) {
		cell_fail(cs->ctx, "invocation %ld: %s", seq, r.error);
		return -EIO;
	}
	if (measured) {
		if (inv_id < 0)
			return -EIO;      /* no row to refer to */
		if (keep_inv_id(cs, seq, inv_id))
			return -ENOMEM;
		probe_set_emit(&cs->probes, PROBE_WINDOW_INVOCATION, seq, inv_id);
		if (keep_result(cs, &r))
			return -ENOMEM;
	}
	return inv_id < 0 ? -EIO : 0;
}

static int run_calls(struct cell_state *cs)
{
	const struct cell *c = cs->ctx->cell;
	long seq = 0, total = (long)c->warmup + c->invocations;
	int i;

	for (i = 0; i < c->warmup; i++, seq++) {
		if (runner_stop)
			return -EINTR;
		if (invoke_and_record(cs, seq, 0))
			return runner_stop ? -EINTR : -EIO;
		progress_calls(seq + 1, total);
	}
	for (i = 0; i < c->invocations; i++, seq++) {
		if (runner_stop)
			return -EINTR;
		if (invoke_and_record(cs, seq, 1))
			return runner_stop ? -EINTR : -EIO;
		if (probe_set_broken(&cs->probes))
			return -EIO;      /* its error row says why; the VMs end with the cell */
		progress_calls(seq + 1, total);
	}
	return 0;
}

/*
 * The calls' rows still in the log, into the database, once the calls are
 * done: before the cell window stops, whose outer probes may wait long
 * (hostmem's and ksm's KSM convergence) while a reader waits for the rows,
 * and before any probe writes rows that refer to the calls. Inside the
 * window, as every row was before the call log. @ret: the calls' result,
 * kept if it failed.
 */
static int fold_calls(struct cell_state *cs, int ret)
{
	if (!call_log_fold(cs->ctx->calls))
		return ret;
	cell_fail(cs->ctx, "cannot write the calls' rows into the database (they stay in "
		  "the call log for `cvmbench restore`)");
	return ret ?: -EIO;
}

/*
 * A warm instance's process (for qemu, the QEMU of the instance's VM) that
 * ended before the cell did: the cell failed, whatever its calls and probes
 * returned (a probe that needs the process skips, which alone would leave
 * the cell "ok"); the rows measured before stay. One error row, for the
 * first such process. 1 when one ended, else 0.
 */
/*
 * Whether process @pid has ended. The backends start an instance (a VM's
 * QEMU) as a child of cvmbench and reap it only at the cell's end. waitid()
 * without reaping reports it once every thread has exited; a killed QEMU's
 * main thread is a zombie in /proc/PID/stat before its other threads are
 * done (what the probes see through procmem_ended()), so that counts too.
 * Both of the real process, whatever a test's CVMBENCH_SYSROOT holds. A
 * process that is not (or no longer) a child: procmem_ended().
 */
static int process_ended(pid_t pid)
{
	siginfo_t si;

	memset(&si, 0, sizeof(si));
	if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT))
		return errno == ECHILD ? procmem_ended(pid) : 0;
	return si.si_pid == pid || procmem_ended_here(pid);
}

static int instance_ended(struct cell_state *cs)
{
	int i;

	for (i = 0; i < cs->ninst; i++)
		if (cs->pids[i] > 0 && process_ended(cs->pids[i])) {
			cell_fail(cs->ctx, "instance process %d (pid %d%s) ended during the cell",
				  i, (int)cs->pids[i],
				  cs->inst[i].pid_shared ? ", its VM's QEMU" : "");
			return 1;
		}
	return 0;
}

/*
 * A replay cell's instance, started and handshaken as a cold start's
 * (replay_ops.spawn): nothing else inside the time its first call is
 * timed over (spawn to reply).
 */
static int replay_spawn(void *ctx, struct instance *in, int idx)
{
	struct cell_state *cs = ctx;
	int ret = spawn_begin(cs, in, idx);

	if (ret)
		return ret;
	ret = instance_handshake(in, start_timeout(cs->ctx->cell));
	if (ret) {
		cell_fail(cs->ctx, "instance of %s: %s", cs->ctx->cell->workload, in->error);
		backend_close(cs->be, cs->be_state, in, 1.0);
	}
	return ret;
}

/* After its first call (replay_ops.started): journalled and recorded. */
static int replay_started(void *ctx, struct instance *in, int idx)
{
	struct cell_state *cs = ctx;

	cs->replay_journal = journal_process(in->pid);
	if (cs->replay_journal < 0) {
		cell_fail(cs->ctx, "cannot journal replay instance %d (so it is ended): %s", idx,
			  strerror((int)-cs->replay_journal));
		return -EIO;
	}
	record_instance(cs, idx, in);
	return 0;
}

static void replay_end_instance(void *ctx, struct instance *in, int idx)
{
	struct cell_state *cs = ctx;

	backend_close(cs->be, cs->be_state, in, 5.0);
	if (cs->replay_journal > 0 && journal_forget(cs->replay_journal))
		pr_warn("journal %s: cannot close the entry of replay instance %d", journal_path(),
			idx);
	cs->replay_journal = 0;
	cs->replay_pid = 0;
	cs->target.npids = 0;
}

static enum cell_status skip_cell(struct cell_state *cs, const char *why);

/*
 * A service cell: its server started (cell-svc.h), the probes' pid target
 * the server on this machine (none for a guest's: the VM's QEMU is the
 * backend's). CELL_OK, or the skip or failure already recorded.
 */
static enum cell_status svc_begin(struct cell_state *cs)
{
	char why[1024] = "";
	int ret = svc_cell_begin(cs->ctx, cs->be, cs->be_state, &cs->svc, &cs->svc_pid, why,
				 sizeof(why));

	if (ret == BACKEND_SKIP)
		return skip_cell(cs, why);
	if (ret) {
		cell_fail(cs->ctx, "%s", why);
		return CELL_FAILED;
	}
	cs->fold_each_call = 1;
	cs->target.pids = &cs->svc_pid;
	cs->target.npids = cs->svc_pid > 0;
	return CELL_OK;
}

/* A replay cell: its schedule read, no instance yet (the first call starts one). */
static int replay_begin(struct cell_state *cs)
{
	struct replay_ops ops = { replay_spawn, replay_started, replay_end_instance, cs };
	char why[512];

	if (replay_open(cs->ctx->cell, &ops, &cs->replay, why, sizeof(why))) {
		cell_fail(cs->ctx, "%s", why);
		return -EINVAL;
	}
	cs->target.pids = &cs->replay_pid;
	cs->target.npids = 0;
	return 0;
}

/* End the replay's kept instance; how many calls overlapped, as a cell note. */
static void replay_end(struct cell_state *cs)
{
	char v[32];

	if (!cs->replay)
		return;
	snprintf(v, sizeof(v), "%ld", replay_overlapped(cs->replay));
	db_cell_note(cs->ctx->db, cs->ctx->cell_id, "replay.overlapped_calls", v);
	replay_close(cs->replay);
	cs->replay = NULL;
}

static enum cell_status measure(struct cell_state *cs)
{
	struct noise noise;
	char why[512] = "";
	enum cell_status st;
	int ret;

	if (svc_cell_is(cs->ctx->cell)) {
		st = svc_begin(cs);
		if (st != CELL_OK)
			return st;
	} else if (cs->ctx->cell->replay_schedule[0] ? replay_begin(cs) :
	    strcmp(cs->ctx->cell->mode, "cold") && start_instances(cs))
		return runner_stop ? CELL_INTERRUPTED : CELL_FAILED;
	open_probes(cs);
	noise_begin(&noise);
	knobs_window(cs->ctx->cell, 0);
	cs->fold_each_call = cs->svc ||
			     !!(probe_set_windows(&cs->probes) & PROBE_WINDOW_INVOCATION);
	probe_set_start(&cs->probes, PROBE_WINDOW_CELL, 0);
	ret = fold_calls(cs, run_calls(cs));
	cold_pids_all(cs);
	probe_set_stop(&cs->probes, PROBE_WINDOW_CELL, 0);
	knobs_window(cs->ctx->cell, 1);
	noise_end(&noise);
	if (cell_noise_store(cs->ctx, &noise))
		pr_warn("cell %s: cannot store the machine's load", cs->ctx->cell->key);
	probe_set_emit(&cs->probes, PROBE_WINDOW_CELL, 0, 0);
	if (ret != -EINTR && !runner_stop && (instance_ended(cs) || svc_cell_alive(cs->svc)))
		ret = -EIO;
	ret = ret ?: (probe_set_broken(&cs->probes) ? -EIO : 0);
	replay_end(cs);
	probe_set_close(&cs->probes);
	if (ret == -EINTR)
		return CELL_INTERRUPTED;
	if (!ret && (knobs_verify(cs->ctx->cell, why, sizeof(why)) ||
		     (cs->be->verify && cs->be->verify(cs->be_state, cs->ctx->cell, why,
							sizeof(why))))) {
		cell_fail(cs->ctx, "%s", why);
		return CELL_FAILED;
	}
	return ret ? CELL_FAILED : CELL_OK;
}

static void note_applied(void *ctx, const char *key, const char *value)
{
	struct cell_ctx *c = ctx;

	db_cell_note(c->db, c->cell_id, key, value);
}

/* A knob's skip row of the cell: @what (its name) was not measured, why. */
static void note_skip(void *ctx, const char *what, const char *reason)
{
	struct cell_ctx *c = ctx;

	pr_warn("%s: %s skipped: %s", c->cell->key, what, reason);
	db_skip_add(c->db, c->run_id, c->cell_id, what, reason);
}

/* A backend's fact about the run's environment (a booted guest's hash). */
static void note_env(void *ctx, const char *key, const char *value, const char *source)
{
	struct cell_ctx *c = ctx;

	db_env_add(c->db, c->run_id, key, value, source);
}

/* Record @why as the cell's skip. */
static enum cell_status skip_cell(struct cell_state *cs, const char *why)
{
	pr_warn("%s: skipped: %s", cs->ctx->cell->key, why);
	db_skip_add(cs->ctx->db, cs->ctx->run_id, cs->ctx->cell_id, NULL, why);
	return CELL_SKIPPED;
}

/*
 * The host's MemAvailable before the backend starts anything of the cell:
 * the hostmem probe's baseline (probe_target.mem_available_before_kb).
 */
static long long mem_baseline_kb(void)
{
	struct meminfo m;

	return meminfo_read(&m) ? -1 : m.mem_available;
}

/* The backend sets up, prepares, the cell is measured; cell_end() always. */
static enum cell_status measure_on_backend(struct cell_state *cs)
{
	const struct cell *c = cs->ctx->cell;
	char err[8192] = "";     /* a VM boot error holds 25 console lines */
	enum cell_status st;
	int ret;

	cs->target.mem_available_before_kb = mem_baseline_kb();
	cs->target.pcp_free_before_kb = pcp_free_read();
	ret = cs->be->cell_begin ?
		cs->be->cell_begin(c, &cs->ctx->env, &cs->be_state, err, sizeof(err)) : 0;

	if (ret == BACKEND_SKIP)
		return skip_cell(cs, err);
	if (ret) {
		cell_fail(cs->ctx, "%s", err);
		return CELL_FAILED;
	}
	cs->target.backend_state = cs->be_state;
	/* a service on this machine needs no cvmfn prepare; a guest still boots,
	 * a container gets its rootfs */
	ret = cs->be->prepare &&
	      (!svc_cell_is(c) || (cs->be->flags & (BACKEND_GUEST | BACKEND_CGROUPS))) ?
		cs->be->prepare(c, &cs->ctx->env, cs->be_state, err, sizeof(err)) : 0;
	cs->target.accel = cs->be->accel ? cs->be->accel(cs->be_state) : NULL;
	if (ret == BACKEND_SKIP) {
		st = skip_cell(cs, err);
	} else if (ret) {
		cell_fail(cs->ctx, "%s", err);
		st = CELL_FAILED;
	} else {
		st = measure(cs);
	}
	svc_cell_end(cs->svc);
	cs->svc = NULL;
	stop_instances(cs);
	if (cs->be->cell_end)
		cs->be->cell_end(cs->be_state);
	cs->be_state = cs->target.backend_state = NULL;
	cs->target.accel = NULL;
	return st;
}

/* Apply the cell's knobs, measure, restore them whatever happened. */
static enum cell_status measure_with_knobs(struct cell_state *cs)
{
	struct knob_sink sink = { note_applied, note_skip, cs->ctx };
	char why[512] = "";
	enum cell_status st;
	int ret = knobs_apply(cs->ctx->cell, why, sizeof(why));

	if (ret == KNOB_SKIP)
		return skip_cell(cs, why);
	if (ret) {
		cell_fail(cs->ctx, "%s", why);
		return CELL_FAILED;
	}
	knobs_describe(cs->ctx->cell, &sink);
	st = measure_on_backend(cs);
	knobs_restore(cs->ctx->cell);
	return st;
}

enum cell_status cell_run(struct cell_ctx *ctx)
{
	struct cell_state *cs;
	enum cell_status st;
	char why[512];

	if (!cell_runnable(ctx->cell, why, sizeof(why))) {
		/* before it costs anything: no knob, no backend call, no instance */
		pr_warn("%s: skipped: %s", ctx->cell->key, why);
		db_skip_add(ctx->db, ctx->run_id, ctx->cell_id, NULL, why);
		return CELL_SKIPPED;
	}
	cs = calloc(1, sizeof(*cs));
	if (!cs)
		return CELL_FAILED;
	cs->ctx = ctx;
	cs->be = backend_find(ctx->cell->backend);
	cs->target.cell = ctx->cell;
	cs->target.backend = cs->be;
	ctx->env.note = note_applied;      /* what the backend learns (qemu.accel, guest.*) */
	ctx->env.env_note = note_env;
	ctx->env.note_ctx = ctx;
	st = measure_with_knobs(cs);
	free(cs->latency);
	free(cs->fn);
	free(cs->inv_ids);
	free(cs->cold_pids);
	free(cs);
	return st;
}
