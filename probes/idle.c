// SPDX-License-Identifier: MIT
/*
 * idle.c - idle entries of the guest, per cell and per invocation.
 *
 * From sysfs (/sys/devices/system/cpu/cpuN/cpuidle/stateK/{usage,time}):
 * per CPU and per state the number of entries and the time spent (us)
 * during the window, their totals, and idle entries per second of function
 * time. Under the HLT policy in a KVM guest every entry of a non-POLL
 * state is one HLT exit to the hypervisor: `halt_entries` is the guest's
 * own count of HLT exits.
 *
 * Without a cpuidle driver there are no state counters: the kernel idles
 * through default_idle (HLT on x86). The entries then come from the
 * power:cpu_idle count below, if it fires on every CPU (idle-wake.c checks
 * that once, when the probe opens); otherwise the probe is a skip with the
 * reason. The cell's `idle.entries_source` (cell_param) names the source.
 *
 * From tracefs (built with libtracefs, as root): the number of
 * power:cpu_idle entry events (state != PWR_EVENT_EXIT) in a tracefs
 * instance of its own, counted through the instance's per-CPU ring-buffer
 * stats (entries + overrun + read + dropped: nothing is parsed from the
 * trace text), as a cross-check of the sysfs usage counts. The instance is
 * journalled before it is created, so `cvmbench restore` removes it after a
 * crash; close() destroys it.
 *
 * Side: instance: the idle states of the machine the functions run on
 * (inside the guest for a VM, through the agent).
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <sys/stat.h>
#include <unistd.h>

#ifdef HAVE_TRACEFS
#include <tracefs.h>
#endif

#include "clock.h"
#include "cpuidle.h"
#include "idle-metrics.h"
#include "idle-wake.h"
#include "journal.h"
#include "log.h"
#include "probe.h"
#include "sink.h"
#include "sysfs.h"
#include "sysroot.h"
#include "tracefs-find.h"
#include "tracefs-host.h"

struct idle_trace {
#ifdef HAVE_TRACEFS
	struct tracefs_instance *inst;
#endif
	long journal_id;
	char dir[PATH_MAX];       /* the guest agent's instance (no libtracefs) */
	int *stat_fd;             /* per_cpu/cpuN/stats of the instance */
	int ncpus;
	int ok;
	char why[200];            /* why there is no count */
};

/* where the guest's agent mounts tracefs (agent-init.c) */
#define GUEST_TRACEFS "/sys/kernel/tracing"
/* power:cpu_idle entries (not the exit event, state 4294967295) */
#define FILTER_ENTRIES "state != 4294967295"
/* entries of a halting state: state 0 is cpu_idle_poll's (idle=poll) or POLL */
#define FILTER_HALTS "state != 0 && state != 4294967295"

struct idle_window {
	struct cpuidle_sample a, b;
	uint64_t *trace_a, *trace_b;      /* per CPU of the cpuidle set */
	uint64_t *halt_a, *halt_b;        /* SRC_TRACE: halting entries per CPU */
	double t_a, t_b;          /* CLOCK_MONOTONIC, ns */
};

enum idle_source { SRC_CPUIDLE, SRC_TRACE };

#define WAKE_CHECK_MS 1000

struct idle_state {
	enum idle_source source;
	char source_note[256];
	int boot_idle_poll;               /* idle=poll on the kernel command line */
	struct cpuidle_set set;           /* SRC_TRACE: CPUs only, no states */
	struct idle_window win[2];        /* [0] cell, [1] invocation */
	struct idle_trace tr;
	struct idle_trace tr_halt;        /* SRC_TRACE: entries with state != 0 */
	uint64_t *rec;                    /* invocation records not yet written */
	size_t nrec, caprec;
	size_t rec_base;                  /* measured call number of rec[0] */
};

