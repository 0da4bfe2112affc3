// SPDX-License-Identifier: MIT
/*
 * runc.c - the `runc` probe: the phases of every container start (runc or
 * crun) of a cold invocation, at trace-clock resolution (ns, CLOCK_MONOTONIC),
 * and the time each start's tasks were blocked on kernel locks.
 *
 * Where the numbers come from: a tracefs instance of its own, with
 * set_event_pid = cvmbench and options/event-fork, so that exactly the
 * process trees cvmbench forks are followed; the syscalls events of the
 * calls that mark phases (write, mkdir, clone, unshare, setns, mount,
 * pivot_root, seccomp, prctl, execve, the state directory's openat with
 * O_CREAT, rename and mknod ...), sched_process_fork/exec/exit,
 * sched_switch/sched_wakeup(_new) (when each task ran, waited for a CPU or
 * slept), cgroup_mkdir/cgroup_attach_task and lock:contention_begin/end. The instance is on only during each
 * invocation window; the events are read after it (trace_pipe_raw) and
 * turned into phases by runc-timeline.c. Lock addresses are named from
 * /proc/kallsyms when they are static kernel objects (e.g.
 * cgroup_threadgroup_rwsem), else by their kind.
 *
 * Side: host: the runtime is a child of cvmbench, traced on cvmbench's machine.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "probe.h"
#include "sink.h"

#ifdef HAVE_TRACEFS
#include <event-parse.h>
#include <sys/syscall.h>
#include <tracefs.h>

#include "journal.h"
#include "log.h"
#include "tracefs-host.h"
#include "runc-sink.h"
#include "runc-timeline.h"
#include "tracefs-find.h"

#define BUFFER_KB 8192
#define MAX_SLOTS 64

enum { EV_FORK, EV_EXEC, EV_EXITP, EV_MKDIR, EV_ATTACH, EV_LBEGIN, EV_LEND, EV_SWITCH,
       EV_WAKEUP, EV_WAKEUP_NEW, EV_COUNT };

static const struct {
	const char *sys, *name, *f1, *f2;
	int type;
	int optional;
} events[EV_COUNT] = {
	[EV_FORK] = { "sched", "sched_process_fork", "child_pid", NULL, RT_FORK, 0 },
	[EV_EXEC] = { "sched", "sched_process_exec", NULL, NULL, RT_EXEC, 0 },
	[EV_EXITP] = { "sched", "sched_process_exit", NULL, NULL, RT_EXIT, 0 },
	[EV_MKDIR] = { "cgroup", "cgroup_mkdir", NULL, NULL, RT_CG_MKDIR, 1 },
	[EV_ATTACH] = { "cgroup", "cgroup_attach_task", NULL, NULL, RT_CG_ATTACH, 1 },
	[EV_LBEGIN] = { "lock", "contention_begin", "lock_addr", "flags", RT_LOCK_BEGIN, 1 },
	[EV_LEND] = { "lock", "contention_end", "lock_addr", NULL, RT_LOCK_END, 1 },
	[EV_SWITCH] = { "sched", "sched_switch", "next_pid", "prev_state", RT_SWITCH, 0 },
	[EV_WAKEUP] = { "sched", "sched_wakeup", "pid", NULL, RT_WAKEUP, 0 },
	[EV_WAKEUP_NEW] = { "sched", "sched_wakeup_new", "pid", NULL, RT_WAKEUP, 0 },
};

/*
 * The system calls that mark phases (runc-timeline.c's syscall_phase()),
 * traced with their own syscalls:sys_enter_NAME / sys_exit_NAME events:
 * every other system call of the traced tasks stops at the kernel's
 * bitmap of enabled calls, before anything is written to the buffer.
 */
static const struct {
	const char *name;
	long nr;
} marked_calls[] = {
	{ "write", SYS_write }, { "mkdir", SYS_mkdir }, { "mkdirat", SYS_mkdirat },
	{ "clone", SYS_clone }, { "unshare", SYS_unshare }, { "setns", SYS_setns },
	{ "mount", SYS_mount }, { "umount", SYS_umount2 },
	{ "pivot_root", SYS_pivot_root }, { "seccomp", SYS_seccomp },
	{ "prctl", SYS_prctl }, { "execve", SYS_execve }, { "execveat", SYS_execveat },
	{ "openat", SYS_openat }, { "renameat", SYS_renameat },
	{ "renameat2", SYS_renameat2 }, { "mknodat", SYS_mknodat },
#ifdef SYS_rename
	{ "rename", SYS_rename }, { "mknod", SYS_mknod },
#endif
#ifdef SYS_open_tree
	{ "open_tree", SYS_open_tree }, { "move_mount", SYS_move_mount },
	{ "fsopen", SYS_fsopen }, { "fsconfig", SYS_fsconfig }, { "fsmount", SYS_fsmount },
#endif
};

