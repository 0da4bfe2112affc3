// SPDX-License-Identifier: MIT
/*
 * pmu.c - hardware performance counters around every call and the cell:
 * the events of key pmu-events (any name libpfm4 knows), by default
 * cycles, instructions, cache-references, cache-misses, branch-misses and
 * dTLB-load-misses, opened with perf_event_open(2) as one group per
 * instance thread (inherit: threads they start later count too), or one
 * group per CPU where there are no instance threads to follow (cold mode,
 * inside a guest: every task on the CPUs). Read at window boundaries and
 * scaled by time_enabled / time_running; the share of the window an event
 * was on a counter is stored next to it (S.E.running, 1 = not multiplexed).
 *
 * Where none of the default hardware events can be opened (no hardware
 * PMU: most guests), the kernel's software events are counted instead
 * (task-clock, context-switches, cpu-migrations, page-faults, minor and
 * major faults). Every metric names its source (hardware.cycles,
 * software.task-clock); an event that cannot be counted is a skip row
 * naming it and the reason, never a zero. Derived per window:
 * instructions_per_cycle and mpki.E (E per 1000 instructions, for the
 * hardware events named *miss*).
 *
 * Side: instance: the counters of the machine the functions run on.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <linux/perf_event.h>

#include "pmu-counters.h"
#include "pmu-metrics.h"
#include "probe.h"
#include "proc-tasks.h"
#include "proc-tree.h"
#include "sink.h"

struct pmu_state {
	struct pmu_counters c;
	char given_up[PMU_MAX_EVENTS][200];   /* default hardware events, before the fallback */
	int ngiven_up;
	char scope[160];
	struct pmu_read *a[3], *b[3];         /* by window: [PROBE_WINDOW_*] */
};

/*
 * The kernel lets this process open a counter: a task-clock counter of its
 * own, as the probe opens them (kernel included). Refused by
 * perf_event_paranoid (not root) or a seccomp filter (containers): a skip
 * with the errno, not rows of zeros.
 */
static int pmu_supported(char *why, size_t len)
{
	struct perf_event_attr a = { .type = PERF_TYPE_SOFTWARE, .size = sizeof(a),
				     .config = PERF_COUNT_SW_TASK_CLOCK, .disabled = 1,
				     .exclude_hv = 1 };
	int fd;

	if (access("/proc/sys/kernel/perf_event_paranoid", F_OK)) {
		snprintf(why, len, "kernel without perf events (no "
			 "/proc/sys/kernel/perf_event_paranoid)");
		return 0;
	}
	fd = (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, PERF_FLAG_FD_CLOEXEC);
	if (fd >= 0) {
		close(fd);
		return 1;
	}
	snprintf(why, len, "perf_event_open(task-clock) refused: %s (perf_event_paranoid "
		 "or a seccomp filter)", strerror(errno));
	return 0;
}

/* Resolve the names of @list (comma separated) or @defaults into @c. */
static void load_events(struct pmu_counters *c, const char *list,
			const char *const *defaults, size_t ndefaults)
{
	char buf[512], *name, *save = NULL;
	size_t i;

	c->nev = 0;
	memset(c->state, 0, sizeof(c->state));
	snprintf(buf, sizeof(buf), "%s", list ? list : "");
	name = strtok_r(buf, ", ", &save);
	for (i = 0; c->nev < PMU_MAX_EVENTS; i++) {
		const char *n = list && *list ? name : i < ndefaults ? defaults[i] : NULL;

		if (!n)
			break;
		if (pmu_event_resolve(n, &c->ev[c->nev], c->why[c->nev], sizeof(c->why[0]))) {
			snprintf(c->ev[c->nev].name, sizeof(c->ev[0].name), "%.90s", n);
			c->state[c->nev] = -1;
		}
		c->nev++;
		if (list && *list)
			name = strtok_r(NULL, ", ", &save);
	}
}

/*
 * The threads of the instances and of every process below them: a
 * container runtime's instance is the runtime, its function a child.
 */
static int instance_tasks(const struct probe_target *t, pid_t **tids, size_t *n)
{
	pid_t *procs;
	size_t nprocs;
	int ret = proc_tree(t->pids, (size_t)t->npids, &procs, &nprocs);

	if (!ret)
		ret = proc_tasks(procs, nprocs, NULL, tids, n);
	free(procs);
	return ret;
}

