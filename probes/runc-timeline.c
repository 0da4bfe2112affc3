// SPDX-License-Identifier: MIT
/*
 * runc-timeline.c - from trace events to the phases of each container
 * start (docs/probes/runc.md has the definitions):
 *
 *   A start is the process tree under one child of the harness, from the
 *   fork (t0) to the last exit in the tree (t_end). Up to the execve of
 *   the container program, instants are marked by the system calls that
 *   do the work - cgroup (the first cgroup mkdir to the last write that
 *   attached a task), namespaces / netns (each unshare, clone or setns
 *   that creates or joins them; netns when CLONE_NEWNET is among the
 *   flags), mounts (the container task's first to last mount call; other
 *   tasks' mount calls one by one), pivot-root, seccomp (compiling the
 *   filter - from the writing task's previous traced call, or another
 *   task's later one, to libseccomp's write of the compiled program - to
 *   the end of its successful install) - the
 *   highest-priority mark wins where they overlap, state (the runtime's
 *   writes of its state directory) last; unmarked time goes by the
 *   scheduler state of the start's tasks (runc-sched.c): init-start, init,
 *   runtime-exec, runtime-start, runtime, sched-wait, lock-wait, blocked,
 *   and other where nothing is known (the rule: runc-partition.c). Then exec,
 *   function-init (to the "ready" line), first-response (to the reply) and
 *   teardown (to t_end). Every instant is in exactly one phase, so the
 *   phases sum to t_end - t0.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "runc-timeline-local.h"
#include "runc-timeline.h"

#define NS_FLAGS RT_NS_FLAGS

#define PHASE_NAME(id, name) [id] = name,
static const char *const phase_names[RT_PHASE_COUNT] = { RUNC_PHASES(PHASE_NAME) };
#undef PHASE_NAME

const char *rt_phase_name(int phase)
{
	return phase >= 0 && phase < RT_PHASE_COUNT ? phase_names[phase] : "?";
}

long long rt_start_total(const struct rt_start *s)
{
	return s->t_end - s->t0;
}

static int task_add(struct builder *b, int tid, int start, const struct rt_task *parent,
		    long long ts)
{
	struct rt_task *t = rt_task_slot(b, tid);

	if (!t)
		return -ENOMEM;
	memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->start = start;
	t->nr = -1;
	rt_sched_fork(t, parent, ts);
	return 0;
}

static int start_new(struct builder *b, const struct rt_event *e)
{
	struct rt_result *r = b->res;
	struct rt_start *s;

	if (r->nstarts == b->cap) {
		size_t cap = b->cap ? 2 * b->cap : 8;
		void *p = realloc(r->starts, cap * sizeof(*r->starts));
		void *q = realloc(b->child_exec, cap * sizeof(*b->child_exec));

		if (p)
			r->starts = p;
		if (q)
			b->child_exec = q;
		if (!p || !q)
			return -ENOMEM;
		b->cap = cap;
	}
	s = &r->starts[r->nstarts];
	memset(s, 0, sizeof(*s));
	s->root = e->other;
	s->t0 = s->t_end = e->ts;
	b->child_exec[r->nstarts] = 0;
	return task_add(b, e->other, (int)r->nstarts++, NULL, e->ts);
}

/* A mark: container-like activity, so the start is kept. */
static int iv_add(struct rt_start *s, int phase, int tid, long long begin, long long end)
{
	s->marked = 1;
	return rt_iv_add(s, phase, tid, begin, end);
}

static void on_write(struct rt_start *s, const struct rt_task *t,
		     const struct rt_event *e)
{
	if (t->tid != s->container_tid || t->a0 != 1 || e->ret <= 0)
		return;
	if (++s->nwrites == 1)
		s->ready = e->ts;
	else if (s->nwrites == 2)
		s->done = e->ts;
}

