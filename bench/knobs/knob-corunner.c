// SPDX-License-Identifier: MIT
/*
 * knob-corunner.c - the co-runner (key corunner = N): a process of N
 * threads running beside the cell's instances, whatever their backend,
 * started before the cell's backend sets up and ended after it. What its
 * threads do is corunner-kind (corunner-load.h: cpu, cache, memory), where
 * they run corunner-pin (the forms of pin, placement.h: thread i on its
 * object). It dies with cvmbench (PR_SET_PDEATHSIG) and is journalled, so
 * a crash cannot leave it running.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corunner-load.h"
#include "journal.h"
#include "knob-corunner.h"
#include "log.h"
#include "placement.h"

static struct {
	pid_t pid;
	long journal_id;
	struct corunner_plan plan;
} corunner;

/* The plan of @c: kind, buffer size from the LLC's, each thread's CPUs. */
static int corunner_plan_make(const struct cell *c, struct corunner_plan *plan,
			      char *why, size_t len)
{
	struct placement_spec spec;
	struct placement *pl = NULL;
	size_t llc;
	int i, ret = 0;

	memset(plan, 0, sizeof(*plan));
	plan->threads = c->corunner;
	if (corunner_kind_parse(c->corunner_kind, &plan->kind) ||
	    placement_parse(c->corunner_pin, &spec))
		return -EINVAL;
	if (plan->kind == CORUNNER_CPU && spec.kind == PLACE_NONE)
		return 0;
	ret = placement_open(&pl, why, len);
	for (i = 0; !ret && spec.kind != PLACE_NONE && i < plan->threads &&
		    i < CORUNNER_MAX_THREADS; i++)
		ret = placement_cpus(pl, &spec, i, &plan->cpus[i], why, len);
	plan->pinned = spec.kind != PLACE_NONE;
	llc = ret ? 0 : placement_llc_size(pl, plan->pinned ? &plan->cpus[0] : NULL);
	if (!ret && !llc && plan->kind == CORUNNER_CACHE) {   /* no size to hold: skip */
		snprintf(why, len, "corunner-kind = cache: hwloc knows no L2 or L3 cache here");
		ret = -ENODEV;
	}
	plan->bytes = corunner_plan_bytes(plan->kind, llc, plan->threads);
	placement_close(pl);
	if (ret)
		snprintf(why + strlen(why), len - strlen(why), " (co-runner)");
	return ret;
}

static int corunner_supported(const struct cell *c, char *why, size_t len)
{
	static struct corunner_plan scratch;     /* not the running one's */

	if (c->corunner <= 0)
		return 1;
	return !corunner_plan_make(c, &scratch, why, len);
}

static void corunner_child(void)
{
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	signal(SIGINT, SIG_IGN);
	corunner_run(&corunner.plan);
}

static int corunner_apply(const struct cell *c, char *why, size_t len)
{
	memset(&corunner, 0, sizeof(corunner));
	if (c->corunner <= 0)
		return 0;
	if (corunner_plan_make(c, &corunner.plan, why, len))
		return KNOB_SKIP;
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

/* Did it run through the cell? It ends only when killed. */
static int corunner_verify(const struct cell *c, char *why, size_t len)
{
	int status;

	(void)c;
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
	static const char *const kinds[] = { "cpu", "cache", "memory" };
	char cpus[96] = "";

	buf[0] = '\0';
	if (c->corunner <= 0 || corunner.journal_id <= 0)
		return;
	if (corunner.plan.pinned)
		placement_cpus_text(&corunner.plan.cpus[0], cpus, sizeof(cpus));
	snprintf(buf, len, "%s: %d thread(s), %zu KiB each, thread 0 on CPUs %s",
		 kinds[corunner.plan.kind], corunner.plan.threads, corunner.plan.bytes / 1024,
		 cpus[0] ? cpus : "any");
}

pid_t corunner_pid(void)
{
	return corunner.journal_id > 0 ? corunner.pid : 0;
}

const struct knob_ops knob_corunner = {
	.name = "corunner",
	.supported = corunner_supported,
	.apply = corunner_apply,
	.verify = corunner_verify,
	.restore = corunner_restore,
	.describe = corunner_describe,
};