#if defined(HAVE_TRACEFS) || defined(CVMBENCH_GUEST_AGENT)
/* Events written to one CPU's buffer so far, from its stats file. */
static uint64_t stat_events(int fd)
{
	static const char *const keys[] = { "entries:", "overrun:", "dropped events:",
					    "read events:" };
	char buf[1024], *line, *save = NULL;
	uint64_t sum = 0;
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	size_t k;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (!strncmp(line, keys[k], strlen(keys[k])))
				sum += strtoull(line + strlen(keys[k]), NULL, 10);
	return sum;
}


static void trace_count(const struct idle_trace *t, uint64_t *per_cpu)
{
	int i;

	for (i = 0; t->ok && i < t->ncpus; i++)
		per_cpu[i] = stat_events(t->stat_fd[i]);
}

/* Close the instance's per-CPU stats files. */
static void close_stat_fds(struct idle_trace *t)
{
	int i;

	for (i = 0; t->stat_fd && i < t->ncpus; i++)
		if (t->stat_fd[i] >= 0)
			close(t->stat_fd[i]);
	free(t->stat_fd);
	t->stat_fd = NULL;
}
#endif

#ifdef HAVE_TRACEFS
static void trace_close(struct idle_trace *t)
{
	close_stat_fds(t);
	if (t->inst) {
		if (!tracefs_instance_destroy(t->inst) && journal_forget(t->journal_id))
			pr_warn("journal %s: cannot close a tracefs instance's entry",
				journal_path());
		tracefs_instance_free(t->inst);
	} else if (t->journal_id > 0 && journal_forget(t->journal_id)) {
		pr_warn("journal %s: cannot close a tracefs instance's entry", journal_path());
	}
	t->inst = NULL;
	t->journal_id = 0;
	t->ok = 0;
}

/* A new instance, journalled first, recording the cpu_idle events of @filter. */
static int trace_create(struct idle_trace *t, const char *filter)
{
	static int seq;
	char name[64], path[PATH_MAX + 80], dir[PATH_MAX];

	if (tracefs_host_dir(dir, sizeof(dir), t->why, sizeof(t->why)))
		return -ENOENT;
	snprintf(name, sizeof(name), "cvmbench-idle-%d-%d", (int)getpid(), ++seq);
	snprintf(path, sizeof(path), "%s/instances/%s", dir, name);
	t->journal_id = journal_object("tracefs-instance", path);
	if (t->journal_id < 0) {
		snprintf(t->why, sizeof(t->why), "cannot journal tracefs instance %s: %s",
			 name, strerror((int)-t->journal_id));
		return (int)t->journal_id;
	}
	t->inst = tracefs_instance_create(name);
	if (!t->inst || !tracefs_instance_is_new(t->inst)) {
		snprintf(t->why, sizeof(t->why), "cannot create tracefs instance %s: %s",
			 name, t->inst ? "it exists already" : strerror(errno));
		if (t->inst)
			tracefs_instance_free(t->inst);
		t->inst = NULL;
		return -EEXIST;
	}
	tracefs_instance_set_buffer_size(t->inst, 64, -1);
	if (tracefs_event_file_write(t->inst, "power", "cpu_idle", "filter", filter) < 0 ||
	    tracefs_event_enable(t->inst, "power", "cpu_idle")) {
		snprintf(t->why, sizeof(t->why), "cannot enable power:cpu_idle in "
			 "tracefs instance %s", name);
		return -EIO;
	}
	return 0;
}

