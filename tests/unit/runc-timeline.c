// SPDX-License-Identifier: MIT
/*
 * tests/unit/runc-timeline.c - probes/runc-timeline.c on a synthetic
 * runc-like start (times in ns, worked out by hand in the comments): each
 * phase's length, phases summing to the total, lock time, namespace flags,
 * a helper child without container activity and events of pid 0 (idle,
 * interrupts) left out. TAP output.
 *
 * The scheduler events make every rule of runc-partition.c decide at least
 * one stretch, against the next rule that also applies there:
 *   mark over init on a CPU      5000..6000 (netns while 300 runs)
 *   state mark over runtime      3520..3580, 2500..2600
 *   runtime-exec, runtime-start  1200..2100 (to the first traced call), ..2500
 *   init over runtime on a CPU   4200..4300 (both run)
 *   runtime over runnable        4000..4100 (300 forked, not yet run)
 *   runnable over lock           6200..6250 (300 woken, lock not yet taken)
 *   lock over asleep             6100..6200 (200 asleep too)
 *   asleep                       3600..3800, 8600..8800
 * and crun's re-exec of its own memfd copy (2200) is still the runtime.
 */
#include <sched.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "runc-timeline.h"
#include "tap.h"

#define E(ts, type, tid, other, nr, a0, ret) \
	{ ts, type, tid, other, nr, (unsigned long long)(a0), 0, ret }

