// SPDX-License-Identifier: MIT
/*
 * tests/unit/vmexit-probe.c - the vmexit probe (probes/vmexit.c) end to
 * end, against a VM whose exits the test makes itself: a child process
 * runs the micro-VM of lib/kvm-toy.c and, on each request over a
 * pipe, makes N port writes (+1 closing write) and H HLTs. The probe gets
 * the child as its target (as it gets the QEMU pid of a qemu cell), opens
 * its counters at the cell window's start, and each invocation window
 * must count exactly N+1 KVM_EXIT_IO and H KVM_EXIT_HLT exits to user
 * space; the cell window their sum. kvm_exit is exact where it fires and
 * a skip row with the reason where it does not (a PVM host). Without a
 * VM to count (backend native, accel = tcg) the probe does not open and
 * says why; nor when the backend's VMs run under TCG although the cell
 * asked accel = auto (the accelerator used, probe_target.accel).
 * Regressions, through the probe's test faults (CVMBENCH_TEST_VMEXIT_FAULT):
 * a source whose counters fail to open leaves no counter open and later
 * windows fail with an error (they read a NULL counter set before);
 * a window of no length has counts and no rate (it had a rate of 0); a
 * reason missing from the kernel's table is still in vmexit-detail =
 * reason's total and class other (it was lost).
 * The vmexit table (007): the same counts as rows with their codes, no row
 * of a zero count, KVM's statistics of a VM without a QMP socket read
 * through its vCPU descriptor (halt_exits equal to the tracepoint's
 * KVM_EXIT_HLT), or a row with the reason (never zeros); a database the probe wrote on the
 * micro-VM read back by `show --table vmexit` and the vmexit-reasons
 * figure's data function. Not root, no /dev/kvm or tracefs not mounted:
 * those checks are SKIPs.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sqlite3.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cell.h"
#include "config-test.h"
#include "db.h"
#include "figures.h"
#include "vmexit-table.h"
#include "cvm-host.h"
#include "kvm-toy.h"
#include "probe.h"
#include "sink.h"
#include "tap.h"
#include "tracefs-find.h"
#include "vmexit-metrics.h"
#include "vmexit-sink.h"

#define NTESTS 20

/* A vmexit table row as written (strings copied; NULL as ""). */
struct vrow {
	char event[32], reason[48], source[16], method[16], skip[256], fid[160];
	long long vm, code, count;
};

struct got {
	struct vrow rows[128];
	int nrows;
	char names[64][96];
	double vals[64];
	int n;
	char skip[512];
	char note[512];           /* the last note, "key=value" */
};

static int m_metric(struct sink *s, const char *name, double v, const char *unit)
{
	struct got *g = s->ctx;

	(void)unit;
	if (g->n < 64) {
		snprintf(g->names[g->n], sizeof(g->names[0]), "%s", name);
		g->vals[g->n++] = v;
	}
	return 0;
}

static int m_skip(struct sink *s, const char *reason)
{
	snprintf(((struct got *)s->ctx)->skip, sizeof(((struct got *)s->ctx)->skip), "%s",
		 reason);
	return 0;
}

static int m_note(struct sink *s, const char *k, const char *v)
{
	struct got *g = s->ctx;

	snprintf(g->note, sizeof(g->note), "%s=%s", k, v);
	return 0;
}

#define CP(dst, src) snprintf(dst, sizeof(dst), "%s", (src) ? (src) : "")

static int64_t m_row(struct sink *s, const struct sink_table *t, const void *row)
{
	const struct vmexit_row *r = row;
	struct got *g = s->ctx;
	struct vrow *v;

	if (t != &vmexit_table)
		return -EINVAL;
	if (g->nrows == 128)
		return g->nrows;
	v = &g->rows[g->nrows++];
	CP(v->event, r->event);
	CP(v->reason, r->reason_name);
	CP(v->source, r->source);
	CP(v->method, r->method);
	CP(v->skip, r->skip);
	CP(v->fid, r->fidelity);
	v->vm = r->vm_idx;
	v->code = r->reason_code;
	v->count = r->count;
	return g->nrows;
}