static void trace_open(struct idle_trace *t, const struct cpuidle_set *s,
		       const char *filter)
{
	char file[64];
	int i;

	if (geteuid()) {
		snprintf(t->why, sizeof(t->why), "power:cpu_idle count needs root");
		return;
	}
	if (trace_create(t, filter))
		goto fail;
	t->stat_fd = malloc((size_t)s->ncpus * sizeof(*t->stat_fd));
	if (!t->stat_fd)
		goto fail;
	for (t->ncpus = 0; t->ncpus < s->ncpus; t->ncpus++) {
		i = t->ncpus;
		snprintf(file, sizeof(file), "per_cpu/cpu%d/stats", s->cpu[i]);
		t->stat_fd[i] = tracefs_instance_file_open(t->inst, file, O_RDONLY | O_CLOEXEC);
		if (t->stat_fd[i] < 0) {
			snprintf(t->why, sizeof(t->why), "cannot open %s of the instance",
				 file);
			goto fail;
		}
	}
	t->ok = 1;
	return;
fail:
	pr_warn("idle probe: no power:cpu_idle count: %s", t->why[0] ? t->why :
		"out of memory");
	trace_close(t);
}
#elif defined(CVMBENCH_GUEST_AGENT)
/*
 * In the guest's agent (built without libtracefs): the same instance made
 * with plain file writes under the tracefs the agent mounted. Nothing is
 * journalled: the instance lives and dies with the guest.
 */
static void trace_close(struct idle_trace *t)
{
	close_stat_fds(t);
	if (t->dir[0])
		rmdir(t->dir);
	t->dir[0] = '\0';
	t->ok = 0;
}

static int put_file(const char *dir, const char *file, const char *value)
{
	char path[PATH_MAX];
	int fd, ok;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	ok = write(fd, value, strlen(value)) == (ssize_t)strlen(value);
	close(fd);
	return ok ? 0 : -EIO;
}

static void trace_open(struct idle_trace *t, const struct cpuidle_set *s,
		       const char *filter)
{
	static int seq;
	char file[PATH_MAX + 40];

	snprintf(t->dir, sizeof(t->dir), GUEST_TRACEFS "/instances/cvmbench-idle-%d-%d",
		 (int)getpid(), ++seq);
	if (mkdir(t->dir, 0755)) {
		snprintf(t->why, sizeof(t->why), "cannot create %.120s: %s", t->dir,
			 strerror(errno));
		t->dir[0] = '\0';
		return;
	}
	if (put_file(t->dir, "buffer_size_kb", "64") ||
	    put_file(t->dir, "events/power/cpu_idle/filter", filter) ||
	    put_file(t->dir, "events/power/cpu_idle/enable", "1")) {
		snprintf(t->why, sizeof(t->why), "cannot enable power:cpu_idle in %.120s", t->dir);
		goto fail;
	}
	t->stat_fd = malloc((size_t)s->ncpus * sizeof(*t->stat_fd));
	for (t->ncpus = 0; t->stat_fd && t->ncpus < s->ncpus; t->ncpus++) {
		snprintf(file, sizeof(file), "%s/per_cpu/cpu%d/stats", t->dir, s->cpu[t->ncpus]);
		t->stat_fd[t->ncpus] = open(file, O_RDONLY | O_CLOEXEC);
		if (t->stat_fd[t->ncpus] < 0) {
			snprintf(t->why, sizeof(t->why), "cannot open %.150s", file);
			goto fail;
		}
	}
	t->ok = !!t->stat_fd;
	if (!t->ok)
		snprintf(t->why, sizeof(t->why), "out of memory");
	return;
fail:
	trace_close(t);
}
#else
static void trace_count(const struct idle_trace *t, uint64_t *per_cpu)
{
	(void)t;
	(void)per_cpu;
}

static void trace_open(struct idle_trace *t, const struct cpuidle_set *s,
		       const char *filter)
{
	(void)s;
	(void)filter;
	snprintf(t->why, sizeof(t->why), "unsupported: built without libtracefs");
}

static void trace_close(struct idle_trace *t)
{
	(void)t;
}
#endif

/* Without cpuidle states: can power:cpu_idle be counted (decided at open)? */
static int trace_possible(char *why, size_t len)
{
#ifdef HAVE_TRACEFS
	if (geteuid()) {
		snprintf(why, len, "power:cpu_idle count needs root");
		return 0;
	}
	return tracefs_usable(why, len);
#else
#ifdef CVMBENCH_GUEST_AGENT
	if (!access(GUEST_TRACEFS "/instances", W_OK))
		return 1;
	snprintf(why, len, "no power:cpu_idle count: " GUEST_TRACEFS "/instances: %s",
		 strerror(errno));
#else
	snprintf(why, len, "built without libtracefs (no power:cpu_idle count)");
#endif
	return 0;
#endif
}

