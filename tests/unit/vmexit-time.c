// SPDX-License-Identifier: MIT
/*
 * tests/unit/vmexit-time.c - the vmexit probe's `vmexit-time = on` path
 * (probes/vmexit-time.c, its use in probes/vmexit.c). Everywhere: raw
 * kvm_exit/kvm_entry records built at the offsets of the captured 6.18
 * format files are fed through vx_time_feed() between window marks, as
 * the stream feeds them, and each window's time per reason, per set of
 * reasons (a class) and of every reason must equal the sums the test
 * computed by hand: a cell window holding two invocation windows, a pair
 * straddling a boundary (it belongs to the window of its entry), a window
 * whose buffer dropped events or held an unreadable record (no time, the
 * reason; never a partial sum), a window without a pair. A long window:
 * a generated stream of more bytes than the ring buffer holds a CPU
 * (VX_TIME_RING_KB, all a window could hold before the reader thread and
 * its queue), queued as the reader queues it, pairs exactly (counts and
 * summed times per reason equal what was generated); beyond the queue's
 * cap the window has no time and the reason names the cap, the next
 * window is measured again; the cap is a quarter of MemAvailable, at most
 * 1 GiB. A time path that failed for good frees its queue and queues no
 * record after (its reader thread is stopped), and keeps its reason. Where root,
 * /dev/kvm and tracefs are there: the probe with vmexit-time = on over
 * the micro-VM (lib/kvm-toy.c) in a child process; where kvm_exit
 * never fires (a PVM host) every kvm_exit row's time is NULL and the cell
 * says why, where it fires the total row has a time; either way the
 * probe's tracefs instance is gone after close.
 */
#include <dirent.h>
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell.h"
#include "journal.h"
#include "kvm-toy.h"
#include "probe.h"
#include "sink.h"
#include "tap.h"
#include "test-journal.h"
#include "tp-format.h"
#include "tracefs-find.h"
#include "tracefs-host.h"
#include "vmexit-metrics.h"
#include "vmexit-sink.h"
#include "vmexit-time.h"

#define FIX "tests/fixtures/kvm/"
#define SVM 2
#define HLT 0x78
#define IO 0x7b
#define MSR 0x7c

static struct tp_format fx, fe;

/* Record of @f (kvm_exit with @reason under svm, or kvm_entry) of @pid into @buf (72 bytes). */
static void rec_make(unsigned char *buf, const struct tp_format *f, int pid, uint32_t reason)
{
	unsigned int off, size;
	uint16_t type = (uint16_t)tp_format_id(f);
	uint32_t v = reason, isa = SVM;

	memset(buf, 0x5a, 72);
	if (!tp_format_field(f, "common_type", &off, &size))
		memcpy(buf + off, &type, 2);
	if (!tp_format_field(f, "common_pid", &off, &size))
		memcpy(buf + off, &pid, 4);
	if (!tp_format_field(f, "exit_reason", &off, &size))
		memcpy(buf + off, &v, 4);
	if (!tp_format_field(f, "isa", &off, &size))
		memcpy(buf + off, &isa, 4);
}

/* Feed a record of @f (kvm_exit with @reason under svm, or kvm_entry) of @pid at @ts. */
static int rec(struct vx_time *t, const struct tp_format *f, int pid, uint32_t reason,
	       uint64_t ts)
{
	unsigned char buf[72];

	rec_make(buf, f, pid, reason);
	return vx_time_feed(t, buf, 72, ts);
}

static int xit(struct vx_time *t, int pid, uint32_t reason, uint64_t ts)
{
	return rec(t, &fx, pid, reason, ts);
}

static int ent(struct vx_time *t, int pid, uint64_t ts)
{
	return rec(t, &fe, pid, 0, ts);
}

static long long win(const struct vx_time *t, int w, const unsigned long long *codes,
		     size_t n, uint64_t *pairs, char *why)
{
	return vx_time_window(t, w, SVM, codes, n, pairs, why, 256);
}

/*
 * Cell window [0 ...]: invocation 1 holds thread 7 hlt 100..600 (500) and
 * thread 8 io 150..170 (20), msr 200..230 (30); thread 7 exits hlt at 900
 * and enters only at 1400, after invocation 1 closed and invocation 2
 * opened: 500 ns in invocation 2. Invocation 2 also thread 8 io 1500..1540.
 */