static const struct sink_ops ops = { m_metric, m_skip, m_note, m_row };

/* The row of @event and @reason from @source, or NULL. */
static const struct vrow *row_of(const struct got *g, const char *source, const char *event,
				 const char *reason)
{
	int i;

	for (i = 0; i < g->nrows; i++)
		if (!strcmp(g->rows[i].source, source) && !strcmp(g->rows[i].event, event) &&
		    !strcmp(g->rows[i].reason, reason))
			return &g->rows[i];
	return NULL;
}

/*
 * Tracepoint rows whose count is 0 (a reason that counted nothing has no
 * row, a skip has NULL); KVM's statistics are stored as read, 0 or not.
 */
static int zero_rows(const struct got *g)
{
	int i, n = 0;

	for (i = 0; i < g->nrows; i++) {
		n += g->rows[i].count == 0 && !strcmp(g->rows[i].source, "tracepoint");
		if (!strcmp(g->rows[i].source, "kvm-stats"))
			printf("# kvm-stats %s %s %lld %s\n", g->rows[i].method, g->rows[i].reason,
			       g->rows[i].count, g->rows[i].skip);
	}
	return n;
}

static double val(const struct got *g, const char *name)
{
	int i;

	for (i = 0; i < g->n; i++)
		if (!strcmp(g->names[i], name))
			return g->vals[i];
	return -1;
}

#define IN_NEW_THREAD 0x80000000u   /* a request run by a thread started for it */

struct run_arg {
	struct kvm_toy *t;
	uint32_t n;
	int ok;
};

static void *run_vm(void *arg)
{
	struct run_arg *a = arg;
	struct kvm_toy_run r = { a->n, 0, 2, 0, 0, 0, 0, 0 };
	char err[256];

	a->ok = !kvm_toy_exec(a->t, &r, err, sizeof(err));
	return NULL;
}

/*
 * Wait (up to 2 s) until this process has one thread again. pthread_join()
 * returns when the thread has left its memory (the kernel wakes the joiner
 * in exit_mm()), before do_exit() folds its inherited perf counts into the
 * counter it inherited from (perf_event_exit_task()): reading the counters
 * right after the join could miss the thread's events, and did when the
 * machine was loaded. Its /proc task entry goes after that fold.
 */
static void wait_thread_gone(void)
{
	struct timespec pause = { 0, 1000000 };
	struct dirent *e;
	int i, n = 2;

	for (i = 0; i < 2000 && n > 1; i++) {
		DIR *d = opendir("/proc/self/task");

		for (n = 0; d && (e = readdir(d));)
			n += e->d_name[0] != '.';
		if (d)
			closedir(d);
		if (n > 1)
			nanosleep(&pause, NULL);
	}
}

/*
 * The child: the micro-VM, one run per request (io count), ack after; a
 * request with IN_NEW_THREAD runs the vCPU on a thread started then (as
 * QEMU starts threads after the probe's counters opened).
 */
static void child(int rd, int wr)
{
	struct kvm_toy *t;
	struct run_arg a;
	pthread_t th;
	uint32_t n;
	char err[256], ok = 1;

	if (kvm_toy_open(&t, err, sizeof(err)))
		ok = 0;
	if (write(wr, &ok, 1) != 1 || !ok)
		_exit(1);
	while (read(rd, &n, sizeof(n)) == sizeof(n)) {
		a = (struct run_arg){ t, n & ~IN_NEW_THREAD, 0 };
		if (!(n & IN_NEW_THREAD))
			run_vm(&a);
		else if (!pthread_create(&th, NULL, run_vm, &a)) {
			pthread_join(th, NULL);
			wait_thread_gone();
		}
		ok = (char)a.ok;
		if (write(wr, &ok, 1) != 1)
			break;
	}
	kvm_toy_close(t);
	_exit(0);
}