/* Which phase a completed setup system call marks, or -1. */
static int syscall_phase(const struct rt_task *t, const struct rt_event *e)
{
	switch (t->nr) {
	case SYS_write:
		return t->cg ? RT_CGROUP : -1;
	case SYS_mkdir:
	case SYS_mkdirat:         /* else the runtime's state directory */
		return t->cg ? RT_CGROUP : t->init ? -1 : RT_STATE;
#ifdef SYS_rename
	case SYS_rename:
	case SYS_mknod:
#endif
	case SYS_renameat:
	case SYS_renameat2:       /* state.json, crun's status: written, renamed */
	case SYS_mknodat:         /* exec.fifo */
		return t->init ? -1 : RT_STATE;
	case SYS_unshare:
	case SYS_clone:
		if (!(t->a0 & NS_FLAGS))
			return -1;
		return t->a0 & CLONE_NEWNET ? RT_NETNS : RT_NAMESPACES;
	case SYS_setns:
		return RT_NAMESPACES;
	case SYS_pivot_root:
		return RT_PIVOT_ROOT;
	case SYS_seccomp:         /* installs, not libseccomp's probing calls */
		return t->a0 == 1 && e->ret == 0 ? RT_SECCOMP : -1;
	case SYS_prctl:
		return t->a0 == PR_SET_SECCOMP && e->ret == 0 ? RT_SECCOMP : -1;
	case SYS_mount:
	case SYS_umount2:
#ifdef SYS_open_tree
	case SYS_open_tree:
	case SYS_move_mount:
	case SYS_fsopen:
	case SYS_fsconfig:
	case SYS_fsmount:
#endif
		return RT_MOUNTS;
	default:
		return -1;
	}
}

/* A write of a compiled seccomp program: n struct sock_filter (8 bytes), n >= 32. */
#define FILTER_WRITE(ret) ((ret) >= 256 && (ret) % 8 == 0)

/* The latest end of a traced call by a task other than @tid. */
static long long other_task_end(const struct rt_start *s, int tid)
{
	return s->last_tid != tid ? s->last_ts : s->other_ts;
}

static void note_exit(struct rt_start *s, int tid, long long ts)
{
	if (tid != s->last_tid) {
		s->other_ts = s->last_ts;
		s->last_tid = tid;
	}
	s->last_ts = ts;
}

/*
 * Building a seccomp filter makes no system call: it ends with libseccomp
 * writing the compiled program (runc: to patch it; crun: to hand it to the
 * container) and starts after the writing task's previous traced call, or
 * after the last traced call of another task (a parent it waited for).
 */
static void note_filter_write(struct rt_start *s, const struct rt_task *t,
			      const struct rt_event *e, long long prev)
{
	long long other = other_task_end(s, t->tid);

	s->export_tid = t->tid;
	s->export_begin = prev > other ? prev : other;
	if (s->export_begin <= s->runtime_exec)
		s->export_begin = t->enter;
	s->export_end = e->ts;
}

/* The seccomp marks of an install on @t: compile (if seen) and install. */
static int seccomp_marks(struct rt_start *s, const struct rt_task *t, long long end)
{
	long long begin = t->enter;
	int ret = 0;

	if (s->export_end && s->export_end <= t->enter) {
		ret = iv_add(s, RT_SECCOMP, s->export_tid, s->export_begin, s->export_end);
		if (s->export_tid == t->tid)
			begin = s->export_end;
		s->export_end = 0;
	}
	return ret ?: iv_add(s, RT_SECCOMP, t->tid, begin, end);
}

static int is_rename(long nr)
{
#ifdef SYS_rename
	if (nr == SYS_rename)
		return 1;
#endif
	return nr == SYS_renameat || nr == SYS_renameat2;
}

/*
 * A state file is written to a new file (openat with O_CREAT: only those
 * are traced), then renamed over the old: the state mark of a rename
 * starts at that open when the task made no other traced call between
 * them but writes.
 */
static long long state_begin(struct rt_task *t, const struct rt_event *e)
{
	long long begin = t->enter;

	if (t->nr == SYS_openat) {
		t->creat_enter = e->ret >= 0 ? t->enter : 0;
		return 0;
	}
	if (is_rename(t->nr) && t->creat_enter)
		begin = t->creat_enter;
	if (t->nr != SYS_write)
		t->creat_enter = 0;
	return begin;
}

static int on_syscall_exit(struct rt_start *s, struct rt_task *t,
			   const struct rt_event *e)
{
	long long prev = t->last_exit, begin;
	long nr = t->nr;
	int phase;

	if (nr != e->nr)
		return 0;
	begin = state_begin(t, e);
	if (nr == SYS_write)
		on_write(s, t, e);
	phase = s->exec_done ? -1 : syscall_phase(t, e);
	if (nr == SYS_write && !s->exec_done && FILTER_WRITE(e->ret))
		note_filter_write(s, t, e, prev);
	t->nr = -1;
	t->last_exit = e->ts;
	note_exit(s, t->tid, e->ts);
	if (phase < 0)
		return 0;
	if (nr == SYS_unshare || nr == SYS_clone)
		s->ns_flags |= t->a0 & NS_FLAGS;
	if (phase == RT_SECCOMP)
		return seccomp_marks(s, t, e->ts);
	if (phase == RT_STATE)    /* not container-like: helpers write state too */
		return rt_iv_add(s, phase, t->tid, begin, e->ts);
	return iv_add(s, phase, t->tid, t->enter, e->ts);
}