static void window_checks(void)
{
	const unsigned long long hlt[] = { HLT }, io[] = { IO }, io_msr[] = { IO, MSR };
	struct vx_time t;
	uint64_t pairs;
	char why[256] = "";
	int ret;

	memset(&t, 0, sizeof(t));
	ret = exit_pair_fields_load(&t.fl, &fx, &fe, why, sizeof(why));
	ret = ret ?: vx_time_mark(&t, 0, 0) ?: vx_time_mark(&t, 1, 0) ?:
	      xit(&t, 7, HLT, 100) ?: xit(&t, 8, IO, 150) ?: ent(&t, 8, 170) ?:
	      xit(&t, 8, MSR, 200) ?: ent(&t, 8, 230) ?: ent(&t, 7, 600) ?:
	      xit(&t, 7, HLT, 900) ?: vx_time_mark(&t, 1, 1);
	tap_ok(!ret && win(&t, 1, hlt, 1, &pairs, why) == 500 && pairs == 1 &&
	       win(&t, 1, io, 1, &pairs, why) == 20 && win(&t, 1, io_msr, 2, &pairs, why) == 50 &&
	       pairs == 2 && win(&t, 1, NULL, 0, &pairs, why) == 550 && pairs == 3,
	       "invocation 1: hlt 500 ns, io 20, io+msr (a class) 50 over 2 pairs, all 550");
	ret = vx_time_mark(&t, 1, 0) ?: ent(&t, 7, 1400) ?: xit(&t, 8, IO, 1500) ?:
	      ent(&t, 8, 1540) ?: vx_time_mark(&t, 1, 1) ?: vx_time_mark(&t, 0, 1);
	tap_ok(!ret && win(&t, 1, hlt, 1, &pairs, why) == 500 &&
	       win(&t, 1, io, 1, &pairs, why) == 40 && win(&t, 1, NULL, 0, &pairs, why) == 540,
	       "invocation 2: the hlt pair straddling its start counted at its entry (500), io 40");
	tap_ok(!ret && win(&t, 0, hlt, 1, &pairs, why) == 1000 && pairs == 2 &&
	       win(&t, 0, io, 1, &pairs, why) == 60 && win(&t, 0, NULL, 0, &pairs, why) == 1090,
	       "the cell window: hlt 1000 ns in 2 pairs, io 60, all 1090");
	tap_ok(win(&t, 1, (const unsigned long long[]){ MSR }, 1, &pairs, why) == -1 &&
	       strstr(why, "no kvm_exit -> kvm_entry pair"),
	       "a reason without a pair in the window: no time, the reason (%s)", why);
	ret = vx_time_mark(&t, 1, 0) ?: xit(&t, 8, IO, 2000) ?: ent(&t, 8, 2010);
	t.lost += 3;              /* the fake source's buffer dropped 3 records */
	ret = ret ?: vx_time_mark(&t, 1, 1);
	tap_ok(!ret && win(&t, 1, io, 1, &pairs, why) == -1 && strstr(why, "dropped 3 events"),
	       "a window whose buffer dropped events: no time (not 10 ns), the reason (%s)", why);
	ret = vx_time_mark(&t, 1, 0) ?: xit(&t, 8, IO, 3000) ?: ent(&t, 8, 3010) ?:
	      vx_time_feed(&t, "\x01", 1, 3020) ?: vx_time_mark(&t, 1, 1);
	tap_ok(!ret && win(&t, 1, io, 1, &pairs, why) == -1 && strstr(why, "1 records were "
	       "unreadable"), "a window with an unreadable record: no time (%s)", why);
	tap_ok(t.events == 15, "records streamed counted: %llu of 15",
	       (unsigned long long)t.events);
	vx_time_close(&t);
}

/* Expected totals of a generated stream, per reason. */
struct gen {
	uint64_t n[2], ns[2];     /* [hlt, io] */
	uint64_t dropped;
};

/*
 * @npairs exit -> entry pairs of threads 7 and 8 interleaved from @ts0,
 * queued (vx_time_queue(), the reader thread's path): reason and handling
 * time of pair i from i, summed into @g as generated; returns the next ts.
 */
