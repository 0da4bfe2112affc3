/* SPDX-License-Identifier: MIT */
/*
 * runc-timeline-data.h - the data of the runc timeline: the trace events
 * it reads (struct rt_event, from probes/runc.c or a test) and the
 * container starts it builds from them (struct rt_start: its intervals,
 * the locks its tasks waited for, its phases): the types that every file
 * of the timeline and the probe share, with no function of theirs.
 */
#ifndef CVMBENCH_RUNC_TIMELINE_DATA_H
#define CVMBENCH_RUNC_TIMELINE_DATA_H

#include <stddef.h>

#include "runc-metrics.h"

enum rt_type {
	RT_FORK,          /* tid forked other (task or thread) */
	RT_EXEC,          /* tid exec'd; nr = RT_EXEC_* */
	RT_EXIT,          /* tid exited */
	RT_SYS_ENTER,     /* nr, arg0, arg1 */
	RT_SYS_EXIT,      /* nr, ret */
	RT_CG_MKDIR,      /* a cgroup directory was made by tid's syscall */
	RT_CG_ATTACH,     /* a task was moved into a cgroup by tid's syscall */
	RT_LOCK_BEGIN,    /* arg0 lock address, arg1 flags */
	RT_LOCK_END,      /* arg0 lock address */
	RT_SWITCH,        /* tid switched out (arg0 prev_state), other switched in */
	RT_WAKEUP,        /* other was woken (sched_wakeup, sched_wakeup_new) */
};

enum { RT_EXEC_OTHER, RT_EXEC_CONTAINER };

struct rt_event {
	long long ts;             /* ns, CLOCK_MONOTONIC */
	int type;
	int tid;
	int other;                /* RT_FORK: the child */
	long nr;
	unsigned long long arg0, arg1;
	long long ret;
};

#define RT_PHASE_ID(id, name) id,
enum rt_phase { RUNC_PHASES(RT_PHASE_ID) RT_PHASE_COUNT };
#undef RT_PHASE_ID

#define RT_MAX_LOCKS 16

struct rt_lock {
	unsigned long long addr;
	unsigned int flags;
	long count;
	long long blocked_ns;
};

/* An interval of a start: a phase's mark, or a task's scheduler state (RT_K_*). */
struct rt_iv {
	int phase;
	int tid;
	long long begin, end;
};

struct rt_start {
	int root;                 /* the task the harness forked */
	long long t0, t_end;      /* the fork; the last exit or event */
	long long runtime_exec;   /* the root's exec */
	long long first_call;     /* entry of the first traced call after it */
	long long exec_enter, exec_done; /* the container program's execve */
	int container_tid;
	long long ready, done;    /* ends of its first two writes to fd 1 */
	int nwrites;
	int marked;               /* container-like activity seen */
	unsigned long long ns_flags; /* CLONE_NEW* flags it created */
	int last_tid;             /* the task of the latest traced call's end */
	long long last_ts, other_ts; /* that end; the latest end by another task */
	int export_tid;           /* the latest write of a compiled filter */
	long long export_begin, export_end;
	long nevents;
	struct rt_iv *iv;
	size_t niv, cap;
	struct rt_lock locks[RT_MAX_LOCKS];
	int nlocks;
	long long blocked_ns;
	long long phase_ns[RT_PHASE_COUNT];
	long long phase_first[RT_PHASE_COUNT]; /* first instant, -1 if absent */
};

struct rt_result {
	struct rt_start *starts;
	size_t nstarts;
};

#endif
