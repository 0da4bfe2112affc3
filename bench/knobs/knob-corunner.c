// SPDX-License-Identifier: MIT
/*
 * knob-corunner.c - the co-runner (key corunner = N): a process of N
 * threads running beside the cell's instances, whatever their backend,
 * started before the cell's backend sets up and ended after it. What its
 * threads do is corunner-kind (corunner-load.h: cpu, cache, memory), where
 * they run corunner-pin (the forms of pin, placement.h: thread i on its
 * object). corunner-kind = kv is a redis-server under redis-benchmark
 * load instead (corunner-kv.c: N connections; the server on object 0, the
 * load on object 1), whose requests/s are stored after the cell. It dies
 * with cvmbench (PR_SET_PDEATHSIG) and is journalled, so a crash cannot
 * leave it running.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corunner-kv.h"
#include "corunner-load.h"
#include "journal.h"
#include "knob-corunner.h"
#include "log.h"
#include "placement.h"
#include "procmem.h"

static struct {
	pid_t pid;
	long journal_id;
	struct corunner_plan plan;
	struct corunner_kv kv;         /* kind kv: its processes (pid, journal_id unused) */
	double alone_rps;              /* kind kv: its load alone, corunner_kv_alone() */
	int alone_rows, alone_ret;
} corunner;

/* The plan of @c: kind, buffer size from the LLC's and the budget, each thread's CPUs. */
static int corunner_plan_make(const struct cell *c, struct corunner_plan *plan,
			      char *why, size_t len)
{
	struct placement_spec spec;
	struct placement *pl = NULL;
	struct meminfo mi;
	size_t llc;
	int i, n, ret = 0;

	memset(plan, 0, sizeof(*plan));
	plan->threads = c->corunner;
	if (corunner_kind_parse(c->corunner_kind, &plan->kind) ||
	    placement_parse(c->corunner_pin, &spec))
		return -EINVAL;
	if (plan->kind == CORUNNER_KV && !corunner_kv_found(why, len))
		return -ENOENT;
	if ((plan->kind == CORUNNER_CPU || plan->kind == CORUNNER_KV) && spec.kind == PLACE_NONE)
		return 0;
	n = plan->kind == CORUNNER_KV ? 2 : plan->threads;     /* kv: server, load */
	ret = placement_open(&pl, why, len);
	for (i = 0; !ret && spec.kind != PLACE_NONE && i < n && i < CORUNNER_MAX_THREADS; i++)
		ret = placement_cpus(pl, &spec, i, &plan->cpus[i], why, len);
	plan->pinned = spec.kind != PLACE_NONE;
	llc = ret ? 0 : placement_llc_size(pl, plan->pinned ? &plan->cpus[0] : NULL);
	if (!ret)       /* a buffer that cannot hold what it is for: skip */
		ret = corunner_plan_size(plan, llc, corunner_budget(meminfo_read(&mi) ? -1 :
					 mi.mem_total), why, len);
	placement_close(pl);
	if (ret)
		snprintf(why + strlen(why), len - strlen(why), " (co-runner)");
	return ret;
}

static int corunner_supported(const struct cell *c, char *why, size_t len)
{
	static struct corunner_plan scratch;     /* not the running one's */

	if (c->corunner <= 0 || corunner_in_vm(c))
		return 1;
	return !corunner_plan_make(c, &scratch, why, len);
}

/* corunner-in = vm: the co-runner VM's knob (knob-corunner-vm.c) runs it. */
int corunner_in_vm(const struct cell *c)
{
	return !strcmp(c->corunner_in, "vm");
}

/* The co-runner's process name, as ps and /proc/PID/comm show it. */
#define CORUNNER_COMM "cvmbench-corun"

static void corunner_child(void)
{
	prctl(PR_SET_NAME, CORUNNER_COMM);
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_IGN);
	corunner_run(&corunner.plan);
}

/*
 * kind kv: the server and its load, placed as the plan says, then its
 * load alone (corunner_kv_alone(): before the cell's instances start).
 */
