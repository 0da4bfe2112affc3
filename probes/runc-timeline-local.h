/* SPDX-License-Identifier: MIT */
/*
 * runc-timeline-local.h - what the files of the timeline share
 * (runc-timeline.c: events to marks; runc-sched.c: scheduler states of
 * each task; runc-partition.c: the instants of a start to its phases;
 * runc-builder.c: the task table and the intervals they write).
 * Not for the probe: it sees runc-timeline.h only.
 */
#ifndef CVMBENCH_RUNC_TIMELINE_LOCAL_H
#define CVMBENCH_RUNC_TIMELINE_LOCAL_H

#include <sched.h>

#include "runc-timeline-data.h"

#define RT_TASK_SLOTS 16384
#define RT_NS_FLAGS (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | \
		     CLONE_NEWPID | CLONE_NEWNET | CLONE_NEWCGROUP)

/*
 * Kinds of rt_iv beyond the phases: a task's scheduler state from
 * sched_switch / sched_wakeup (RT_K_RUN is resolved to RT_K_RUN_INIT or
 * RT_K_RUN_RUNTIME by the task's class before the partition), and time
 * between lock:contention_begin and _end.
 */
enum {
	RT_K_RUN = RT_PHASE_COUNT,  /* on a CPU */
	RT_K_RUN_RUNTIME,           /* ... a task of the runtime */
	RT_K_RUN_INIT,              /* ... a task of the container's init */
	RT_K_READY,                 /* runnable, not on a CPU */
	RT_K_LOCK,                  /* waiting for a kernel lock */
	RT_K_SLEEP,                 /* switched out asleep, not woken yet */
	RT_K_COUNT
};

struct rt_task {
	int tid;                  /* 0: free slot */
	int start;
	int parent;               /* the task that forked it */
	int init;                 /* of the container's init (see runc-sched.c) */
	long nr;                  /* pending system call, -1 none */
	long long enter;
	unsigned long long a0;
	int cg;                   /* the pending call touched a cgroup */
	long long last_exit;      /* end of its previous traced system call */
	long long creat_enter;    /* its O_CREAT open not followed by another call yet */
	long long lock_ts;
	unsigned long long lock_addr;
	unsigned int lock_flags;
	int st;                   /* scheduler state: RT_K_RUN, _READY, _SLEEP or -1 */
	long long st_ts;          /* ... since */
};

struct builder {
	struct rt_task *tasks;
	struct rt_result *res;
	size_t cap;
	int harness;
	long long *child_exec;    /* per start: first exec of a non-root task */
};

/* runc-builder.c */
struct rt_task *rt_task_find(struct builder *b, int tid);
struct rt_task *rt_task_slot(struct builder *b, int tid);
int rt_iv_add(struct rt_start *s, int phase, int tid, long long begin, long long end);

/* runc-sched.c */
int rt_sched_event(struct builder *b, const struct rt_event *e);
void rt_sched_fork(struct rt_task *child, const struct rt_task *parent, long long ts);
int rt_sched_close(struct builder *b);
void rt_sched_classes(struct builder *b, struct rt_start *s);

/* Where the runtime's and init's on-CPU phases change (runc-partition.c). */
struct rt_bounds {
	long long runtime_exec_end;  /* runtime-exec until, then runtime-start */
	long long runtime_end;       /* runtime-start until, then runtime */
	long long init_mark;         /* init-start until, then init */
};

/* runc-partition.c */
void rt_phase_add(struct rt_start *s, int phase, long long from, long long to);
int rt_partition(struct rt_start *s, long long end, const struct rt_bounds *bd);

#endif