static int idle_supported(char *why, size_t len)
{
	char drv[64], twhy[200];

	if (!sysroot_access(CPUIDLE_SYSFS "/cpu0/cpuidle/state0/usage", R_OK))
		return 1;
	if (trace_possible(twhy, sizeof(twhy)))
		return 1;         /* power:cpu_idle, if it fires on every CPU */
	cpuidle_driver(drv, sizeof(drv));
	snprintf(why, len, "no cpuidle states under " CPUIDLE_SYSFS "/cpu0/cpuidle "
		 "(cpuidle driver '%s') and %s", drv, twhy);
	return 0;
}

static void idle_close(struct probe *p)
{
	struct idle_state *st = p->priv;
	int i;

	if (!st)
		return;
	trace_close(&st->tr);
	trace_close(&st->tr_halt);
	for (i = 0; i < 2; i++) {
		cpuidle_sample_free(&st->win[i].a);
		cpuidle_sample_free(&st->win[i].b);
		free(st->win[i].trace_a);
		free(st->win[i].trace_b);
		free(st->win[i].halt_a);
		free(st->win[i].halt_b);
	}
	cpuidle_close(&st->set);
	free(st->rec);
	free(st);
	p->priv = NULL;
}

/* 1 if the kernel command line holds the word @param. */
static int boot_param(const char *param)
{
	char line[4096], *at;
	size_t n = strlen(param);

	if (sysfs_read_line("/proc/cmdline", line, sizeof(line)) < 0)
		return 0;
	for (at = strstr(line, param); at; at = strstr(at + 1, param))
		if ((at == line || at[-1] == ' ') && (at[n] == ' ' || !at[n]))
			return 1;
	return 0;
}

/* Per-CPU power:cpu_idle counts, for idle_wake_check(). */
static void count_trace(void *ctx, uint64_t *out)
{
	trace_count(ctx, out);
}

/*
 * Without cpuidle states the entries come from power:cpu_idle, if it fires
 * on every CPU. The check costs up to a second: done once per run, in the
 * first cell whose CPUs may idle (never under idle = spin).
 */
static int trace_fires_everywhere(const struct probe *p, struct idle_state *st, char *why,
				  size_t len)
{
	static int verdict = -1;
	static char reason[400];
	uint64_t *seen;

	/* under spin no CPU idles: a check now would fail the whole run's cells */
	if (verdict < 0 && !strncmp(p->target->cell->idle, "spin", 4)) {
		snprintf(why, len, "idle = spin keeps every CPU busy, so whether "
			 "power:cpu_idle fires on every CPU cannot be checked in this cell");
		return 0;
	}
	if (verdict < 0) {
		seen = calloc((size_t)st->set.ncpus, sizeof(*seen));
		if (!seen)
			return snprintf(why, len, "out of memory"), 0;
		verdict = idle_wake_check(st->set.cpu, st->set.ncpus, count_trace, &st->tr,
					  WAKE_CHECK_MS, seen);
		if (verdict < 0)
			snprintf(reason, sizeof(reason), "cannot start the sleeper threads "
				 "that check power:cpu_idle: %s", strerror(-verdict));
		else if (!verdict)
			idle_wake_verdict(st->set.cpu, seen, st->set.ncpus, WAKE_CHECK_MS,
					  reason, sizeof(reason));
		verdict = verdict > 0;
		free(seen);
	}
	snprintf(why, len, "%s", reason);
	return verdict;
}