/* An enabled event: its id, what it becomes, where its values are. */
struct ev_slot {
	int id;
	int type;                 /* RT_* */
	int ev;                   /* EV_* for the non-syscall events, else -1 */
	long nr;                  /* system call number */
	struct tep_format_field *f1, *f2;
};

struct runc_priv {
	struct tracefs_instance *inst;
	struct tep_handle *tep;
	long journal_id;
	struct ev_slot slot[MAX_SLOTS];
	int nslots;
	struct rt_event *ev;
	size_t nev, cap;
	struct rt_result res;
	int harness;
	long long overrun;        /* events the ring buffer dropped, so far */
	long long lost;           /* ... in the last window */
};

/* Finds tracefs without mounting it: `cvmbench list` must change nothing. */
static int runc_supported(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (tracefs instance, event pid filter)");
		return 0;
	}
	return tracefs_usable(why, len);
}

static struct ev_slot *slot_add(struct runc_priv *p, struct tep_event *e, int type,
				int ev, long nr)
{
	struct ev_slot *sl;

	if (p->nslots == MAX_SLOTS)
		return NULL;
	sl = &p->slot[p->nslots++];
	*sl = (struct ev_slot){ e->id, type, ev, nr, NULL, NULL };
	return sl;
}

/* syscalls:sys_enter_NAME (first two arguments) and sys_exit_NAME (ret). */
static int syscall_enable(struct runc_priv *p, const char *name, long nr)
{
	char ev[80];
	struct tep_event *e;
	struct tep_format_field *f;
	struct ev_slot *sl;

	snprintf(ev, sizeof(ev), "sys_enter_%s", name);
	e = tep_find_event_by_name(p->tep, "syscalls", ev);
	if (!e || tracefs_event_enable(p->inst, "syscalls", ev) ||
	    !(sl = slot_add(p, e, RT_SYS_ENTER, -1, nr)))
		return -ENOENT;
	f = tep_find_field(e, "__syscall_nr");
	sl->f1 = f ? f->next : NULL;
	sl->f2 = sl->f1 ? sl->f1->next : NULL;
	/* only filter installs matter (runc init drops capabilities by prctl) */
	if (nr == SYS_prctl || nr == SYS_seccomp)
		tracefs_event_file_write(p->inst, "syscalls", ev, "filter",
					 nr == SYS_prctl ? "option == 22" : "op == 1");
	/* only files created: state files (O_CREAT, 0100) */
	if (nr == SYS_openat)
		tracefs_event_file_write(p->inst, "syscalls", ev, "filter", "flags & 64");
	snprintf(ev, sizeof(ev), "sys_exit_%s", name);
	e = tep_find_event_by_name(p->tep, "syscalls", ev);
	if (!e || tracefs_event_enable(p->inst, "syscalls", ev) ||
	    !(sl = slot_add(p, e, RT_SYS_EXIT, -1, nr)))
		return -ENOENT;
	sl->f1 = tep_find_field(e, "ret");
	return 0;
}

/* Find each event in the tep handle and enable it in the instance. */
static int events_enable(struct probe *pr, struct runc_priv *p)
{
	struct tep_event *e;
	struct ev_slot *sl;
	size_t i;

	for (i = 0; i < EV_COUNT; i++) {
		e = tep_find_event_by_name(p->tep, events[i].sys, events[i].name);
		if (!e && events[i].optional)
			continue;
		if (!e || tracefs_event_enable(p->inst, events[i].sys, events[i].name) ||
		    !(sl = slot_add(p, e, events[i].type, (int)i, 0)))
			return probe_error(pr, -ENOENT, "trace event %s:%s is missing",
					   events[i].sys, events[i].name);
		sl->f1 = events[i].f1 ? tep_find_field(e, events[i].f1) : NULL;
		sl->f2 = events[i].f2 ? tep_find_field(e, events[i].f2) : NULL;
	}
	for (i = 0; i < sizeof(marked_calls) / sizeof(marked_calls[0]); i++)
		if (syscall_enable(p, marked_calls[i].name, marked_calls[i].nr) &&
		    marked_calls[i].nr != SYS_execveat && marked_calls[i].nr < 400)
			return probe_error(pr, -ENOENT, "trace events syscalls:sys_*_%s "
					   "are missing", marked_calls[i].name);
	return 0;
}