static struct rt_event ev[] = {
	E(500, RT_LOCK_BEGIN, 0, 0, 0, 0xdef, 0),         /* idle context: ignored */
	E(1000, RT_FORK, 100, 200, 0, 0, 0),               /* t0: harness forks runc */
	E(1200, RT_SWITCH, 100, 200, 0, 1, 0),             /* 200 runnable 1000..1200 */
	E(2000, RT_EXEC, 200, 0, RT_EXEC_OTHER, 0, 0),     /* runc's exec */
	E(2100, RT_SYS_ENTER, 200, 0, SYS_seccomp, 0, 0),  /* a probe: first traced call */
	E(2110, RT_SYS_EXIT, 200, 0, SYS_seccomp, 0, -22), /* runtime-exec 1200..2100 */
	E(2200, RT_EXEC, 200, 0, RT_EXEC_OTHER, 0, 0),     /* crun: its memfd copy */
	E(2500, RT_SYS_ENTER, 200, 0, SYS_mkdirat, -100, 0), /* state dir: 2500..2600 */
	E(2600, RT_SYS_EXIT, 200, 0, SYS_mkdirat, 0, 0),   /* runtime-start 2100..2500 */
	E(3000, RT_SYS_ENTER, 200, 0, SYS_mkdirat, -100, 0), /* cgroup: 3000 .. 3500 */
	E(3100, RT_CG_MKDIR, 200, 0, 0, 0, 0),
	E(3200, RT_SYS_EXIT, 200, 0, SYS_mkdirat, 0, 0),
	E(3300, RT_SYS_ENTER, 200, 0, SYS_write, 5, 0),
	E(3400, RT_CG_ATTACH, 200, 0, 0, 0, 0),
	E(3500, RT_SYS_EXIT, 200, 0, SYS_write, 0, 4),
	E(3520, RT_SYS_ENTER, 200, 0, SYS_openat, -100, 0), /* state.json: 3520 .. 3580 */
	E(3530, RT_SYS_EXIT, 200, 0, SYS_openat, 0, 7),
	E(3540, RT_SYS_ENTER, 200, 0, SYS_write, 7, 0),
	E(3545, RT_SYS_EXIT, 200, 0, SYS_write, 0, 100),
	E(3560, RT_SYS_ENTER, 200, 0, SYS_renameat2, -100, 0),
	E(3580, RT_SYS_EXIT, 200, 0, SYS_renameat2, 0, 0),
	E(3600, RT_SWITCH, 200, 0, 0, 1, 0),               /* 200 asleep (S) */
	E(3800, RT_WAKEUP, 0, 200, 0, 0, 0),               /* ... runnable */
	E(3900, RT_SWITCH, 0, 200, 0, 0, 0),               /* ... on a CPU */
	E(4000, RT_FORK, 200, 300, 0, 0, 0),               /* runc init */
	E(4100, RT_SWITCH, 200, 300, 0, 0x100, 0),         /* 200 preempted (R+) */
	E(4200, RT_SWITCH, 0, 200, 0, 0, 0),               /* 200 on the other CPU */
	E(4300, RT_SWITCH, 200, 0, 0, 1, 0),
	E(4500, RT_EXEC, 300, 0, RT_EXEC_OTHER, 0, 0),
	E(5000, RT_SYS_ENTER, 300, 0, SYS_unshare, CLONE_NEWNET | CLONE_NEWNS, 0),
	E(5100, RT_LOCK_BEGIN, 300, 0, 0, 0xabc, 0),       /* 200 ns blocked */
	E(5300, RT_LOCK_END, 300, 0, 0, 0xabc, 0),
	E(5400, RT_LOCK_END, 0, 0, 0, 0xdef, 0),
	E(6000, RT_SYS_EXIT, 300, 0, SYS_unshare, 0, 0),   /* netns: 5000 .. 6000 */
	E(6100, RT_LOCK_BEGIN, 300, 0, 0, 0xabc, 0),       /* 150 ns blocked */
	E(6100, RT_SWITCH, 300, 0, 0, 2, 0),               /* 300 asleep (D) */
	E(6200, RT_WAKEUP, 0, 300, 0, 0, 0),
	E(6250, RT_SWITCH, 0, 300, 0, 0, 0),
	E(6250, RT_LOCK_END, 300, 0, 0, 0xabc, 0),
	E(6300, RT_SYS_ENTER, 300, 0, SYS_mkdirat, -100, 0), /* init's: not state */
	E(6400, RT_SYS_EXIT, 300, 0, SYS_mkdirat, 0, 0),
	E(6500, RT_SYS_ENTER, 300, 0, SYS_mount, 0, 0),    /* mounts: 6500 .. 7300 */
	E(6600, RT_SYS_EXIT, 300, 0, SYS_mount, 0, 0),
	E(7000, RT_SYS_ENTER, 300, 0, SYS_pivot_root, 0, 0), /* pivot-root: 100 */
	E(7100, RT_SYS_EXIT, 300, 0, SYS_pivot_root, 0, 0),
	E(7200, RT_SYS_ENTER, 300, 0, SYS_mount, 0, 0),
	E(7300, RT_SYS_EXIT, 300, 0, SYS_mount, 0, 0),
	E(7400, RT_SYS_ENTER, 300, 0, SYS_write, 4, 0),    /* a sync write */
	E(7500, RT_SYS_EXIT, 300, 0, SYS_write, 0, 1),
	E(7520, RT_WAKEUP, 300, 200, 0, 0, 0),
	E(7540, RT_SWITCH, 0, 200, 0, 0, 0),
	E(7550, RT_SYS_ENTER, 200, 0, SYS_write, 6, 0),    /* the parent releases it */
	E(7560, RT_SYS_EXIT, 200, 0, SYS_write, 0, 26),
	E(7570, RT_SWITCH, 200, 0, 0, 1, 0),
	E(7600, RT_SYS_ENTER, 300, 0, SYS_write, 9, 0),    /* compiled filter: 906 insns */
	E(7700, RT_SYS_EXIT, 300, 0, SYS_write, 0, 7248),
	E(8000, RT_SYS_ENTER, 300, 0, SYS_prctl, PR_SET_SECCOMP, 0), /* seccomp: 7560 .. 8500 */
	E(8500, RT_SYS_EXIT, 300, 0, SYS_prctl, 0, 0),
	E(8600, RT_SWITCH, 300, 0, 0, 1, 0),               /* waits for the start */
	E(8800, RT_WAKEUP, 200, 300, 0, 0, 0),
	E(8850, RT_SWITCH, 0, 300, 0, 0, 0),
	E(9000, RT_SYS_ENTER, 300, 0, SYS_execve, 0, 0),   /* exec: 9000 .. 9500 */
	E(9500, RT_EXEC, 300, 0, RT_EXEC_CONTAINER, 0, 0),
	E(9600, RT_SYS_EXIT, 300, 0, SYS_execve, 0, 0),
	E(10000, RT_SYS_ENTER, 300, 0, SYS_write, 1, 0),   /* ready at 10100 */
	E(10100, RT_SYS_EXIT, 300, 0, SYS_write, 0, 40),
	E(11000, RT_SYS_ENTER, 300, 0, SYS_write, 1, 0),   /* reply at 11200 */
	E(11200, RT_SYS_EXIT, 300, 0, SYS_write, 0, 60),
	E(12000, RT_EXIT, 300, 0, 0, 0, 0),
	E(13000, RT_EXIT, 200, 0, 0, 0, 0),                /* t_end */
	E(14000, RT_FORK, 100, 400, 0, 0, 0),              /* a helper: left out */
	E(14100, RT_EXEC, 400, 0, RT_EXEC_OTHER, 0, 0),
	E(15000, RT_EXIT, 400, 0, 0, 0, 0),
};