static uint64_t gen_stream(struct vx_time *t, size_t npairs, uint64_t ts0, struct gen *g)
{
	static unsigned char x[2][72], e[2][72];
	uint64_t ts = ts0, d;
	size_t i;
	int k, hlt;

	for (k = 0; k < 2; k++) {
		rec_make(x[k], &fx, 7 + k, k ? IO : HLT);
		rec_make(e[k], &fe, 7 + k, 0);
	}
	for (i = 0; i < npairs; i++) {
		k = (int)(i & 1);
		hlt = !k;
		d = 10 + (i * 7919) % 1000;   /* ns, varied */
		g->dropped += !!vx_time_queue(t, x[k], 72, ts);
		g->dropped += !!vx_time_queue(t, e[k], 72, ts + d);
		g->n[!hlt]++;
		g->ns[!hlt] += d;
		ts += d + 5;
	}
	return ts;
}

static void long_window_checks(void)
{
	const unsigned long long hlt[] = { HLT }, io[] = { IO };
	const size_t npairs = 120000;     /* 240 000 records of 72 bytes: ~21 MB queued */
	struct vx_time t;
	struct gen g;
	uint64_t ph, pi, ts;
	size_t queued;
	char why[256] = "";
	long long th, ti;
	int ret;

	memset(&t, 0, sizeof(t));
	memset(&g, 0, sizeof(g));
	ret = exit_pair_fields_load(&t.fl, &fx, &fe, why, sizeof(why)) ?: vx_time_mark(&t, 1, 0);
	ts = gen_stream(&t, npairs, 1000, &g);
	queued = t.q.len;
	ret = ret ?: vx_time_mark(&t, 1, 1);
	th = win(&t, 1, hlt, 1, &ph, why);
	ti = win(&t, 1, io, 1, &pi, why);
	tap_ok(!ret && !g.dropped && queued > (size_t)VX_TIME_RING_KB * 1024 &&
	       th == (long long)g.ns[0] && ph == g.n[0] && ti == (long long)g.ns[1] &&
	       pi == g.n[1] && t.events == 2 * npairs,
	       "a window of %zu bytes (the ring buffer holds %d KiB a CPU) pairs exactly: "
	       "hlt %lld ns in %llu pairs (generated %llu in %llu), io %lld in %llu (%llu in "
	       "%llu) %s", queued, VX_TIME_RING_KB, th, (unsigned long long)ph,
	       (unsigned long long)g.ns[0], (unsigned long long)g.n[0], ti,
	       (unsigned long long)pi, (unsigned long long)g.ns[1],
	       (unsigned long long)g.n[1], why);
	/* a cap of 1 MiB: 11915 records of 88 bytes fit, the rest of 40000 is dropped */
	t.q.max = 1 << 20;
	memset(&g, 0, sizeof(g));
	ret = vx_time_mark(&t, 1, 0);
	ts = gen_stream(&t, 20000, ts, &g);
	ret = ret ?: vx_time_mark(&t, 1, 1);
	tap_ok(!ret && win(&t, 1, NULL, 0, &ph, why) == -1 && g.dropped == 40000 - 11915 &&
	       strstr(why, "queue reached its cap (1 MiB) and dropped 28085 events") &&
	       t.at[1][1].lost - t.at[1][0].lost == 28085,
	       "beyond the queue's cap: no time (not a partial sum), the reason (%s), the "
	       "dropped records counted as lost", why);
	memset(&g, 0, sizeof(g));
	ret = vx_time_mark(&t, 1, 0);
	gen_stream(&t, 1000, ts + 100000, &g);
	ret = ret ?: vx_time_mark(&t, 1, 1);
	ti = win(&t, 1, io, 1, &pi, why);
	tap_ok(!ret && ti == (long long)g.ns[1] && pi == g.n[1],
	       "the next window, within the cap, is measured again: io %lld ns in %llu pairs "
	       "(generated %llu in %llu)", ti, (unsigned long long)pi,
	       (unsigned long long)g.ns[1], (unsigned long long)g.n[1]);
	tap_ok(vx_time_cap(-1) == (size_t)1 << 30 && vx_time_cap(8LL << 20) == (size_t)1 << 30 &&
	       vx_time_cap(1LL << 20) == (size_t)256 << 20,
	       "the queue's cap: a quarter of MemAvailable, at most 1 GiB (%zu for 1 GiB)",
	       vx_time_cap(1LL << 20));
	vx_time_close(&t);
}

/*
 * The time path failed for good (a mark's drain failed): the queue is
 * freed and takes no record any more (the reader thread would otherwise
 * queue up to the cap until the close), later marks do nothing, the
 * reason stays.
 */