static int corunner_kv_apply(char *why, size_t len)
{
	const struct corunner_plan *p = &corunner.plan;
	int ret = corunner_kv_start(&corunner.kv, p->pinned ? &p->cpus[0] : NULL,
				    p->pinned ? &p->cpus[1] : NULL, p->threads, why, len);

	corunner.alone_ret = ret ? ret : corunner_kv_alone(&corunner.kv, CORUNNER_KV_ALONE_MS,
							   &corunner.alone_rps,
							   &corunner.alone_rows);
	return ret;
}

static int corunner_apply(const struct cell *c, char *why, size_t len)
{
	memset(&corunner, 0, sizeof(corunner));
	if (c->corunner <= 0 || corunner_in_vm(c))
		return 0;
	if (corunner_plan_make(c, &corunner.plan, why, len))
		return KNOB_SKIP;
	if (corunner.plan.kind == CORUNNER_KV)
		return corunner_kv_apply(why, len);
	corunner.pid = fork();
	if (corunner.pid == 0)
		corunner_child();
	if (corunner.pid < 0) {
		snprintf(why, len, "cannot start the co-runner: %s", strerror(errno));
		return -errno;
	}
	corunner.journal_id = journal_process(corunner.pid);
	if (corunner.journal_id < 0) {
		snprintf(why, len, "cannot journal the co-runner (so it is ended): %s",
			 strerror((int)-corunner.journal_id));
		kill(corunner.pid, SIGKILL);
		waitpid(corunner.pid, NULL, 0);
		return (int)corunner.journal_id;
	}
	return 0;
}

/* kind kv: both still up through the cell. */
static int corunner_kv_verify(char *why, size_t len)
{
	return corunner_kv_alive(&corunner.kv, why, len);
}

/* Did it run through the cell? It ends only when killed. */
static int corunner_verify(const struct cell *c, char *why, size_t len)
{
	int status;

	(void)c;
	if (corunner.kv.server > 0)
		return corunner_kv_verify(why, len);
	if (corunner.journal_id <= 0 || waitpid(corunner.pid, &status, WNOHANG) != corunner.pid)
		return 0;
	snprintf(why, len, "the co-runner ended during the cell (%s %d%s)",
		 WIFEXITED(status) ? "exit" : "signal",
		 WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status),
		 WIFEXITED(status) && WEXITSTATUS(status) == 3 ? ": its buffer could not be "
		 "mapped" : "");
	corunner.pid = 0;
	return -EIO;
}

static void corunner_restore(const struct cell *c)
{
	(void)c;
	if (corunner.kv.dir[0])
		corunner_kv_stop(&corunner.kv);
	if (corunner.journal_id <= 0)
		return;
	if (corunner.pid > 0) {
		kill(corunner.pid, SIGKILL);
		waitpid(corunner.pid, NULL, 0);
	}
	if (journal_forget(corunner.journal_id))
		pr_warn("cannot close journal entry %ld (%s)", corunner.journal_id,
			journal_path());
	memset(&corunner, 0, sizeof(corunner));
}

static void corunner_describe(const struct cell *c, char *buf, size_t len)
{
	static const char *const kinds[] = { "cpu", "cache", "memory", "kv" };
	char cpus[96] = "", load[96] = "";

	buf[0] = '\0';
	if (c->corunner > 0 && corunner.kv.server > 0) {
		if (corunner.plan.pinned) {
			placement_cpus_text(&corunner.plan.cpus[0], cpus, sizeof(cpus));
			placement_cpus_text(&corunner.plan.cpus[1], load, sizeof(load));
		}
		snprintf(buf, len, "kv: redis-server on 127.0.0.1:%d (CPUs %s), redis-benchmark "
			 "SET/GET with %d connection(s) (CPUs %s)", corunner.kv.port,
			 cpus[0] ? cpus : "any", corunner.kv.clients, load[0] ? load : "any");
		return;
	}
	if (c->corunner <= 0 || corunner.journal_id <= 0)
		return;
	if (corunner.plan.pinned)
		placement_cpus_text(&corunner.plan.cpus[0], cpus, sizeof(cpus));
	snprintf(buf, len, "%s: %d thread(s), %zu KiB each, thread 0 on CPUs %s",
		 kinds[corunner.plan.kind], corunner.plan.threads, corunner.plan.bytes / 1024,
		 cpus[0] ? cpus : "any");
}