static int instance_setup(struct probe *pr, struct runc_priv *p)
{
	char name[64], dir[PATH_MAX + 80], top[PATH_MAX], why[512], pid[32];

	snprintf(name, sizeof(name), "cvmbench-runc-%d", (int)getpid());
	if (tracefs_host_dir(top, sizeof(top), why, sizeof(why)))
		return probe_error(pr, -ENOENT, "%s", why);
	snprintf(dir, sizeof(dir), "%s/instances/%s", top, name);
	p->journal_id = journal_object("tracefs-instance", dir);
	if (p->journal_id < 0)
		return probe_error(pr, (int)p->journal_id, "cannot journal tracefs instance "
				   "%s (so it is not created): %s", name,
				   strerror((int)-p->journal_id));
	p->inst = tracefs_instance_create(name);
	if (!p->inst)
		return probe_error(pr, -EIO, "cannot create tracefs instance %s", name);
	tracefs_trace_off(p->inst);
	snprintf(pid, sizeof(pid), "%d", p->harness);
	if (tracefs_instance_set_buffer_size(p->inst, BUFFER_KB, -1) ||
	    tracefs_instance_file_write(p->inst, "trace_clock", "mono") < 0 ||
	    tracefs_instance_file_write(p->inst, "set_event_pid", pid) < 0 ||
	    tracefs_option_enable(p->inst, TRACEFS_OPTION_EVENT_FORK))
		return probe_error(pr, -EIO, "cannot configure tracefs instance %s", name);
	return 0;
}

static void runc_close(struct probe *pr)
{
	struct runc_priv *p = pr->priv;

	if (!p)
		return;
	if (p->inst) {
		tracefs_trace_off(p->inst);
		tracefs_instance_destroy(p->inst);
		tracefs_instance_free(p->inst);
	}
	if (p->journal_id > 0 && journal_forget(p->journal_id))
		pr_warn("journal %s: cannot close the entry of a tracefs instance",
			journal_path());
	if (p->tep)
		tep_free(p->tep);
	rt_result_free(&p->res);
	free(p->ev);
	free(p);
	pr->priv = NULL;
}

static int runc_open(struct probe *pr)
{
	static const char *const systems[] = { "syscalls", "sched", "cgroup", "lock",
					       NULL };
	struct runc_priv *p = calloc(1, sizeof(*p));
	char why[256], dir[PATH_MAX];
	int ret;

	if (!p)
		return -ENOMEM;
	pr->priv = p;
	p->harness = (int)getpid();
	/* mounted (journalled) before libtracefs, which would mount it unrecorded */
	ret = tracefs_host_dir(dir, sizeof(dir), why, sizeof(why));
	if (ret < 0) {
		ret = probe_error(pr, ret, "%s", why);
		goto err;
	}
	p->tep = tracefs_local_events_system(NULL, systems);
	if (!p->tep) {
		ret = probe_error(pr, -EIO, "cannot read the trace event formats");
		goto err;
	}
	ret = instance_setup(pr, p);
	ret = ret ?: events_enable(pr, p);
	if (!ret)
		return 0;
err:
	runc_close(pr);
	return ret;
}

static unsigned long long field_val(struct tep_format_field *f, struct tep_record *rec)
{
	unsigned long long v = 0;

	if (f)
		tep_read_number_field(f, rec->data, &v);
	return v;
}

static int exec_kind(struct runc_priv *p, struct tep_event *event, struct tep_record *rec)
{
	struct trace_seq s;
	const char *name, *base;
	int len = 0, kind = RT_EXEC_OTHER;

	trace_seq_init(&s);
	name = tep_get_field_raw(&s, event, "filename", rec, &len, 0);
	if (name && len > 0) {
		base = memrchr(name, '/', (size_t)len);
		base = base ? base + 1 : name;
		if (strnlen(base, (size_t)(len - (base - name))) == 5 &&
		    !memcmp(base, "cvmfn", 5))
			kind = RT_EXEC_CONTAINER;
	}
	trace_seq_destroy(&s);
	(void)p;
	return kind;
}