static void fail_checks(void)
{
	struct vx_time t;
	struct gen g;
	size_t before, after;
	uint64_t pairs;
	char why[256] = "";
	int ret;

	memset(&t, 0, sizeof(t));
	memset(&g, 0, sizeof(g));
	ret = exit_pair_fields_load(&t.fl, &fx, &fe, why, sizeof(why)) ?: vx_time_mark(&t, 1, 0);
	gen_stream(&t, 100, 1000, &g);
	before = t.q.len;
	vx_time_fail(&t, -EIO);
	after = t.q.len;
	gen_stream(&t, 100, 100000, &g);
	tap_ok(!ret && before > 0 && after == 0 && !t.q.buf && t.q.len == 0 && !t.lost &&
	       strstr(t.why, "draining the trace stream failed: Input/output error") &&
	       vx_time_mark(&t, 1, 1) == -ECANCELED && win(&t, 1, NULL, 0, &pairs, why) == -1 &&
	       !strcmp(why, t.why),
	       "a failed time path frees the queue (%zu bytes, then %zu), queues no record "
	       "after (%zu bytes, %llu lost), marks nothing more, keeps its reason (%s)",
	       before, after, t.q.len, (unsigned long long)t.lost, t.why);
	memset(&t.why, 0, sizeof(t.why));
	snprintf(t.why, sizeof(t.why), "no exit-handling time: the first reason");
	vx_time_fail(&t, -ENOMEM);
	tap_ok(!strcmp(t.why, "no exit-handling time: the first reason"),
	       "a second failure keeps the first reason (%s)", t.why);
	vx_time_close(&t);
}

static void skip(int n, const char *why)
{
	while (n--)
		printf("ok %d # SKIP %s\n", ++tap_count, why);
}

struct got {
	int nrows, timed, kx_rows;
	char note[512];
	double streamed, lost, event_ns, flag;
};

static int m_metric(struct sink *s, const char *name, double v, const char *unit)
{
	struct got *g = s->ctx;

	(void)unit;
	if (!strcmp(name, VMEXIT_TIME_EVENTS))
		g->streamed = v;
	else if (!strcmp(name, VMEXIT_TIME_LOST))
		g->lost = v;
	else if (!strcmp(name, VMEXIT_TIME_EVENT_NS))
		g->event_ns = v;
	else if (!strcmp(name, VMEXIT_FLAG_TIME))
		g->flag = v;
	return 0;
}

static int m_skip(struct sink *s, const char *reason)
{
	(void)s, (void)reason;
	return 0;
}

static int m_note(struct sink *s, const char *k, const char *v)
{
	struct got *g = s->ctx;

	if (!strcmp(k, VMEXIT_NOTE_TIME))
		snprintf(g->note, sizeof(g->note), "%s", v);
	return 0;
}

static int64_t m_row(struct sink *s, const struct sink_table *t, const void *row)
{
	const struct vmexit_row *r = row;
	struct got *g = s->ctx;

	(void)t;
	g->nrows++;
	if (strcmp(r->event, VMEXIT_KVM_EXIT))
		return g->nrows;
	g->kx_rows++;
	g->timed += r->time_ns >= 0;
	return g->nrows;
}

static const struct sink_ops ops = { m_metric, m_skip, m_note, m_row };

/* The child: the micro-VM, one run of @n port writes and 2 HLTs per byte read. */
static void child(int rd, int wr)
{
	struct kvm_toy *t;
	struct kvm_toy_run r;
	char err[256], ok = !kvm_toy_open(&t, err, sizeof(err)), c;

	if (write(wr, &ok, 1) != 1 || !ok)
		_exit(1);
	while (read(rd, &c, 1) == 1) {
		r = (struct kvm_toy_run){ 50, 0, 2, 0, 0, 0, 0, 0 };
		ok = !kvm_toy_exec(t, &r, err, sizeof(err));
		if (write(wr, &ok, 1) != 1)
			break;
	}
	kvm_toy_close(t);
	_exit(0);
}

/*
 * This process's tracefs instance (cvmbench-vmexit-time-PID) now: 1 or 0, -1
 * without a tracefs mount. Read without mounting; other suites' instances on
 * a shared machine carry their own PIDs.
 */
static int instances(void)
{
	struct tracefs_place p;
	char dir[600], name[64];
	struct dirent *e;
	DIR *d;
	int n = 0;

	if (!tracefs_find(&p) || !p.mounted)
		return -1;
	snprintf(dir, sizeof(dir), "%s/instances", p.dir);
	snprintf(name, sizeof(name), "cvmbench-vmexit-time-%d", (int)getpid());
	d = opendir(dir);
	while (d && (e = readdir(d)))
		n += !strcmp(e->d_name, name);
	if (d)
		closedir(d);
	return n;
}