/* Where this cell's idle entries come from; a skip reason if nowhere. */
static int choose_source(struct probe *p, struct idle_state *st, char *why)
{
	char drv[64], tmp[400];

	cpuidle_driver(drv, sizeof(drv));
	if (st->source == SRC_CPUIDLE) {
		snprintf(st->source_note, sizeof(st->source_note), "cpuidle sysfs "
			 "stateK/usage and time (driver %s)", drv);
		return 0;
	}
	if (!st->tr.ok)
		return probe_error(p, -ENOENT, "idle entries: no cpuidle states (cpuidle "
				   "driver '%s') and no power:cpu_idle count: %s", drv,
				   st->tr.why);
	if (!trace_fires_everywhere(p, st, tmp, sizeof(tmp)))
		return probe_error(p, -ENOENT, "idle entries: no cpuidle states (cpuidle "
				   "driver '%s'), and %s", drv, tmp);
	snprintf(st->source_note, sizeof(st->source_note), "tracefs power:cpu_idle "
		 "(no cpuidle driver; it fired on every CPU under a pinned sleeper)");
	(void)why;
	return 0;
}

static int idle_open(struct probe *p)
{
	struct idle_state *st = calloc(1, sizeof(*st));
	char why[256];
	int i, ret;

	if (!st)
		return probe_error(p, -ENOMEM, "out of memory");
	p->priv = st;
	ret = cpuidle_open(&st->set, why, sizeof(why));
	if (ret == -ENOENT) {
		st->source = SRC_TRACE;
		st->boot_idle_poll = boot_param("idle=poll");
		ret = cpuidle_open_cpus(&st->set);
	}
	if (ret) {
		probe_error(p, ret, "%s", strerror(-ret));
		goto fail;
	}
	for (i = 0; i < 2 && !ret; i++) {
		struct idle_window *x = &st->win[i];

		x->trace_a = calloc((size_t)st->set.ncpus, sizeof(*x->trace_a));
		x->trace_b = calloc((size_t)st->set.ncpus, sizeof(*x->trace_b));
		x->halt_a = calloc((size_t)st->set.ncpus, sizeof(*x->halt_a));
		x->halt_b = calloc((size_t)st->set.ncpus, sizeof(*x->halt_b));
		ret = cpuidle_sample_alloc(&st->set, &x->a) ?:
		      cpuidle_sample_alloc(&st->set, &x->b) ?:
		      (x->trace_a && x->trace_b && x->halt_a && x->halt_b ? 0 : -ENOMEM);
	}
	if (ret) {
		probe_error(p, ret, "out of memory");
		goto fail;
	}
	trace_open(&st->tr, &st->set, FILTER_ENTRIES);
	if (st->source == SRC_TRACE && st->tr.ok)      /* halts apart from polls */
		trace_open(&st->tr_halt, &st->set, FILTER_HALTS);
	ret = choose_source(p, st, why);
	if (!ret)
		return 0;
fail:
	idle_close(p);
	return ret;
}

static struct idle_window *window(struct probe *p, enum probe_window w)
{
	struct idle_state *st = p->priv;

	return &st->win[w == PROBE_WINDOW_CELL ? 0 : 1];
}

static int idle_start(struct probe *p, enum probe_window w)
{
	struct idle_state *st = p->priv;
	struct idle_window *x = window(p, w);

	x->t_a = (double)clock_now_ns();
	trace_count(&st->tr, x->trace_a);
	trace_count(&st->tr_halt, x->halt_a);
	return cpuidle_read(&st->set, &x->a);
}

static int idle_stop(struct probe *p, enum probe_window w)
{
	struct idle_state *st = p->priv;
	struct idle_window *x = window(p, w);
	int ret = cpuidle_read(&st->set, &x->b);

	trace_count(&st->tr, x->trace_b);
	trace_count(&st->tr_halt, x->halt_b);
	x->t_b = (double)clock_now_ns();
	return ret;
}