static int ask(int wr, int rd, uint32_t n)
{
	char ok = 0;

	return write(wr, &n, sizeof(n)) == sizeof(n) && read(rd, &ok, 1) == 1 && ok;
}

/* Open the probe for a cell of @backend, accel @accel, whose VMs run under @used. */
static int open_used(const char *backend, const char *accel, const char *used,
		     const char *detail, struct probe *p, struct probe_target *t, struct cell *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->vmexit_detail, sizeof(c->vmexit_detail), "%s", detail);
	snprintf(c->backend, sizeof(c->backend), "%s", backend);
	snprintf(c->accel, sizeof(c->accel), "%s", accel);
	t->cell = c;
	t->accel = used;
	memset(p, 0, sizeof(*p));
	p->ops = probe_find("vmexit");
	p->target = t;
	return p->ops && p->ops->open ? p->ops->open(p) : -ENOSYS;
}

static int open_detail(const char *backend, const char *accel, const char *detail,
		       struct probe *p, struct probe_target *t, struct cell *c)
{
	return open_used(backend, accel, strcmp(backend, "qemu") ? NULL : accel, detail, p,
			 t, c);
}

static int open_with(const char *backend, const char *accel, struct probe *p,
		     struct probe_target *t, struct cell *c)
{
	return open_detail(backend, accel, "class", p, t, c);
}

static void no_vm_checks(void)
{
	struct probe p;
	struct probe_target t = { 0 };
	struct cell c;

	tap_ok(open_with("native", "auto", &p, &t, &c) < 0 && strstr(p.error, "runs no VM"),
	       "backend native: not opened, says it runs no VM (%s)", p.error);
	tap_ok(open_with("qemu", "tcg", &p, &t, &c) < 0 && strstr(p.error, "accel = tcg"),
	       "accel = tcg: not opened, says QEMU emulates (%s)", p.error);
	tap_ok(open_used("qemu", "auto", "tcg", "class", &p, &t, &c) < 0 &&
	       strstr(p.error, "under tcg"),
	       "accel = auto, the backend fell back to tcg: not opened, says so (%s)", p.error);
	if (p.priv)
		p.ops->close(&p);
}

/* Open file descriptors of this process. */
static int nfds(void)
{
	DIR *d = opendir("/proc/self/fd");
	int n = 0;

	while (d && readdir(d))
		n++;
	if (d)
		closedir(d);
	return n;
}

/*
 * Source 1's counters fail to open (source 0's opened): nothing stays
 * open, and the later windows fail with an error instead of reading.
 */
static void failed_open_checks(pid_t *kid)
{
	struct probe p;
	struct probe_target t = { .pids = kid, .npids = 1 };
	struct cell c;
	int before = nfds(), ret, after, inv, stop;

	setenv("CVMBENCH_TEST_VMEXIT_FAULT", "open@1", 1);
	ret = open_with("qemu", "kvm", &p, &t, &c) ?: p.ops->start(&p, PROBE_WINDOW_CELL);
	unsetenv("CVMBENCH_TEST_VMEXIT_FAULT");
	after = nfds();
	ret = ret == -EMFILE && strstr(p.error, "open@1");
	p.error[0] = '\0';
	inv = p.ops->start(&p, PROBE_WINDOW_INVOCATION);
	stop = p.ops->stop(&p, PROBE_WINDOW_INVOCATION);
	tap_ok(ret && after == before && inv == -ENODEV && stop == -ENODEV,
	       "a source that fails to open: the cell window fails, no counter stays open "
	       "(fds %d, then %d), later windows fail (%d %d: %s)", before, after, inv, stop,
	       p.error);
	p.ops->close(&p);
}

/* One invocation window around @n port writes; its metrics into @g. */
static int window(struct probe *p, int wr, int rd, uint32_t n, struct got *g)
{
	struct sink s = { .ops = &ops, .ctx = g };

	memset(g, 0, sizeof(*g));
	return p->ops->start(p, PROBE_WINDOW_INVOCATION) || !ask(wr, rd, n) ||
	       p->ops->stop(p, PROBE_WINDOW_INVOCATION) ||
	       p->ops->emit(p, PROBE_WINDOW_INVOCATION, &s);
}