static void fill_event(struct runc_priv *p, const struct ev_slot *sl,
		       struct tep_event *event, struct tep_record *rec, struct rt_event *e)
{
	e->nr = sl->nr;
	switch (sl->type) {
	case RT_SYS_ENTER:
		e->arg0 = field_val(sl->f1, rec);
		e->arg1 = field_val(sl->f2, rec);
		break;
	case RT_SYS_EXIT:
		e->ret = (long long)field_val(sl->f1, rec);
		break;
	case RT_FORK:
	case RT_WAKEUP:
		e->other = (int)field_val(sl->f1, rec);
		break;
	case RT_SWITCH:
		e->other = (int)field_val(sl->f1, rec);
		e->arg0 = field_val(sl->f2, rec);
		break;
	case RT_EXEC:
		e->nr = exec_kind(p, event, rec);
		break;
	case RT_LOCK_BEGIN:
	case RT_LOCK_END:
		e->arg0 = field_val(sl->f1, rec);
		e->arg1 = field_val(sl->f2, rec);
		break;
	}
}

static int on_record(struct tep_event *event, struct tep_record *rec, int cpu, void *ctx)
{
	struct runc_priv *p = ctx;
	struct rt_event *e;
	int i;

	(void)cpu;
	for (i = 0; i < p->nslots && p->slot[i].id != event->id; i++)
		;
	if (i == p->nslots)
		return 0;
	if (p->nev == p->cap) {
		size_t cap = p->cap ? 2 * p->cap : 4096;
		void *n = realloc(p->ev, cap * sizeof(*p->ev));

		if (!n)
			return -1;
		p->ev = n;
		p->cap = cap;
	}
	e = &p->ev[p->nev++];
	memset(e, 0, sizeof(*e));
	e->ts = (long long)rec->ts;
	e->type = p->slot[i].type;
	e->tid = tep_data_pid(p->tep, rec);
	fill_event(p, &p->slot[i], event, rec, e);
	return 0;
}

static int runc_start(struct probe *pr, enum probe_window w)
{
	struct runc_priv *p = pr->priv;

	if (w != PROBE_WINDOW_INVOCATION)
		return 0;
	p->nev = 0;
	rt_result_free(&p->res);
	return tracefs_trace_on(p->inst) ? probe_error(pr, -EIO, "tracing_on failed") : 0;
}

static int runc_stop(struct probe *pr, enum probe_window w)
{
	struct runc_priv *p = pr->priv;

	if (w != PROBE_WINDOW_INVOCATION)
		return 0;
	tracefs_trace_off(p->inst);
	if (tracefs_iterate_raw_events(p->tep, p->inst, NULL, 0, on_record, p) < 0)
		return probe_error(pr, -EIO, "cannot read the trace buffer");
	p->lost = tracefs_host_overruns(p->inst) - p->overrun;
	p->overrun += p->lost;
	if (rt_build(p->ev, p->nev, p->harness, &p->res))
		return probe_error(pr, -ENOMEM, "out of memory building the timeline");
	return 0;
}

struct ksym {
	unsigned long long addr;
	char name[56];
};

static struct ksym *ksyms;
static size_t nksyms;

static int cmp_ksym(const void *a, const void *b)
{
	const struct ksym *x = a, *y = b;

	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* Static data symbols of the kernel (locks that are not in a heap object). */
static void ksyms_load(void)
{
	static int loaded;
	char line[256], type;
	struct ksym k, *n;
	size_t cap = 0;
	FILE *f;

	if (loaded++ || !(f = fopen("/proc/kallsyms", "re")))
		return;
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%llx %c %55s", &k.addr, &type, k.name) != 3 || !k.addr ||
		    !strchr("dDbB", type) || strchr(line, '['))
			continue;
		if (nksyms == cap) {
			cap = cap ? 2 * cap : 16384;
			n = realloc(ksyms, cap * sizeof(*n));
			if (!n)
				break;
			ksyms = n;
		}
		ksyms[nksyms++] = k;
	}
	fclose(f);
	qsort(ksyms, nksyms, sizeof(*ksyms), cmp_ksym);
}

static void lock_describe(const struct rt_lock *l, char *name, size_t nlen,
			  char *flags, size_t flen)
{
	static const char *const bits[] = { "SPIN", "READ", "WRITE", "RT", "PERCPU",
					    "MUTEX" };
	struct ksym key = { .addr = l->addr }, *k;
	size_t i, used = 0;

	flags[0] = '\0';
	for (i = 0; i < 6; i++)
		if (l->flags & (1u << i))
			used += (size_t)snprintf(flags + used, flen - used, "%s%s",
						 used ? "|" : "", bits[i]);
	ksyms_load();
	k = nksyms ? bsearch(&key, ksyms, nksyms, sizeof(*ksyms), cmp_ksym) : NULL;
	if (k)
		snprintf(name, nlen, "%s", k->name);
	else
		snprintf(name, nlen, "%s", l->flags & 16 ? "percpu-rwsem" :
			 l->flags & 32 ? "mutex" : l->flags & 8 ? "rt-mutex" :
			 l->flags & 1 ? "spinlock" : "rwsem");
}