/*
 * A record of one window's deltas: [0] invocation id, [1] window ns, then
 * usage and time per CPU and state, then power:cpu_idle events per CPU,
 * then (SRC_TRACE) the halting ones among them per CPU.
 * Invocation records are kept in memory and written after the cell window
 * (or every FLUSH_AT invocations), so that storing them does not lengthen
 * the gaps between calls - the gaps decide how deep the vCPUs go idle.
 */
#define FLUSH_AT 4096
#define REC_HEAD 2

static size_t rec_len(const struct cpuidle_set *set)
{
	return REC_HEAD + 2 * (size_t)set->ncpus * set->nstates + 2 * (size_t)set->ncpus;
}

static void rec_fill(const struct idle_state *st, const struct idle_window *x,
		     int64_t inv_id, uint64_t *r)
{
	size_t n = (size_t)st->set.ncpus * st->set.nstates, j;
	int i;

	r[0] = (uint64_t)inv_id;
	r[1] = (uint64_t)(x->t_b - x->t_a);
	for (j = 0; j < n; j++) {
		r[REC_HEAD + j] = x->b.usage[j] - x->a.usage[j];
		r[REC_HEAD + n + j] = x->b.time[j] - x->a.time[j];
	}
	for (i = 0; i < st->set.ncpus; i++)
		r[REC_HEAD + 2 * n + i] = st->tr.ok ? x->trace_b[i] - x->trace_a[i] : 0;
	for (i = 0; i < st->set.ncpus; i++)
		r[REC_HEAD + 2 * n + st->set.ncpus + i] =
			st->tr_halt.ok ? x->halt_b[i] - x->halt_a[i] : 0;
}

struct idle_totals {
	double usage[CPUIDLE_MAX_STATES], time[CPUIDLE_MAX_STATES];
	double halt, halt_time, poll, poll_time;
};

/* Per CPU and per state usage and time deltas; sums them into @t. */
static int emit_states(const struct cpuidle_set *set, const uint64_t *r,
		       struct sink *s, struct idle_totals *t)
{
	size_t n = (size_t)set->ncpus * set->nstates;
	const uint64_t *usage = r + REC_HEAD, *time = usage + n;
	char name[64];
	int i, k, j, err = 0;

	for (i = 0; i < set->ncpus && !err; i++)
		for (k = 0; k < set->nstates && !err; k++) {
			j = i * set->nstates + k;
			t->usage[k] += (double)usage[j];
			t->time[k] += (double)time[j];
			snprintf(name, sizeof(name), "cpu%d.state%d.usage", set->cpu[i], k);
			err = sink_metric(s, name, (double)usage[j], "count");
			snprintf(name, sizeof(name), "cpu%d.state%d.time", set->cpu[i], k);
			err = err ?: sink_metric(s, name, (double)time[j], "us");
		}
	return err;
}

static int emit_totals(const struct cpuidle_set *set, struct sink *s,
		       struct idle_totals *t)
{
	char name[32];
	int k, err = 0;

	for (k = 0; k < set->nstates && !err; k++) {
		if (set->is_poll[k]) {
			t->poll += t->usage[k];
			t->poll_time += t->time[k];
		} else {
			t->halt += t->usage[k];
			t->halt_time += t->time[k];
		}
		snprintf(name, sizeof(name), "state%d.usage", k);
		err = sink_metric(s, name, t->usage[k], "count");
		snprintf(name, sizeof(name), "state%d.time", k);
		err = err ?: sink_metric(s, name, t->time[k], "us");
	}
	return err ?: sink_metric(s, "halt_entries", t->halt, "count") ?:
	       sink_metric(s, "halt_time", t->halt_time, "us") ?:
	       sink_metric(s, "poll_entries", t->poll, "count") ?:
	       sink_metric(s, "poll_time", t->poll_time, "us") ?:
	       sink_metric(s, IDLE_ENTRIES, t->halt + t->poll, "count");
}

static int emit_diff(struct sink *s, const char *name, double events, double entries)
{
	if (entries <= 0)
		return 0;
	return sink_metric(s, name, 100.0 * (events - entries) / entries, "%");
}