/* The probe's cell window over one run of the micro-VM, vmexit-time = on. */
static int probe_run(pid_t kid, int wr, int rd, struct got *g, int *during, int *after)
{
	struct probe_target t = { .pids = &kid, .npids = 1, .accel = "kvm" };
	struct sink s = { .ops = &ops, .ctx = g };
	struct probe p = { 0 };
	struct cell c = { 0 };
	char ok = 0;
	int ret;

	snprintf(c.vmexit_detail, sizeof(c.vmexit_detail), "class");
	snprintf(c.vmexit_time, sizeof(c.vmexit_time), "on");
	snprintf(c.backend, sizeof(c.backend), "qemu");
	snprintf(c.accel, sizeof(c.accel), "kvm");
	t.cell = &c;
	p.ops = probe_find("vmexit");
	p.target = &t;
	ret = p.ops->open(&p) ?: p.ops->start(&p, PROBE_WINDOW_CELL);
	*during = instances();
	if (!ret && (write(wr, "r", 1) != 1 || read(rd, &ok, 1) != 1 || !ok))
		ret = -EIO;
	ret = ret ?: p.ops->stop(&p, PROBE_WINDOW_CELL) ?: p.ops->emit(&p, PROBE_WINDOW_CELL, &s);
	if (ret)
		printf("# probe: %d %s\n", ret, p.error);
	if (p.ops->close)
		p.ops->close(&p);
	*after = instances();    /* before the journal undoes a tracefs mount of the probe's */
	return ret;
}

static void probe_checks(void)
{
	int to[2], from[2], during = 0, after = -1, ret;
	struct got g = { 0 };
	char why[256], ok = 0;
	pid_t kid;

	if (geteuid() || access("/dev/kvm", R_OK | W_OK) || !tracefs_usable(why, sizeof(why))) {
		skip(3, "needs root, /dev/kvm and tracefs for the probe over the micro-VM");
		return;
	}
	if (pipe(to) || pipe(from) || (kid = fork()) < 0)
		exit(1);
	if (!kid) {
		close(to[1]);
		close(from[0]);
		child(to[0], from[1]);
	}
	close(to[0]);
	close(from[1]);
	if (read(from[0], &ok, 1) != 1 || !ok) {
		skip(3, "the micro-VM does not run here (KVM_CREATE_VM refused)");
		waitpid(kid, NULL, 0);
		return;
	}
	ret = test_journal_open(why, sizeof(why)) ?:
	      probe_run(kid, to[1], from[0], &g, &during, &after);
	if (ret)
		printf("# %s\n", why);
	test_journal_done();     /* also a tracefs the probe mounted (machine B) */
	close(to[1]);
	waitpid(kid, NULL, 0);
	tap_ok(!ret && during == 1 && after == 0,
	       "vmexit-time = on: its tracefs instance while the cell runs (%d), none after "
	       "close (%d)", during, after);
	if (g.note[0])
		tap_ok(!g.timed && g.kx_rows && g.flag == 1 && strstr(g.note, "kvm_exit"),
		       "kvm_exit does not fire here: no kvm_exit row has a time (%d of %d), "
		       "flagged, the reason (%s)", g.timed, g.kx_rows, g.note);
	else
		tap_ok(g.timed > 0 && g.flag != 1, "kvm_exit fires here: %d rows timed", g.timed);
	tap_ok(g.event_ns > 0 && g.lost == 0 && g.streamed >= 0,
	       "what streaming cost: %.0f records streamed, %.0f lost, %.1f ns per event",
	       g.streamed, g.lost, g.event_ns);
}

int main(void)
{
	char err[256] = "";
	int ret;

	tap_plan(16);
	ret = tp_format_load_file(&fx, FIX "kvm_exit-6.18.44.format", "kvm", err, sizeof(err)) ?:
	      tp_format_load_file(&fe, FIX "kvm_entry-6.18.44.format", "kvm", err, sizeof(err));
	if (ret) {
		tap_ok(0, "the captured formats: %s", err);
		return tap_done();
	}
	window_checks();
	long_window_checks();
	fail_checks();
	probe_checks();
	tp_format_free(&fx);
	tp_format_free(&fe);
	return tap_done();
}