/* The groups' targets: the instances' threads, else every CPU. */
static int open_scope(struct pmu_state *st, const struct probe_target *t)
{
	pid_t *tids = NULL;
	size_t n = 0;
	int ret, cold = t->cell && !strcmp(t->cell->mode, "cold");

	st->c.cpu_scope = cold || t->npids <= 0 || instance_tasks(t, &tids, &n) || !n;
	if (st->c.cpu_scope) {
		free(tids);
		n = (size_t)sysconf(_SC_NPROCESSORS_CONF);
		snprintf(st->scope, sizeof(st->scope), "per CPU: %zu CPUs, every task on "
			 "them (%s)", n, cold ? "cold mode" : "no instance threads here");
		return pmu_counters_open(&st->c, NULL, (int)n);
	}
	snprintf(st->scope, sizeof(st->scope), "per thread: %zu threads of %d instance "
		 "process(es) and their descendants, and threads they start (inherit)", n,
		 t->npids);
	ret = pmu_counters_open(&st->c, tids, (int)n);
	free(tids);
	return ret;
}

/* No default hardware event could be opened: count software events. */
static int fall_back(struct pmu_state *st, const struct probe_target *t)
{
	int i;

	for (i = 0; i < st->c.nev; i++)
		snprintf(st->given_up[i], sizeof(st->given_up[0]), "%s", st->c.why[i]);
	st->ngiven_up = st->c.nev;
	pmu_counters_close(&st->c);
	load_events(&st->c, NULL, pmu_default_sw, pmu_default_sw_count);
	return open_scope(st, t);
}

static void pmu_close(struct probe *p)
{
	struct pmu_state *st = p->priv;
	int i;

	if (!st)
		return;
	pmu_counters_close(&st->c);
	for (i = 0; i < 3; i++) {
		free(st->a[i]);
		free(st->b[i]);
	}
	free(st);
	p->priv = NULL;
}

static int alloc_snaps(struct pmu_state *st)
{
	size_t n = pmu_counters_snap_size(&st->c);
	int i;

	for (i = 1; i < 3; i++) {
		st->a[i] = calloc(n, sizeof(struct pmu_read));
		st->b[i] = calloc(n, sizeof(struct pmu_read));
		if (!st->a[i] || !st->b[i])
			return -ENOMEM;
	}
	return 0;
}

static int pmu_open(struct probe *p)
{
	const struct probe_target *t = p->target;
	const char *list = t->cell && strcmp(t->cell->pmu_events, "default") ?
			   t->cell->pmu_events : "";
	struct pmu_state *st = calloc(1, sizeof(*st));
	int counted, i;

	if (!st)
		return probe_error(p, -ENOMEM, "out of memory");
	p->priv = st;
	load_events(&st->c, list, pmu_default_hw, pmu_default_hw_count);
	counted = open_scope(st, t);
	if (counted == 0 && !*list)
		counted = fall_back(st, t);
	if (counted < 0)
		return probe_error(p, counted, "cannot open counters: %s", strerror(-counted));
	for (i = 0; !counted && i < st->c.nev; i++)
		if (st->c.state[i] < 0)
			return probe_error(p, -ENOTSUP, "no event can be counted: %s",
					   st->c.why[i]);
	return alloc_snaps(st) ? probe_error(p, -ENOMEM, "out of memory") : 0;
}

static int pmu_start(struct probe *p, enum probe_window w)
{
	struct pmu_state *st = p->priv;

	pmu_counters_read(&st->c, st->a[w]);
	return 0;
}

static int pmu_stop(struct probe *p, enum probe_window w)
{
	struct pmu_state *st = p->priv;

	pmu_counters_read(&st->c, st->b[w]);
	return 0;
}

/* The window's instructions and cycles (hardware, generic), < 0: not counted. */
struct pmu_base {
	double instructions, cycles;
};

static void note_base(const struct pmu_event *e, double v, struct pmu_base *base)
{
	if (e->attr.type != PERF_TYPE_HARDWARE)
		return;
	if (e->attr.config == PERF_COUNT_HW_INSTRUCTIONS)
		base->instructions = v;
	else if (e->attr.config == PERF_COUNT_HW_CPU_CYCLES)
		base->cycles = v;
}