/*
 * The power:cpu_idle counts, per CPU and in total, and how far they are
 * from the usage deltas (entries of every state, POLL included).
 */
static int emit_trace(const struct cpuidle_set *set, const uint64_t *r, struct sink *s)
{
	size_t n = (size_t)set->ncpus * set->nstates;
	double events, entries, all_events = 0, all_entries = 0;
	char name[64];
	int i, k, err = 0;

	for (i = 0; i < set->ncpus && !err; i++) {
		events = (double)r[REC_HEAD + 2 * n + i];
		for (entries = 0, k = 0; k < set->nstates; k++)
			entries += (double)r[REC_HEAD + i * set->nstates + k];
		all_events += events;
		all_entries += entries;
		snprintf(name, sizeof(name), "cpu%d.trace_cpu_idle", set->cpu[i]);
		err = sink_metric(s, name, events, "count");
		snprintf(name, sizeof(name), "cpu%d.trace_usage_diff_pct", set->cpu[i]);
		err = err ?: emit_diff(s, name, events, entries);
	}
	if (err)
		return err;
	return sink_metric(s, "trace_cpu_idle", all_events, "count") ?:
	       emit_diff(s, "trace_usage_diff_pct", all_events, all_entries);
}

/*
 * Without cpuidle states: the power:cpu_idle entries are the idle entries.
 * Without a driver the kernel idles in default_idle (state 1, a HLT on x86)
 * or, booted with idle=poll, in cpu_idle_poll (state 0). The halting ones
 * are counted apart (FILTER_HALTS) where that instance opened, so a poll
 * that did not hold shows as halts; else they follow the boot flag.
 */
static int emit_trace_totals(const struct idle_state *st, const uint64_t *r,
			     struct sink *s, struct idle_totals *t)
{
	double events = 0, halts = 0;
	int i;

	for (i = 0; i < st->set.ncpus; i++) {
		events += (double)r[REC_HEAD + i];
		halts += (double)r[REC_HEAD + st->set.ncpus + i];
	}
	if (st->tr_halt.ok) {
		t->halt = halts;
		t->poll = events - halts;
		return sink_metric(s, "halt_entries", t->halt, "count") ?:
		       sink_metric(s, "poll_entries", t->poll, "count") ?:
		       sink_metric(s, IDLE_ENTRIES, events, "count");
	}
	if (st->boot_idle_poll)
		t->poll = events;
	else
		t->halt = events;
	return sink_metric(s, st->boot_idle_poll ? "poll_entries" : "halt_entries",
			   events, "count") ?:
	       sink_metric(s, IDLE_ENTRIES, events, "count");
}

/* Every row of one window's record; the totals are left in @t. */
static int emit_record(struct idle_state *st, const uint64_t *r, struct sink *s,
		       struct idle_totals *t)
{
	double secs = (double)r[1] / 1e9;
	int err;

	memset(t, 0, sizeof(*t));
	if (st->source == SRC_TRACE)
		err = emit_trace_totals(st, r, s, t);
	else
		err = emit_states(&st->set, r, s, t) ?: emit_totals(&st->set, s, t);
	if (!err && st->tr.ok)
		err = emit_trace(&st->set, r, s);
	if (!err && secs > 0)
		err = sink_metric(s, IDLE_ENTRIES_PER_S, (t->halt + t->poll) / secs,
				  "1/s");
	return err;
}

/*
 * Idle entries per second of the call's function time: the runner keeps a
 * call's times after its probes emitted, so call @k's is known only once
 * the next call started (all of them at the end of the cell).
 */
static int emit_fn_rate(const struct probe_target *t, size_t k,
			const struct idle_totals *tot, struct sink *s)
{
	if (k >= t->nresults || t->fn_ns[k] <= 0)
		return 0;
	return sink_metric(s, IDLE_ENTRIES_PER_FN_S,
			   (tot->halt + tot->poll) / (t->fn_ns[k] / 1e9), "1/s");
}