/* kind kv: the cell window's start and end marked in the driver's CSV. */
static void corunner_window(const struct cell *c, int end)
{
	if (c->corunner > 0 && corunner.kv.dir[0])
		corunner_kv_mark(&corunner.kv, end);
}

/* corunner.kv_[WHAT]requests_per_s, _results, _widened_ms through @s. */
static void kv_put_three(const struct knob_sink *s, const char *what, double rps, int rows,
			 long widened_ms)
{
	char k[64], v[64];

	snprintf(k, sizeof(k), "corunner.kv_%srequests_per_s", what);
	snprintf(v, sizeof(v), "%.1f", rps);
	s->put(s->ctx, k, v);
	snprintf(k, sizeof(k), "corunner.kv_%sresults", what);
	snprintf(v, sizeof(v), "%d", rows);
	s->put(s->ctx, k, v);
	snprintf(k, sizeof(k), "corunner.kv_%swidened_ms", what);
	snprintf(v, sizeof(v), "%ld", widened_ms);
	s->put(s->ctx, k, v);
}

void corunner_kv_put_window(const struct knob_sink *s, double rps, int rows, long widened_ms)
{
	kv_put_three(s, "", rps, rows, widened_ms);
}

void corunner_kv_put_alone(const struct knob_sink *s, int ret, double rps, int rows,
			   long widened_ms)
{
	if (ret)
		s->skip(s->ctx, "corunner", "corunner-kind = kv: no redis-benchmark round ended "
			"within the co-runner's window alone (before the cell's instances), "
			"nor within " CORUNNER_KV_WIDEN_TEXT " after it");
	else
		kv_put_three(s, "alone_", rps, rows, widened_ms);
}

/*
 * kind kv: the requests/s redis-benchmark achieved in the rounds completed
 * within the cell window (requests over the time of those rounds' tests),
 * the window widened when none ended in it (corunner-kv.h); a skip row of
 * the cell when none ended in the widened window either; nothing when the
 * window never opened (the cell was not measured). Its load alone either way.
 */
static void corunner_kv_report(const struct knob_sink *s)
{
	double rps;
	int rows;

	corunner_kv_put_alone(s, corunner.alone_ret, corunner.alone_rps, corunner.alone_rows,
			      corunner.kv.alone_widened_ms);
	if (corunner.kv.win_start < 0)
		return;
	if (corunner_kv_load_widened(&corunner.kv, CORUNNER_KV_WIDEN_MS, &rps, &rows))
		s->skip(s->ctx, "corunner", "corunner-kind = kv: no redis-benchmark round ended "
			"within the cell window, nor within " CORUNNER_KV_WIDEN_TEXT " after it "
			"(a round is " CORUNNER_KV_ROUND_TEXT " SETs, then as many GETs)");
	else
		corunner_kv_put_window(s, rps, rows, corunner.kv.widened_ms);
}

/* cache, memory: each thread's buffer and the rule that sized it. */
static void corunner_size_report(const struct knob_sink *s)
{
	char v[32];

	snprintf(v, sizeof(v), "%zu", corunner.plan.bytes);
	s->put(s->ctx, "corunner.size_bytes", v);
	s->put(s->ctx, "corunner.size_rule", corunner_size_rule_name(corunner.plan.rule));
	snprintf(v, sizeof(v), "%zu", corunner.plan.llc);
	s->put(s->ctx, "corunner.size_llc_bytes", v);
	snprintf(v, sizeof(v), "%zu", corunner.plan.budget);
	s->put(s->ctx, "corunner.size_budget_bytes", v);
}

static void corunner_report(const struct cell *c, const struct knob_sink *s)
{
	if (c->corunner <= 0)
		return;
	if (corunner.kv.dir[0])
		corunner_kv_report(s);
	else if (corunner.journal_id > 0 && corunner.plan.bytes)
		corunner_size_report(s);
}

pid_t corunner_pid(void)
{
	if (corunner.kv.server > 0)
		return corunner.kv.server;
	return corunner.journal_id > 0 ? corunner.pid : 0;
}

const struct knob_ops knob_corunner = {
	.name = "corunner",
	.supported = corunner_supported,
	.apply = corunner_apply,
	.verify = corunner_verify,
	.restore = corunner_restore,
	.describe = corunner_describe,
	.report = corunner_report,
	.window = corunner_window,
};