static int kvm_exit_ok(const struct got *g, uint32_t n)
{
	if (g->skip[0])
		return strstr(g->skip, "kvm_exit") != NULL;
	return val(g, "kvm_exit.vmx.IO_INSTRUCTION") == n + 1 ||
	       val(g, "kvm_exit.svm.io") == n + 1;
}

/*
 * vmexit-detail = reason: a window of no length (counts, no rate, a note
 * why); a reason the table lacks (KVM_EXIT_HLT hidden) in the total and
 * in class other, as class mode counts it.
 */
static void regression_checks(int wr, int rd, struct probe_target *t)
{
	struct probe p;
	struct cell c;
	struct got g;
	int ret, i, rates = 0;

	setenv("CVMBENCH_TEST_VMEXIT_FAULT", "window0", 1);
	ret = open_detail("qemu", "kvm", "reason", &p, t, &c) ?:
	      p.ops->start(&p, PROBE_WINDOW_CELL) ?: window(&p, wr, rd, 10, &g);
	for (i = 0; i < g.n; i++)
		rates += strstr(g.names[i], VMEXIT_RATE) != NULL;
	tap_ok(!ret && val(&g, "kvm_userspace_exit.KVM_EXIT_IO") == 11 && !rates &&
	       strstr(g.note, "no_rate="), "a window of no length: counts, no rate (%d), "
	       "a note why (%s)", rates, g.note);
	p.ops->close(&p);
	setenv("CVMBENCH_TEST_VMEXIT_FAULT", "hide@KVM_EXIT_HLT", 1);
	ret = open_detail("qemu", "kvm", "reason", &p, t, &c) ?:
	      p.ops->start(&p, PROBE_WINDOW_CELL) ?: window(&p, wr, rd, 20, &g);
	unsetenv("CVMBENCH_TEST_VMEXIT_FAULT");
	tap_ok(!ret && val(&g, "kvm_userspace_exit.KVM_EXIT_IO") == 21 &&
	       val(&g, "kvm_userspace_exit.KVM_EXIT_HLT") == -1 &&
	       val(&g, "kvm_userspace_exit.total") == 23 &&
	       val(&g, "kvm_userspace_exit.class.other") == 2,
	       "by reason, a reason the table lacks: in the total (%.0f of 23) and class "
	       "other (%.0f of 2)", val(&g, "kvm_userspace_exit.total"),
	       val(&g, "kvm_userspace_exit.class.other"));
	p.ops->close(&p);
}

/*
 * The vmexit table of the reason window above: the same counts as rows
 * with their codes and method, no row of a zero count, and KVM's
 * statistics of a VM without a QMP socket (the micro-VM's process) a row
 * with the reason, not zeros.
 */
static void table_checks(const struct got *g)
{
	const struct vrow *io = row_of(g, "tracepoint", VMEXIT_USERSPACE, "KVM_EXIT_IO"),
			  *tot = row_of(g, "tracepoint", VMEXIT_USERSPACE, "total"),
			  *ks = row_of(g, "kvm-stats", VMEXIT_KVM_STATS, "exits"),
			  *kx = row_of(g, "tracepoint", VMEXIT_KVM_EXIT, "total");

	int zeros = zero_rows(g);

	tap_ok(io && io->count == 322 && io->code == 2 && tot && tot->count == 324 &&
	       (!strcmp(io->method, "perf-filter") || !strcmp(io->method, "trace-stream") ||
		!strcmp(io->method, "bpf")) &&
	       !zeros && kx && (kx->count > 0 || strstr(kx->skip, "kvm_exit")),
	       "vmexit table: KVM_EXIT_IO (code 2) 322, total 324, by %s; no zero rows (%d); "
	       "kvm_exit counted or a skip row (%s)", io ? io->method : "-", zeros,
	       kx ? kx->skip : "no row");
	const struct vrow *kh = row_of(g, "kvm-stats", VMEXIT_KVM_STATS, "halt_exits"),
			  *uh = row_of(g, "tracepoint", VMEXIT_USERSPACE, "KVM_EXIT_HLT");

	tap_ok(ks && ks->vm == 0 && !strcmp(ks->method, "binary-stats") &&
	       ((kh && uh && kh->count == uh->count && uh->count == 2) ||
		(ks->count == -1 && ks->skip[0])),
	       "kvm-stats of a VM without QMP, through its stats descriptor: KVM's halt_exits "
	       "%lld = KVM_EXIT_HLT %lld = 2, or a row with the reason (%s)",
	       kh ? kh->count : -1, uh ? uh->count : -1, ks ? ks->skip : "no row");
}