static void ns_names(unsigned long long f, char *buf, size_t len)
{
	static const struct { unsigned long long flag; const char *name; } ns[] = {
		{ 0x00020000, "mnt" }, { 0x04000000, "uts" }, { 0x08000000, "ipc" },
		{ 0x10000000, "user" }, { 0x20000000, "pid" }, { 0x40000000, "net" },
		{ 0x02000000, "cgroup" },
	};
	size_t i, used = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(ns) / sizeof(ns[0]); i++)
		if (f & ns[i].flag)
			used += (size_t)snprintf(buf + used, len - used, "%s%s",
						 used ? "," : "", ns[i].name);
}

static int emit_start(struct probe *pr, struct sink *s, int idx, const struct rt_start *st)
{
	char nsbuf[64], name[64], flags[64];
	struct runc_start_row row = {
		.start_idx = idx, .runtime = pr->target->cell->backend, .root_pid = st->root,
		.total_ns = rt_start_total(st), .blocked_ns = st->blocked_ns,
		.cold_start_ns = st->done ? st->done - st->t0 : -1,
		.events = st->nevents, .namespaces = nsbuf,
	};
	struct runc_phase_row ph;
	struct runc_lock_row lk = { .lock = name, .flags = flags };
	int64_t id;
	int i, ret = 0;

	ns_names(st->ns_flags, nsbuf, sizeof(nsbuf));
	id = sink_row(s, &runc_start_table, &row);
	if (id < 0)
		return (int)id;
	for (i = 0; i < RT_PHASE_COUNT && !ret; i++) {
		if (st->phase_first[i] < 0)
			continue;
		ph = (struct runc_phase_row){ id, rt_phase_name(i), i,
					      st->phase_first[i] - st->t0, st->phase_ns[i] };
		ret = sink_row(s, &runc_phase_table, &ph) < 0 ? -EIO : 0;
	}
	for (i = 0; i < st->nlocks && !ret; i++) {
		lock_describe(&st->locks[i], name, sizeof(name), flags, sizeof(flags));
		lk.start_id = id;
		lk.count = st->locks[i].count;
		lk.blocked_ns = st->locks[i].blocked_ns;
		ret = sink_row(s, &runc_lock_table, &lk) < 0 ? -EIO : 0;
	}
	return ret;
}

/* The window's rows are one transaction: the runner commits them if this succeeds. */
static int runc_emit(struct probe *pr, enum probe_window w, struct sink *s)
{
	struct runc_priv *p = pr->priv;
	size_t i;
	int ret;

	if (w != PROBE_WINDOW_INVOCATION)
		return 0;
	ret = sink_metric(s, "starts", (double)p->res.nstarts, "count");
	ret = ret ?: sink_metric(s, "events", (double)p->nev, "count");
	ret = ret ?: sink_metric(s, "events_lost", (double)p->lost, "count");
	for (i = 0; i < p->res.nstarts && !ret; i++)
		ret = emit_start(pr, s, (int)i, &p->res.starts[i]);
	return ret ? probe_error(pr, ret, "cannot write the runc tables") : 0;
}

const struct probe_ops probe_runc = {
	.version = PROBE_OPS_VERSION,
	.name = "runc",
	.measures = "phases of each runc/crun container start (runtime-start, cgroup, "
		    "namespaces, netns, mounts, pivot-root, seccomp, exec, function-init, "
		    "first-response, teardown, other, runtime, init-start, init, state, "
		    "sched-wait, lock-wait, blocked, runtime-exec) and lock-blocked time, "
		    "from tracefs",
	.windows = PROBE_WINDOW_INVOCATION,
	.side = PROBE_HOST,
	.supported = runc_supported,
	.open = runc_open,
	.start = runc_start,
	.stop = runc_stop,
	.emit = runc_emit,
	.close = runc_close,
};

#else /* !HAVE_TRACEFS */

static int runc_unsupported(char *why, size_t len)
{
	snprintf(why, len, "unsupported: built without libtracefs");
	return 0;
}

const struct probe_ops probe_runc = {
	.version = PROBE_OPS_VERSION,
	.name = "runc",
	.measures = "phases of each runc/crun container start, from tracefs",
	.windows = PROBE_WINDOW_INVOCATION,
	.side = PROBE_HOST,
	.supported = runc_unsupported,
};

#endif