static void on_exec(struct builder *b, struct rt_start *s, struct rt_task *t,
		    const struct rt_event *e)
{
	long long *child = &b->child_exec[t->start];

	if (e->nr == RT_EXEC_CONTAINER && !s->exec_done) {
		s->exec_done = e->ts;
		s->exec_enter = t->nr == SYS_execve || t->nr == SYS_execveat ? t->enter : e->ts;
		s->container_tid = t->tid;
		s->marked = 1;
		t->init = 1;
		return;
	}
	if (t->tid == s->root) {  /* the runtime; again: crun re-exec'ing its memfd copy */
		if (!s->runtime_exec)
			s->runtime_exec = e->ts;
		return;
	}
	t->init = 1;              /* runc init */
	if (!*child)
		*child = e->ts;
}

static int lock_end(struct rt_start *s, struct rt_task *t, const struct rt_event *e)
{
	long long d = e->ts - t->lock_ts;
	int i;

	if (!t->lock_ts)
		return 0;
	t->lock_ts = 0;
	s->blocked_ns += d;
	if (d > 0 && rt_iv_add(s, RT_K_LOCK, t->tid, e->ts - d, e->ts))
		return -ENOMEM;
	for (i = 0; i < s->nlocks; i++)
		if (s->locks[i].addr == t->lock_addr)
			break;
	if (i == s->nlocks && s->nlocks < RT_MAX_LOCKS)
		s->locks[s->nlocks++] = (struct rt_lock){ t->lock_addr, t->lock_flags, 0, 0 };
	else if (i == s->nlocks)
		i = RT_MAX_LOCKS - 1;
	s->locks[i].count++;
	s->locks[i].blocked_ns += d;
	return 0;
}

static int on_event(struct builder *b, const struct rt_event *e)
{
	struct rt_task *t;
	struct rt_start *s;

	if (e->type == RT_FORK && e->tid == b->harness)
		return start_new(b, e);
	if (e->type == RT_SWITCH || e->type == RT_WAKEUP)
		return rt_sched_event(b, e);
	t = rt_task_find(b, e->tid);
	if (!t)
		return 0;
	s = &b->res->starts[t->start];
	s->nevents++;
	if (e->ts > s->t_end)
		s->t_end = e->ts;
	switch (e->type) {
	case RT_FORK:
		return task_add(b, e->other, t->start, t, e->ts);
	case RT_EXEC:
		on_exec(b, s, t, e);
		return 0;
	case RT_SYS_ENTER:
		if (s->runtime_exec && !s->first_call)
			s->first_call = e->ts;
		t->nr = e->nr;
		t->enter = e->ts;
		t->a0 = e->arg0;
		t->cg = 0;
		return 0;
	case RT_SYS_EXIT:
		return on_syscall_exit(s, t, e);
	case RT_CG_MKDIR:
	case RT_CG_ATTACH:
		t->cg = s->runtime_exec != 0;
		return 0;
	case RT_LOCK_BEGIN:
		if (!t->lock_ts) {
			t->lock_ts = e->ts;
			t->lock_addr = e->arg0;
			t->lock_flags = (unsigned int)e->arg1;
		}
		return 0;
	case RT_LOCK_END:
		return lock_end(s, t, e);
	default:
		return 0;
	}
}

/*
 * Merge the marks of @phase into one span: first begin to last end; with
 * @tid > 0 only the marks of that task (the others stay single marks).
 */
static void spanify(struct rt_start *s, int phase, int tid)
{
	long long lo = 0, hi = 0;
	size_t i, j = 0;

	for (i = 0; i < s->niv; i++) {
		if (s->iv[i].phase != phase || (tid > 0 && s->iv[i].tid != tid)) {
			s->iv[j++] = s->iv[i];
			continue;
		}
		if (!lo || s->iv[i].begin < lo)
			lo = s->iv[i].begin;
		if (s->iv[i].end > hi)
			hi = s->iv[i].end;
	}
	s->niv = j;
	if (lo)
		s->iv[s->niv++] = (struct rt_iv){ phase, 0, lo, hi };
}