/* The text of the memory stream @f, closed ("" if none). */
static const char *mem_text(FILE *f, char **buf)
{
	fclose(f);
	return *buf ? *buf : "";
}

/*
 * A database made by the probe on the micro-VM: one cell window of 50
 * port writes through the store's sink, then read back by the analysis:
 * `show --table vmexit`'s rows and the vmexit-reasons figure's data.
 */
static void db_checks(int wr, int rd, struct probe_target *t)
{
	char dir[] = "/tmp/cvmbench-vx-XXXXXX", path[80], err[512] = "", *b1 = NULL, *b2 = NULL;
	struct run_info info = { "host", "test", "t.ini", "" };
	struct sink s = { .probe = "vmexit", .ops = &sink_db_ops };
	struct figure_ctx fc = { 0 };
	struct cell *cells = NULL, c;
	struct db *db = NULL;
	struct probe p;
	sqlite3 *r = NULL;
	size_t n = 0, l1, l2;
	FILE *f;
	int ret;

	ret = !mkdtemp(dir) || snprintf(path, sizeof(path), "%s/r.db", dir) < 0 ||
	      db_open(&db, path, DB_CREATE, err, sizeof(err)) ||
	      load_expand("[experiment vx]\nworkload = null\n", &cells, &n, err, sizeof(err));
	s.db = db;
	s.run_id = ret ? -1 : db_run_begin(db, &info);
	s.cell_id = s.run_id < 0 ? -1 : db_cell_begin(db, s.run_id, &cells[0]);
	ret = ret || s.cell_id < 0 || open_detail("qemu", "kvm", "reason", &p, t, &c) ||
	      p.ops->start(&p, PROBE_WINDOW_CELL) || !ask(wr, rd, 50) ||
	      p.ops->stop(&p, PROBE_WINDOW_CELL) || db_window_begin(db);
	ret = ret || db_window_end(db, !p.ops->emit(&p, PROBE_WINDOW_CELL, &s));
	p.ops->close(&p);
	db_close(db);
	ret = ret || sqlite3_open_v2(path, &r, SQLITE_OPEN_READONLY, NULL);
	f = open_memstream(&b1, &l1);
	ret = ret || !f || vmexit_table_show(r, s.run_id, 0, f);
	tap_ok(!ret && strstr(mem_text(f, &b1), "KVM_EXIT_IO") && strstr(b1, " 51 ") &&
	       strstr(b1, "binary-stats"), "a database from the micro-VM: show --table vmexit "
	       "has KVM_EXIT_IO 51 and KVM's statistics beside it (%s)", err);
	fc.h = r;
	fc.run_id = s.run_id;
	fc.data = open_memstream(&b2, &l2);
	ret = ret || !fc.data || fig_vmexit_reasons_data(&fc);
	tap_ok(!ret && strstr(mem_text(fc.data, &b2),
			      "label count time_ms\n\"KVM_EXIT_IO (io)\" 51 ?\n"),
	       "... and the vmexit-reasons figure's data: KVM_EXIT_IO first, 51, no time");
	free(b1);
	free(b2);
	sqlite3_close(r);
	config_cells_free(cells, n);
	unlink(path);
	strcat(path, "-wal");
	unlink(path);
	strcpy(path + strlen(path) - 4, "-shm");
	unlink(path);
	rmdir(dir);
}