/* Write the kept invocation records through a copy of @s. */
static int flush_records(struct idle_state *st, const struct probe_target *t,
			 const struct sink *s)
{
	size_t len = rec_len(&st->set), i;
	struct idle_totals tot;
	struct sink inv = *s;
	int err = 0;

	for (i = 0; i < st->nrec && !err; i++) {
		inv.invocation_id = (int64_t)st->rec[i * len];
		err = emit_record(st, st->rec + i * len, &inv, &tot) ?:
		      emit_fn_rate(t, st->rec_base + i, &tot, &inv);
	}
	st->rec_base += st->nrec;
	st->nrec = 0;
	return err;
}

static int keep_record(struct idle_state *st, const struct probe_target *t,
		       const struct idle_window *x, struct sink *s)
{
	size_t len = rec_len(&st->set);

	if (st->nrec == st->caprec) {
		size_t cap = st->caprec ? 2 * st->caprec : 256;
		uint64_t *r = realloc(st->rec, cap * len * sizeof(*r));

		if (!r)
			return -ENOMEM;
		st->rec = r;
		st->caprec = cap;
	}
	rec_fill(st, x, s->invocation_id, st->rec + st->nrec * len);
	st->nrec++;
	return st->nrec >= FLUSH_AT ? flush_records(st, t, s) : 0;
}

/* Per cell: rates per second of function time and per invocation. */
static int emit_cell_rates(const struct probe_target *t, const struct idle_totals *tot,
			   struct sink *s)
{
	double fn_s = 0;
	size_t i;
	int err = 0;

	for (i = 0; i < t->nresults; i++)
		fn_s += t->fn_ns[i] > 0 ? t->fn_ns[i] / 1e9 : 0;
	if (fn_s > 0)
		err = sink_metric(s, IDLE_ENTRIES_PER_FN_S,
				  (tot->halt + tot->poll) / fn_s, "1/s");
	if (!err && t->nresults)
		err = sink_metric(s, IDLE_HALT_PER_INVOCATION,
				  tot->halt / (double)t->nresults, "count");
	return err;
}

static int emit_cell(struct probe *p, struct sink *s)
{
	struct idle_state *st = p->priv;
	uint64_t *r = malloc(rec_len(&st->set) * sizeof(*r));
	struct idle_totals tot;
	char why[256];
	int err;

	if (!r)
		return -ENOMEM;
	rec_fill(st, &st->win[0], 0, r);
	err = flush_records(st, p->target, s) ?: emit_record(st, r, s, &tot) ?:
	      emit_cell_rates(p->target, &tot, s);
	free(r);
	if (!err)
		err = sink_note(s, IDLE_NOTE_SOURCE, st->source_note);
	if (!err && !st->tr.ok) {
		snprintf(why, sizeof(why), "power:cpu_idle cross-check: %s", st->tr.why);
		sink_skip(s, why);
	}
	return err;
}

static int idle_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct idle_state *st = p->priv;
	int err;

	if (w == PROBE_WINDOW_CELL)
		err = emit_cell(p, s);
	else
		err = keep_record(st, p->target, &st->win[1], s);
	return err ? probe_error(p, err, "cannot store idle metrics") : 0;
}

const struct probe_ops probe_idle = {
	.version = PROBE_OPS_VERSION,
	.name = IDLE_PROBE,
	.measures = "idle entries and time per CPU and cpuidle state (sysfs usage/time), "
		    "power:cpu_idle count (tracefs instance) as a cross-check",
	.windows = PROBE_WINDOW_CELL | PROBE_WINDOW_INVOCATION,
	.side = PROBE_INSTANCE,
	.supported = idle_supported,
	.open = idle_open,
	.start = idle_start,
	.stop = idle_stop,
	.emit = idle_emit,
	.close = idle_close,
};