/* exec, function-init, first-response, teardown: milestone to milestone. */
static void chain(struct rt_start *s, long long from)
{
	const long long m[] = { s->exec_done, s->ready, s->done };
	const int ph[] = { RT_EXEC_PHASE, RT_FUNCTION_INIT, RT_FIRST_RESPONSE };
	size_t i;

	for (i = 0; i < 3 && m[i] >= from && m[i] > 0; i++) {
		rt_phase_add(s, ph[i], from, m[i]);
		from = m[i];
	}
	rt_phase_add(s, i == 3 ? RT_TEARDOWN : RT_OTHER, from, s->t_end);
}

/* The first instant of a mark of a task of the container's init, or @end. */
static long long init_first_mark(struct builder *b, const struct rt_start *s,
				 long long end)
{
	const struct rt_task *t;
	size_t i;

	for (i = 0; i < s->niv; i++) {
		if (s->iv[i].phase >= RT_PHASE_COUNT || s->iv[i].begin >= end)
			continue;
		t = rt_task_find(b, s->iv[i].tid);
		if (t && t->init)
			end = s->iv[i].begin;
	}
	return end;
}

static int phases(struct builder *b, struct rt_start *s, long long child_exec)
{
	long long setup_end = s->exec_enter > 0 ? s->exec_enter : s->t_end;
	long long runtime_end = setup_end;
	struct rt_bounds bd;
	size_t i;
	int p;

	for (p = 0; p < RT_PHASE_COUNT; p++)
		s->phase_first[p] = -1;
	bd.init_mark = init_first_mark(b, s, setup_end);
	spanify(s, RT_CGROUP, 0);
	spanify(s, RT_MOUNTS, s->container_tid);
	for (i = 0; i < s->niv; i++)
		if (s->iv[i].phase < RT_PHASE_COUNT && s->iv[i].begin < runtime_end)
			runtime_end = s->iv[i].begin;
	if (child_exec && child_exec < runtime_end)
		runtime_end = child_exec;
	bd.runtime_end = runtime_end;
	bd.runtime_exec_end = s->first_call && s->first_call < runtime_end ?
			      s->first_call : runtime_end;
	rt_sched_classes(b, s);
	if (rt_partition(s, setup_end, &bd))
		return -ENOMEM;
	if (s->exec_enter > 0)
		chain(s, setup_end);
	return 0;
}

static int cmp_event(const void *a, const void *b)
{
	const struct rt_event *x = a, *y = b;

	return x->ts < y->ts ? -1 : x->ts > y->ts;
}

/* Keep only the starts of containers (not helpers such as `runc delete`). */
static void keep_containers(struct builder *b)
{
	struct rt_result *r = b->res;
	size_t i, j = 0;

	for (i = 0; i < r->nstarts; i++) {
		if (!r->starts[i].marked) {
			free(r->starts[i].iv);
			continue;
		}
		b->child_exec[j] = b->child_exec[i];
		r->starts[j++] = r->starts[i];
	}
	r->nstarts = j;
}

int rt_build(struct rt_event *ev, size_t n, int harness_pid, struct rt_result *out)
{
	struct builder b = { .res = out, .harness = harness_pid };
	size_t i;
	int ret = 0;

	memset(out, 0, sizeof(*out));
	b.tasks = calloc(RT_TASK_SLOTS, sizeof(*b.tasks));
	if (!b.tasks)
		return -ENOMEM;
	qsort(ev, n, sizeof(*ev), cmp_event);
	for (i = 0; i < n && !ret; i++)
		ret = on_event(&b, &ev[i]);
	ret = ret ?: rt_sched_close(&b);
	keep_containers(&b);
	for (i = 0; i < out->nstarts && !ret; i++)
		ret = phases(&b, &out->starts[i], b.child_exec[i]);
	free(b.child_exec);
	free(b.tasks);
	if (ret)
		rt_result_free(out);
	return ret;
}

void rt_result_free(struct rt_result *r)
{
	size_t i;

	for (i = 0; i < r->nstarts; i++)
		free(r->starts[i].iv);
	free(r->starts);
	memset(r, 0, sizeof(*r));
}