/*
 * The bpf method in the probe: its rows name bpf unless the cell's note
 * method_why says why not (before: always perf-filter, with no reason); a
 * vCPU thread started after the counters opened is counted; with bpf
 * refused (test fault nobpf) perf-filter counts the same, and says why.
 */
static void bpf_checks(int wr, int rd, struct probe_target *t)
{
	struct probe p;
	struct cell c;
	struct got g, cellg;
	struct sink s = { .ops = &ops, .ctx = &cellg };
	const struct vrow *io;
	int ret, pass;

	for (pass = 0; pass < 2; pass++) {
		if (pass)
			setenv("CVMBENCH_TEST_VMEXIT_FAULT", "nobpf", 1);
		memset(&cellg, 0, sizeof(cellg));
		ret = open_with("qemu", "kvm", &p, t, &c) ?: p.ops->start(&p, PROBE_WINDOW_CELL) ?:
		      window(&p, wr, rd, 40 | IN_NEW_THREAD, &g) ?:
		      p.ops->stop(&p, PROBE_WINDOW_CELL) ?: p.ops->emit(&p, PROBE_WINDOW_CELL, &s);
		unsetenv("CVMBENCH_TEST_VMEXIT_FAULT");
		io = row_of(&g, "tracepoint", VMEXIT_USERSPACE, "io");
		if (!pass) {
			tap_ok(!ret && io && (!strcmp(io->method, "bpf") ||
					      strstr(cellg.note, VMEXIT_NOTE_NO_BPF "=")),
			       "the probe counts with bpf, or says why not (%s; %s)",
			       io ? io->method : "no row", cellg.note);
			tap_ok(!ret && val(&g, "kvm_userspace_exit.class.io") == 41 &&
			       val(&g, "kvm_userspace_exit.total") == 43,
			       "a vCPU thread started after the counters opened: counted "
			       "(io %.0f of 41, by %s)", val(&g, "kvm_userspace_exit.class.io"),
			       io ? io->method : "-");
		} else {
			tap_ok(!ret && io && !strcmp(io->method, "perf-filter") &&
			       val(&g, "kvm_userspace_exit.class.io") == 41 &&
			       strstr(cellg.note, "test fault nobpf"),
			       "bpf refused: perf-filter counts the same and the note says why "
			       "(%s)", cellg.note);
		}
		p.ops->close(&p);
	}
}