static int emit_event(struct pmu_state *st, int i, enum probe_window w, struct sink *s,
		      struct pmu_base *base)
{
	const struct pmu_event *e = &st->c.ev[i];
	struct pmu_total t;
	char name[160], why[300];
	int err;

	pmu_counters_delta(&st->c, st->a[w], st->b[w], i, &t);
	if (t.enabled && !t.running) {
		snprintf(why, sizeof(why), "%s: on no counter during this window (its group "
			 "was multiplexed out: more events than counters?)", e->name);
		return sink_skip(s, why);
	}
	snprintf(name, sizeof(name), "%s.%s", pmu_event_source(e), e->name);
	err = sink_metric(s, name, t.value, pmu_event_unit(e));
	if (!err && t.enabled) {
		snprintf(name, sizeof(name), "%s.%s%s", pmu_event_source(e), e->name,
			 PMU_RUNNING);
		err = sink_metric(s, name, (double)t.running / (double)t.enabled, "fraction");
	}
	note_base(e, t.value, base);
	return err;
}

static int emit_derived(struct pmu_state *st, enum probe_window w, struct sink *s,
			const struct pmu_base *b)
{
	struct pmu_total t;
	char name[160];
	int i, err = 0;

	if (b->instructions > 0 && b->cycles > 0)
		err = sink_metric(s, PMU_IPC, b->instructions / b->cycles, "ratio");
	for (i = 0; i < st->c.nev && !err && b->instructions > 0; i++) {
		const struct pmu_event *e = &st->c.ev[i];

		if (st->c.state[i] != 1 || e->attr.type == PERF_TYPE_SOFTWARE ||
		    !strcasestr(e->name, "miss"))
			continue;
		pmu_counters_delta(&st->c, st->a[w], st->b[w], i, &t);
		if (t.enabled && !t.running)
			continue;     /* its skip row is there */
		snprintf(name, sizeof(name), "%s%s", PMU_MPKI_PREFIX, e->name);
		err = sink_metric(s, name, t.value * 1000.0 / b->instructions,
				  "per 1000 instructions");
	}
	return err;
}

/* Once per cell: what was not counted and why, and how the rest was. */
static int emit_cell_notes(struct pmu_state *st, struct sink *s)
{
	char events[1024] = "";
	size_t o = 0;
	int i, err = 0;

	for (i = 0; i < st->ngiven_up && !err; i++)
		err = sink_skip(s, st->given_up[i]);
	for (i = 0; i < st->c.nev && !err; i++) {
		if (st->c.state[i] != 1) {
			err = sink_skip(s, st->c.why[i]);
			continue;
		}
		o += (size_t)snprintf(events + o, o < sizeof(events) ? sizeof(events) - o : 0,
				      "%s%s = %s", o ? "; " : "", st->c.ev[i].name,
				      st->c.ev[i].canon);
	}
	err = err ?: sink_note(s, PMU_NOTE_SCOPE, st->scope) ?:
	      sink_note(s, PMU_NOTE_EVENTS, events) ?:
	      sink_note(s, PMU_NOTE_RESOLVER, pmu_event_resolver());
	if (!err && st->ngiven_up)
		err = sink_note(s, PMU_NOTE_FALLBACK, "no default hardware event could be "
				"opened: kernel software events counted instead");
	return err;
}

static int pmu_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct pmu_state *st = p->priv;
	struct pmu_base base = { -1, -1 };
	int i, err = w == PROBE_WINDOW_CELL ? emit_cell_notes(st, s) : 0;

	for (i = 0; i < st->c.nev && !err; i++)
		if (st->c.state[i] == 1)
			err = emit_event(st, i, w, s, &base);
	err = err ?: emit_derived(st, w, s, &base);
	return err ? probe_error(p, err, "cannot store pmu metrics") : 0;
}

const struct probe_ops probe_pmu = {
	.version = PROBE_OPS_VERSION,
	.name = PMU_PROBE,
	.measures = "performance counters per call and cell (perf_event_open, events "
		    "named with libpfm4; kernel software events where there is no PMU)",
	.windows = PROBE_WINDOW_CELL | PROBE_WINDOW_INVOCATION,
	.side = PROBE_INSTANCE,
	.supported = pmu_supported,
	.open = pmu_open,
	.start = pmu_start,
	.stop = pmu_stop,
	.emit = pmu_emit,
	.close = pmu_close,
};