static const long long want[RT_PHASE_COUNT] = {
	[RT_RUNTIME_EXEC] = 900, [RT_RUNTIME_START] = 400, [RT_CGROUP] = 500, [RT_NAMESPACES] = 0,
	[RT_NETNS] = 1000, [RT_MOUNTS] = 700, [RT_PIVOT_ROOT] = 100,
	[RT_SECCOMP] = 940, [RT_EXEC_PHASE] = 500, [RT_FUNCTION_INIT] = 600,
	[RT_FIRST_RESPONSE] = 1100, [RT_TEARDOWN] = 1800,
	[RT_OTHER] = 0,
	/* 2600..3000, 3500..3520, 3580..3600, 3900..4100 */
	[RT_RUNTIME] = 400 + 20 + 20 + 200,
	[RT_INIT_START] = 900,    /* 4100..5000: before init's first mark */
	/* 6000..6100, 6250..6500, 7300..7560, 8500..8600, 8850..9000 */
	[RT_INIT] = 100 + 250 + 260 + 100 + 150,
	[RT_STATE] = 100 + 60,
	/* 1000..1200, 3800..3900, 6200..6250, 8800..8850 */
	[RT_SCHED_WAIT] = 200 + 100 + 50 + 50,
	[RT_LOCK_WAIT] = 100,
	[RT_BLOCKED] = 200 + 200,
};

int main(void)
{
	struct rt_result r;
	long long sum = 0;
	int i, ret;

	tap_plan(RT_PHASE_COUNT + 6);
	ret = rt_build(ev, sizeof(ev) / sizeof(ev[0]), 100, &r);
	tap_ok(!ret && r.nstarts == 1, "one container start (the helper child left out)");
	if (ret || !r.nstarts)
		return 1;
	for (i = 0; i < RT_PHASE_COUNT; i++) {
		tap_ok(r.starts[0].phase_ns[i] == want[i], "%s: %lld ns (want %lld)",
		       rt_phase_name(i), r.starts[0].phase_ns[i], want[i]);
		sum += r.starts[0].phase_ns[i];
	}
	tap_ok(rt_start_total(&r.starts[0]) == 12000, "total is fork to last exit");
	tap_ok(sum == rt_start_total(&r.starts[0]), "phases sum to the total");
	tap_ok(r.starts[0].done - r.starts[0].t0 == 10200, "cold start is fork to reply");
	tap_ok(r.starts[0].blocked_ns == 350 && r.starts[0].nlocks == 1 &&
	       r.starts[0].locks[0].count == 2, "350 ns blocked on one lock, twice");
	tap_ok(r.starts[0].ns_flags == (CLONE_NEWNET | CLONE_NEWNS), "namespaces created: net, mnt");
	rt_result_free(&r);
	return tap_failed ? 1 : 0;
}