static void vm_checks(int wr, int rd, pid_t kid)
{
	static const uint32_t n[3] = { 100, 2500, 7 };
	struct probe p;
	struct probe_target t = { 0 };
	struct cell c;
	struct got g, cellg;
	struct sink s = { .ops = &ops, .ctx = &cellg };
	int i, bad = 0, kbad = 0, ret;

	t.pids = &kid;
	t.npids = 1;
	ret = open_with("qemu", "kvm", &p, &t, &c) ?: p.ops->start(&p, PROBE_WINDOW_CELL);
	if (!tap_ok(!ret, "opened on the VM process's threads (%s)", p.error))
		return;
	for (i = 0; i < 3; i++) {
		ret = window(&p, wr, rd, n[i], &g);
		bad |= ret || val(&g, "kvm_userspace_exit.class.io") != n[i] + 1 ||
		       val(&g, "kvm_userspace_exit.class.idle") != 2 ||
		       val(&g, "kvm_userspace_exit.total") != n[i] + 3 ||
		       val(&g, "kvm_userspace_exit.class.other") != -1;
		kbad |= !kvm_exit_ok(&g, n[i]);
		printf("# window %d: io %.0f idle %.0f rate %.0f/s read %.0f ns; %s\n", i,
		       val(&g, "kvm_userspace_exit.class.io"),
		       val(&g, "kvm_userspace_exit.class.idle"),
		       val(&g, "kvm_userspace_exit.total.per_s"), val(&g, "counters_read_ns"),
		       g.skip[0] ? g.skip : "kvm_exit counted");
	}
	tap_ok(!bad, "by class, each invocation window: io N+1, idle 2, total N+3, no other");
	tap_ok(!kbad, "kvm_exit: exact where it fires, else a skip naming it (%s)", g.skip);
	tap_ok(val(&g, "kvm_userspace_exit.class.io.per_s") > 0 &&
	       val(&g, "counters_open") > 0 && val(&g, "counters_read_ns") > 0,
	       "a rate per second, the counters open and the cost of reading them");
	memset(&cellg, 0, sizeof(cellg));
	ret = p.ops->stop(&p, PROBE_WINDOW_CELL) || p.ops->emit(&p, PROBE_WINDOW_CELL, &s);
	tap_ok(!ret && val(&cellg, "kvm_userspace_exit.class.io") == n[0] + n[1] + n[2] + 3,
	       "the cell window: the sum of its invocations (%.0f)",
	       val(&cellg, "kvm_userspace_exit.class.io"));
	p.ops->close(&p);
	regression_checks(wr, rd, &t);
	bpf_checks(wr, rd, &t);
	db_checks(wr, rd, &t);
	ret = open_detail("qemu", "kvm", "reason", &p, &t, &c) ?:
	      p.ops->start(&p, PROBE_WINDOW_CELL) ?: window(&p, wr, rd, 321, &g);
	tap_ok(!ret && val(&g, "kvm_userspace_exit.KVM_EXIT_IO") == 322 &&
	       val(&g, "kvm_userspace_exit.KVM_EXIT_HLT") == 2 &&
	       val(&g, "kvm_userspace_exit.class.io") == 322 &&
	       val(&g, "kvm_userspace_exit.KVM_EXIT_IO.per_s") > 0,
	       "vmexit-detail = reason: KVM_EXIT_IO 322, KVM_EXIT_HLT 2, and the classes");
	table_checks(&g);
	kill(kid, SIGKILL);
	waitpid(kid, NULL, 0);
	ret = p.ops->start(&p, PROBE_WINDOW_INVOCATION);
	ret = ret ?: p.ops->stop(&p, PROBE_WINDOW_INVOCATION);
	tap_ok(ret && strstr(p.error, "exited"), "a VM gone before the window closed: "
	       "an error naming it, not a count (%s)", p.error);
	p.ops->close(&p);
}

int main(void)
{
	int to_kid[2], from_kid[2], i;
	struct tracefs_place place;
	const char *why = NULL;
	char kvm_why[256];
	char ok = 0;
	pid_t kid;

	tap_plan(NTESTS);
	no_vm_checks();
	if (geteuid())
		why = "not root (perf tracepoint counters)";
	else if (!cvm_host_kvm_opens(kvm_why, sizeof(kvm_why)))
		why = kvm_why;
	else if (!tracefs_find(&place) || !place.mounted)
		why = "tracefs is not mounted (a unit test does not mount it)";
	else if (pipe(to_kid) || pipe(from_kid))
		why = "no pipe";
	if (!why) {
		kid = fork();
		if (kid == 0) {
			close(to_kid[1]);
			close(from_kid[0]);
			child(to_kid[0], from_kid[1]);
		}
		close(to_kid[0]);
		close(from_kid[1]);
		if (kid < 0 || read(from_kid[0], &ok, 1) != 1 || !ok)
			why = "the micro-VM does not run here (KVM_CREATE_VM or KVM_RUN refused)";
	}
	if (why) {
		for (i = 3; i < NTESTS; i++)
			printf("ok %d # SKIP %s\n", ++tap_count, why);
		return tap_done();
	}
	failed_open_checks(&kid);
	vm_checks(to_kid[1], from_kid[0], kid);
	return tap_done();
}
