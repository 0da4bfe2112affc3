// SPDX-License-Identifier: MIT
/*
 * vmexit.c - the `vmexit` probe: VM exits of the cell's VMs by reason,
 * counted in the kernel for exactly each window (the cell, each
 * invocation): kvm:kvm_exit by exit_reason under the host's isa (VMX or
 * SVM table), kvm:kvm_userspace_exit by reason, and kvm:kvm_vmgexit_enter
 * by GHCB exit code on SVM hosts (SEV-ES/SNP guests).
 *
 * Where the numbers come from: the counting engine (tracing/tpcount.c),
 * opened and enabled at the cell window's start, read at every window
 * boundary. First choice, the bpf method (tpcount-bpf.c): one eBPF program
 * per source counts the event by reason (exit_reason, with the table's
 * "isa == N" tested in the program) for every thread of the cell's QEMU
 * processes (TPCOUNT_TGID: by process, so vCPU and I/O threads started
 * later count too), the codes no table names in a last counter
 * (TPCOUNT_REST); classes are summed here from the reasons. Where the
 * kernel refuses it (the reason is the cell note method_why), one
 * filtered perf tracepoint counter per (reason or class, thread) of every
 * thread of the processes (/proc/PID/task, with inherit for threads they
 * start later); where perf refuses, the engine streams the events into a
 * tracefs instance instead (tpcount-stream.c, method trace-stream).
 * Reason codes and names come from the running kernel's event formats
 * (lib/kvm-reasons.c); the class from kvm_reason_class().
 *
 * Every source also has an unfiltered "total" counter (both detail modes),
 * so exits whose code the kernel's print table lacks are in the total and
 * in class other.
 *
 * What it stores: metrics (vmexit-metrics.h, read by the vmexit-rate
 * figure) and the rows of the vmexit table (vmexit-sink.h, 007): per
 * window each counter that counted, the total and the rest; beside them
 * KVM's own per-vCPU statistics of each VM (vmexit-kvmstats.c: QMP
 * query-stats, or the VM process's binary statistics descriptors), read
 * at the same boundaries, and kvm_exit's total flagged where the two
 * disagree beyond 1 %.
 *
 * Skips, never zeros: a backend that runs no VM, a cell whose VMs run
 * under TCG (the accelerator the backend used, probe_target.accel: QEMU
 * emulates, no VM exits), no VM process when the cell window opens (cold
 * mode), a VM thread gone before a window closed, and kvm_exit counting
 * nothing while the VM made exits to user space (a kernel whose KVM does
 * not trace kvm_exit, e.g. a PVM host).
 *
 * Side: host: the VMs' threads are on cvmbench's machine.
 *
 * Test faults (CVMBENCH_TEST_VMEXIT_FAULT, for tests/unit/vmexit-probe.c):
 * "open@K" source K's counters fail to open (EMFILE), "nobpf" the bpf
 * method is not tried (perf-filter counters, as where the kernel refuses it), "hide@NAME" reason
 * NAME is missing from the tables (as from an older kernel's print
 * table), "window0" every window measures 0 ns.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "probe.h"
#include "sink.h"
#include "vmexit-metrics.h"
#include "vmexit-kvmstats.h"
#include "vmexit-sink.h"
#include "vmexit-time.h"

#ifdef HAVE_TRACEFS
#include "clock.h"
#include "kvm-reasons.h"
#include "proc-tasks.h"
#include "procmem.h"
#include "tpcount-shape.h"
#include "tpcount.h"
#include "tracefs-find.h"
#include "tracefs-host.h"

#define MAX_SRC 4

/* One counted event (and, for kvm_exit, one isa's table). */
struct vx_src {
	const char *event;
	const char *field;
	char isa[8];              /* "vmx", "svm" or "" */
	char filter[64];          /* the table's condition, or "" */
	unsigned long long *codes;
	char **names;             /* per counter: a reason or a class; last "total" */
	char **filters;           /* per counter: its codes or'ed; "" for "total" */
	size_t n;
	int by_class;             /* counters are classes, not reasons */
	size_t ncodes;            /* reasons in @codes (bpf counts them, and the rest) */
	int *map;                 /* bpf: reason j's counter in @names, -1: other */
	int bpf;                  /* counted by reason with the bpf method */
	struct tpcount *tc;
	struct tpcount_snap snap[2][2];   /* [cell, invocation][start, stop] */
	double event_ns;          /* counting's cost per event (cell rows), 0: unmeasured */
};

struct vx_priv {
	struct vx_src src[MAX_SRC];
	int nsrc;
	int by_class;             /* vmexit-detail = class */
	char isa_note[160];
	char bpf_note[400];       /* why a source is not counted with bpf */
	size_t nthreads;
	long long t[2][2];        /* CLOCK_MONOTONIC ns of the reads */
	double read_ns[2];
	struct vx_kstats ks;      /* KVM's statistics of the same windows */
	int time_on;              /* vmexit-time = on: handling time streamed */
	struct vx_time time;
	char time_inv_why[256];   /* the first invocation window without time: why */
};

static int vx_supported(char *why, size_t len)
{
	if (geteuid()) {
		snprintf(why, len, "needs root (perf tracepoint counters on the VMs' threads)");
		return 0;
	}
	return tracefs_usable(why, len);
}

/* The value of test fault @what ("" when it has none), or NULL if not set. */
static const char *fault(const char *what)
{
	const char *f = getenv("CVMBENCH_TEST_VMEXIT_FAULT");
	size_t n = strlen(what);

	if (!f || strncmp(f, what, n))
		return NULL;
	return f[n] == '@' ? f + n + 1 : f[n] ? NULL : f + n;
}

/*
 * probe_ops.cell_supported: 0 when cell @c has no VM exits to count: its
 * backend runs no VM (@accel NULL), or its VMs run under TCG (in a run the
 * accelerator the backend used: after a fallback from KVM, TCG).
 */
static int vx_cell_supported(const struct cell *c, const char *accel, char *why, size_t len)
{
	if (!accel) {
		snprintf(why, len, "backend %s runs no VM (says no accelerator): no VM exits "
			 "to count", c->backend);
		return 0;
	}
	if (strcmp(accel, "tcg"))
		return 1;
	snprintf(why, len, "the VMs run under tcg (accel = %s): QEMU emulates the guest, "
		 "which makes no VM exits", c->accel);
	return 0;
}

#define CLASS_NAME(n) n,
static const char *const class_names[] = { VMEXIT_CLASSES(CLASS_NAME) };
#undef CLASS_NAME
#define NCLASS (sizeof(class_names) / sizeof(class_names[0]))
#define CLASS_OTHER KVM_CLASS_OTHER
_Static_assert(NCLASS == KVM_NCLASS, "VMEXIT_CLASSES follows enum kvm_class");

/* "FIELD == a || FIELD == b ..." of @s's reasons of class @c, or "" if none. */
static char *class_filter(const struct vx_src *s, enum kvm_class c)
{
	size_t i, used = 0, cap = 64;
	char *f = malloc(cap), *nf;
	int w;

	for (i = 0; f && i < s->n; i++) {
		if (kvm_reason_class(s->names[i]) != c)
			continue;
		while ((w = snprintf(f + used, cap - used, "%s%s == %llu", used ? " || " : "",
				     s->field, s->codes[i])) >= (int)(cap - used)) {
			nf = realloc(f, cap * 2);
			if (!nf)
				break;
			f = nf;
			cap *= 2;
		}
		used += (size_t)w;
	}
	if (f && !used)
		f[0] = '\0';
	return f;
}

/* Reasons into counters: one per class that has reasons (but other), and "total". */
static int src_classes(struct vx_src *s)
{
	char **names = calloc(NCLASS, sizeof(*names)), **filters = calloc(NCLASS, sizeof(*filters));
	int idx[NCLASS];
	size_t c, n = 0;

	if (!names || !filters)
		goto nomem;
	for (c = 0; c <= CLASS_OTHER; c++) {
		idx[c] = c == CLASS_OTHER ? -1 : (int)n;
		filters[n] = c == CLASS_OTHER ? strdup("") : class_filter(s, (enum kvm_class)c);
		names[n] = strdup(c == CLASS_OTHER ? "total" : class_names[c]);
		if (!filters[n] || !names[n])
			goto nomem;
		if (c == CLASS_OTHER || filters[n][0])
			n++;
		else {
			free(filters[n]);
			free(names[n]);
			idx[c] = -1;
		}
	}
	for (c = 0; c < s->n; c++) {
		s->map[c] = idx[kvm_reason_class(s->names[c])];
		free(s->names[c]);
	}
	free(s->names);
	s->names = names;
	s->filters = filters;
	s->n = n;
	s->by_class = 1;
	return 0;
nomem:
	for (c = 0; names && filters && c <= n && c < NCLASS; c++) {
		free(names[c]);
		free(filters[c]);
	}
	free(names);
	free(filters);
	return -ENOMEM;
}

/* Reasons into counters: one per reason ("FIELD == code"), and "total". */
static int src_reasons(struct vx_src *s)
{
	char **names = realloc(s->names, (s->n + 1) * sizeof(*names));
	size_t i;
	int bad = 0;

	if (!names)
		return -ENOMEM;
	s->names = names;
	names[s->n] = strdup("total");
	s->filters = calloc(s->n + 1, sizeof(*s->filters));
	s->n++;                   /* vx_close() frees names and filters up to n */
	if (!s->filters || !names[s->n - 1])
		return -ENOMEM;
	for (i = 0; i < s->n - 1; i++)
		if (asprintf(&s->filters[i], "%s == %llu", s->field, s->codes[i]) < 0) {
			s->filters[i] = NULL;
			bad = 1;
		}
	s->filters[i] = strdup("");
	return bad || !s->filters[i] ? -ENOMEM : 0;
}

/* Whether reason @name is left out of the tables (test fault "hide"). */
static int hidden(const char *name)
{
	const char *h = fault("hide");

	return h && !strcmp(h, name);
}

/* Source @s counts the values of table @t of @rs. */
static int src_fill(struct vx_src *s, const char *event, const char *field,
		    const struct kvm_reasons *rs, int t, int by_class)
{
	size_t i;

	s->event = event;
	s->field = field;
	if (t >= 0 && t < rs->ntables) {
		snprintf(s->isa, sizeof(s->isa), "%s", rs->tables[t].isa);
		snprintf(s->filter, sizeof(s->filter), "%s", rs->tables[t].filter);
	}
	s->codes = calloc(rs->n + 1, sizeof(*s->codes));   /* + the rest (bpf) */
	s->names = calloc(rs->n, sizeof(*s->names));
	s->map = calloc(rs->n + 1, sizeof(*s->map));
	if (!s->codes || !s->names || !s->map)
		return -ENOMEM;
	for (i = 0; i < rs->n; i++) {
		if (rs->r[i].table != t || hidden(rs->r[i].name))
			continue;
		s->codes[s->n] = rs->r[i].code;
		s->names[s->n] = strdup(rs->r[i].name);
		s->map[s->n] = (int)s->n;
		if (!s->names[s->n++])
			return -ENOMEM;
	}
	s->ncodes = s->n;
	return by_class ? src_classes(s) : src_reasons(s);
}

/* The host's isa from its KVM module: "vmx", "svm", or "" (both counted). */
static const char *host_isa(struct vx_priv *v)
{
	if (!access("/sys/module/kvm_intel", F_OK))
		return "vmx";
	if (!access("/sys/module/kvm_amd", F_OK))
		return "svm";
	snprintf(v->isa_note, sizeof(v->isa_note), "KVM module neither kvm_intel nor "
		 "kvm_amd: both kvm_exit tables counted");
	return "";
}

static int sources_setup(struct probe *p, struct vx_priv *v, const char *dir)
{
	struct kvm_reasons rx = { 0 }, ru = { 0 };
	char err[PATH_MAX + 64];
	const char *isa = host_isa(v);
	int t, ret = kvm_reasons_load(dir, VMEXIT_KVM_EXIT, "exit_reason", &rx, err, sizeof(err));

	ret = ret ?: kvm_reasons_load(dir, VMEXIT_USERSPACE, "reason", &ru, err, sizeof(err));
	if (ret) {
		kvm_reasons_free(&rx);
		return probe_error(p, ret, "%s", err);
	}
	for (t = 0; !ret && t < rx.ntables; t++)
		if (!*isa || !strcmp(rx.tables[t].isa, isa))
			ret = src_fill(&v->src[v->nsrc++], VMEXIT_KVM_EXIT, "exit_reason", &rx, t,
				       v->by_class);
	ret = ret ?: src_fill(&v->src[v->nsrc++], VMEXIT_USERSPACE, "reason", &ru, 0,
			      v->by_class);
	t = kvm_reasons_table(&rx, "svm");
	if (!ret && !strcmp(isa, "svm") && t >= 0) {
		snprintf(err, sizeof(err), "%s/events/kvm/%s", dir, VMEXIT_VMGEXIT);
		if (!access(err, F_OK)) {
			ret = src_fill(&v->src[v->nsrc], VMEXIT_VMGEXIT, "exit_reason", &rx, t,
				       v->by_class);
			v->src[v->nsrc++].filter[0] = '\0';   /* every GHCB code, no isa */
		}
	}
	kvm_reasons_free(&rx);
	kvm_reasons_free(&ru);
	return ret ? probe_error(p, ret, "out of memory") : 0;
}

/* Every source's counters and snapshots closed (tc NULL: none open). */
static void counters_close(struct vx_priv *v)
{
	struct vx_src *s;
	int k, i;

	vx_time_close(&v->time);
	for (k = 0; k < v->nsrc; k++) {
		s = &v->src[k];
		tpcount_close(s->tc);
		s->tc = NULL;
		for (i = 0; i < 4; i++)
			tpcount_snap_free(&s->snap[i / 2][i % 2]);
	}
}

static void vx_close(struct probe *p)
{
	struct vx_priv *v = p->priv;
	struct vx_src *s;
	size_t i;
	int k;

	if (!v)
		return;
	counters_close(v);
	vx_kstats_close(&v->ks);
	for (k = 0; k < v->nsrc; k++) {
		s = &v->src[k];
		for (i = 0; i < s->n; i++) {
			free(s->names[i]);
			if (s->filters)
				free(s->filters[i]);
		}
		free(s->names);
		free(s->filters);
		free(s->codes);
		free(s->map);
	}
	free(v);
	p->priv = NULL;
}

static int vx_open(struct probe *p)
{
	struct vx_priv *v;
	char why[256], dir[PATH_MAX];
	int ret;

	/* the probe set asked already; asked again for a probe opened alone */
	if (!vx_cell_supported(p->target->cell, p->target->accel, why, sizeof(why)))
		return probe_error(p, -ENOTSUP, "%s", why);
	ret = tracefs_host_dir(dir, sizeof(dir), why, sizeof(why));
	if (ret)
		return probe_error(p, ret, "%s", why);
	v = calloc(1, sizeof(*v));
	if (!v)
		return -ENOMEM;
	p->priv = v;
	v->by_class = strcmp(p->target->cell->vmexit_detail, "reason") != 0;
	v->time_on = !strcmp(p->target->cell->vmexit_time, "on");
	ret = sources_setup(p, v, dir);
	if (ret)
		vx_close(p);
	return ret;
}

static double ns_between(const long long *a, const long long *b)
{
	return (double)(*b - *a);
}

/*
 * Source @s counted by reason with the bpf method for every thread of the
 * processes @t->pids, the rest of the codes last; or why not in @note
 * (the first source's reason only: they share it).
 */
static int src_open_bpf(struct vx_src *s, const struct probe_target *t, char *note,
			size_t notelen)
{
	struct tpcount_spec spec = { "kvm", s->event, s->field,
				     s->filter[0] ? s->filter : NULL, s->codes, s->ncodes + 1,
				     NULL };
	char why[300] = "";
	int ret = -EOPNOTSUPP;

	if (fault("nobpf"))
		snprintf(why, sizeof(why), "the bpf method not tried (test fault nobpf)");
	else
		ret = tpcount_open(&s->tc, &spec, t->pids, (size_t)t->npids,
				   TPCOUNT_TGID | TPCOUNT_REST, why, sizeof(why));
	s->bpf = !ret;
	if (ret && !note[0])
		snprintf(note, notelen, "%s: perf-filter counters, not bpf: %s", s->event, why);
	return ret;
}

/* Source @s's counters (bpf, else on @n threads @tids), its snapshots, enabled. */
static int src_open(struct vx_src *s, int k, const struct probe_target *t, const pid_t *tids,
		    size_t n, char *note, size_t notelen, char *err, size_t len)
{
	const char *f = fault("open");
	struct tpcount_spec spec = { "kvm", s->event, s->field,
				     s->filter[0] ? s->filter : NULL, s->codes, s->n,
				     (const char *const *)s->filters };
	int i, ret;

	if (f && atoi(f) == k) {
		snprintf(err, len, "%s: too many open files (test fault open@%d)", s->event, k);
		return -EMFILE;
	}
	ret = src_open_bpf(s, t, note, notelen) ?
	      tpcount_open(&s->tc, &spec, tids, n, TPCOUNT_INHERIT, err, len) : 0;
	for (i = 0; !ret && i < 4; i++)
		ret = tpcount_snap_init(s->tc, &s->snap[i / 2][i % 2]);
	return ret ?: tpcount_enable(s->tc);
}

/*
 * vmexit-time = on: kvm_exit and kvm_entry of the @n threads @tids streamed
 * (vmexit-time.c). A failure is no error of the probe: its rows then have
 * no time, and the cell says why (v->time.why).
 */
static void time_open(struct vx_priv *v, const pid_t *tids, size_t n)
{
	char dir[PATH_MAX], why[200];

	v->time_inv_why[0] = '\0';
	if (tracefs_host_dir(dir, sizeof(dir), why, sizeof(why))) {
		snprintf(v->time.why, sizeof(v->time.why), "no exit-handling time: %s", why);
		return;
	}
	vx_time_open(&v->time, dir, tids, n);
}

/* Window @w's start (@end 0) or stop marked in the time stream, if it is on. */
static void time_mark(struct vx_priv *v, int w, int end)
{
	/* a failure stops the reader, frees the queue and says why in v->time.why */
	if (v->time_on && !v->time.why[0])
		vx_time_mark(&v->time, w, end);
}

/*
 * Counters on every thread of the cell's VM processes, enabled: every
 * source, or (on any failure) none.
 */
static int counters_open(struct probe *p, struct vx_priv *v)
{
	const struct probe_target *t = p->target;
	char err[512] = "";
	pid_t *tids = NULL;
	size_t n = 0;
	int k, ret;

	counters_close(v);
	if (!t->npids)
		return probe_error(p, -ESRCH, "no VM process when the cell window opened "
				   "(cold mode starts VMs inside the windows)");
	ret = proc_tasks(t->pids, (size_t)t->npids, NULL, &tids, &n);
	if (ret)
		return probe_error(p, ret, "threads of the VM processes: %s", strerror(-ret));
	v->nthreads = n;
	v->bpf_note[0] = '\0';
	for (k = 0; !ret && k < v->nsrc; k++)
		ret = src_open(&v->src[k], k, t, tids, n, v->bpf_note, sizeof(v->bpf_note), err,
			       sizeof(err));
	if (!ret && v->time_on)
		time_open(v, tids, n);
	free(tids);
	if (!ret && vx_kstats_open(&v->ks, t->pids, t->npids))
		ret = -ENOMEM;
	if (!ret)
		return 0;
	counters_close(v);
	return probe_error(p, ret, "%s", ret == -ENOMEM ? "out of memory" :
			   err[0] ? err : strerror(-ret));
}

/* Whether every source has its counters open. */
static int counters_ready(const struct vx_priv *v)
{
	int k;

	for (k = 0; k < v->nsrc; k++)
		if (!v->src[k].tc)
			return 0;
	return v->nsrc > 0;
}

/*
 * A VM process that ended (or is a zombie) before the window closed: the
 * counts of its exited threads stay readable, so only this tells.
 */
static int vm_gone(const struct probe_target *t)
{
	int i;

	for (i = 0; i < t->npids; i++)
		if (procmem_ended(t->pids[i]))
			return (int)t->pids[i];
	return 0;
}

/* Every source's counters into snapshot [w][end], timed. */
static int read_all(struct probe *p, struct vx_priv *v, int w, int end)
{
	long long a, b;
	int k, ret = 0;

	if (!counters_ready(v))
		return probe_error(p, -ENODEV, "no counters (the cell window's start failed)");
	if (!end)                 /* QMP's own exits before the counted window */
		vx_kstats_read(&v->ks, w, 0);
	a = clock_now_ns();
	for (k = 0; !ret && k < v->nsrc; k++) {
		ret = tpcount_read(v->src[k].tc, &v->src[k].snap[w][end]);
		if (!ret && v->src[k].snap[w][end].gone)
			return probe_error(p, -EIO, "counters of a VM thread could not be read");
		if (!ret && end && v->src[k].snap[w][1].lost != v->src[k].snap[w][0].lost)
			return probe_error(p, -EIO, "the trace buffer dropped %llu %s events in "
					   "the window (trace-stream method)",
					   (unsigned long long)(v->src[k].snap[w][1].lost -
								v->src[k].snap[w][0].lost),
					   v->src[k].event);
	}
	b = clock_now_ns();
	if (!ret)
		time_mark(v, w, end);
	if (end && !ret)          /* ... and after it */
		vx_kstats_read(&v->ks, w, 1);
	v->t[w][end] = end ? a : b;   /* the window: between the reads */
	v->read_ns[w] = (end ? v->read_ns[w] : 0) + ns_between(&a, &b);
	return ret ? probe_error(p, ret, "reading the counters: %s", strerror(-ret)) : 0;
}

static int vx_start(struct probe *p, enum probe_window w)
{
	struct vx_priv *v = p->priv;
	int ret;

	if (w == PROBE_WINDOW_CELL && (ret = counters_open(p, v)))
		return ret;
	return read_all(p, v, w == PROBE_WINDOW_INVOCATION, 0);
}

static int vx_stop(struct probe *p, enum probe_window w)
{
	struct vx_priv *v = p->priv;
	int ret = read_all(p, v, w == PROBE_WINDOW_INVOCATION, 1), gone;

	if (!ret && (gone = vm_gone(p->target)))
		return probe_error(p, -ESRCH, "VM process %d exited before the window "
				   "closed: the window is not one of a running VM", gone);
	return ret;
}

/* The index of class @c in class_names (other when unknown). */
static int class_of(const char *c)
{
	size_t i;

	for (i = 0; i < NCLASS - 1 && strcmp(c, class_names[i]); i++)
		;
	return (int)i;
}

static int class_idx(const char *name)
{
	return (int)kvm_reason_class(name);
}

/* "<event>[.<isa>].<name>" with blanks as underscores ("DE excp"). */
static void metric_name(char *buf, size_t len, const struct vx_src *s, const char *name)
{
	char *c;

	snprintf(buf, len, "%s%s%s.%s", s->event, s->isa[0] ? "." : "", s->isa, name);
	for (c = buf; *c; c++)
		if (*c == ' ')
			*c = '_';
}

/* @count, and its rate if the window has a length (else none: vx_emit notes why). */
static int put(struct sink *sk, const char *name, double count, double secs)
{
	char rate[200];

	snprintf(rate, sizeof(rate), "%s" VMEXIT_RATE, name);
	return sink_metric(sk, name, count, "count") ?:
	       secs > 0 ? sink_metric(sk, rate, count / secs, "1/s") : 0;
}

/*
 * Counter @i of source @s (a reason or class, the last the total) in window
 * @w: with bpf the sum of its reasons' counts (the total: of every count,
 * the rest too).
 */
static long long src_count(const struct vx_src *s, int w, size_t i)
{
	const struct tpcount_snap *a = &s->snap[w][0], *b = &s->snap[w][1];
	long long c = 0;
	size_t j;

	if (!s->bpf)
		return (long long)tpcount_diff(s->tc, a, b, i, -1);
	for (j = 0; j <= s->ncodes; j++)
		if (i == s->n - 1 || (j < s->ncodes && s->map[j] == (int)i))
			c += (long long)tpcount_diff(s->tc, a, b, j, -1);
	return c;
}

/*
 * Source @s's window @w into @tot (its "total" counter) and @cls ("other"
 * is the total less the other classes: also codes no table names); by
 * reason each nonzero reason is also a metric through @sk when not NULL.
 */
static int src_tally(struct sink *sk, const struct vx_src *s, int w, double secs,
		     double *tot, double *cls)
{
	char name[200];
	double c, sum = 0;
	size_t i;
	int ret = 0;

	for (i = 0; i < s->n && !ret; i++) {
		c = (double)src_count(s, w, i);
		if (i == s->n - 1) {           /* "total" */
			cls[CLASS_OTHER] += c - sum;
			*tot += c;
			break;
		}
		sum += c;
		cls[s->by_class ? class_of(s->names[i]) : class_idx(s->names[i])] += c;
		if (s->by_class || !c || !sk)
			continue;
		metric_name(name, sizeof(name), s, s->names[i]);
		ret = put(sk, name, c, secs);
	}
	return ret;
}

static int emit_classes(struct sink *sk, const char *event, const double *cls, double secs)
{
	char name[128];
	size_t i;
	int ret = 0;

	for (i = 0; i < NCLASS && !ret; i++)
		if (cls[i] > 0) {
			snprintf(name, sizeof(name), "%s" VMEXIT_CLASS "%s", event, class_names[i]);
			ret = put(sk, name, cls[i], secs);
		}
	return ret;
}

/* Every source of @event: its reasons (if @sk), total and classes. */
static int emit_event(struct vx_priv *v, struct sink *sk, const char *event, int w,
		      double secs, double *tot)
{
	double cls[NCLASS] = { 0 };
	char name[96];
	int k, ret = 0, any = 0;

	*tot = 0;
	for (k = 0; k < v->nsrc && !ret; k++)
		if (!strcmp(v->src[k].event, event)) {
			any = 1;
			ret = src_tally(sk, &v->src[k], w, secs, tot, cls);
		}
	if (!sk || !any || ret)
		return ret;
	snprintf(name, sizeof(name), "%s" VMEXIT_TOTAL, event);
	return put(sk, name, *tot, secs) ?: emit_classes(sk, event, cls, secs);
}

/* Why kvm_exit counted nothing while the VM made @user exits to user space. */
static void kvm_exit_why(char *why, size_t len, double user)
{
	snprintf(why, len, "kvm:kvm_exit counted no exit while the VM made %.0f "
		 "exits to user space: %s", user, user > 0 ?
		 "this kernel's KVM does not trace kvm_exit (e.g. a PVM host)" :
		 "the VM did not run, or the kernel does not trace its exits");
}

/* kvm_exit's rows, or a skip when it counted nothing (never a zero). */
static int emit_kvm_exit(struct vx_priv *v, struct sink *sk, int w, double secs,
			 double user)
{
	char why[256];
	double tot;

	emit_event(v, NULL, VMEXIT_KVM_EXIT, w, secs, &tot);
	if (tot > 0)
		return emit_event(v, sk, VMEXIT_KVM_EXIT, w, secs, &tot);
	kvm_exit_why(why, sizeof(why), user);
	return sink_skip(sk, why);
}

/* A vmexit table row of source @s: counter @i (or, @i past it, the rest). */
static int src_row(struct sink *sk, const struct vx_src *s, size_t i, long long c,
		   long long time_ns, const char *fid, const char *skip)
{
	struct vmexit_row r;
	int total = i == s->n - 1, rest = i >= s->n;

	vmexit_row_init(&r, "tracepoint", tpcount_method_name(tpcount_method(s->tc)),
			s->event);
	r.isa = s->isa[0] ? s->isa : NULL;
	r.reason_name = rest ? (s->by_class ? "other" : "(not in the kernel's table)") :
			s->names[i];
	if (rest)
		r.class = "other";
	else if (!total)
		r.class = s->by_class ? s->names[i] : class_names[kvm_reason_class(s->names[i])];
	r.reason_code = rest || total || s->by_class ? -1 : (long long)s->codes[i];
	r.count = skip ? -1 : c;
	r.time_ns = skip ? -1 : time_ns;
	r.counters_per_event = s->bpf ? 1 : (long long)s->n;   /* bpf: one program */
	if (s->event_ns > 0)
		r.cost_ns_per_event = s->event_ns;
	r.fidelity = total ? fid : NULL;
	r.skip = skip;
	return vmexit_put(sk, &r);
}

/* The isa number of kvm_exit records of source @s ("isa == N"; 0: no isa). */
static uint32_t src_isa(const struct vx_src *s)
{
	unsigned int isa = 0;

	return sscanf(s->filter, "isa == %u", &isa) == 1 ? isa : 0;
}

/*
 * Window @w's exit-handling ns of counter @i of kvm_exit source @s (its
 * reasons: a reason, a class's, every code for the total, and past the
 * total, the rest: the total less the named), -1 where unknown (the
 * probe's note says why) or vmexit-time is off.
 */
static long long src_time(const struct vx_priv *v, const struct vx_src *s, int w, size_t i)
{
	unsigned long long codes[s->ncodes + 1];
	long long all, named;
	uint64_t pairs;
	char why[256];
	size_t j, n = 0;

	if (!v->time_on || strcmp(s->event, VMEXIT_KVM_EXIT))
		return -1;
	if (i == s->n - 1)
		return vx_time_window(&v->time, w, src_isa(s), NULL, 0, &pairs, why, sizeof(why));
	for (j = 0; j < s->ncodes; j++)
		if (i >= s->n ? s->map[j] >= 0 : s->map[j] == (int)i)
			codes[n++] = s->codes[j];
	if (!n && i >= s->n)
		return src_time(v, s, w, s->n - 1);
	named = n ? vx_time_window(&v->time, w, src_isa(s), codes, n, &pairs, why,
				   sizeof(why)) : -1;
	if (i < s->n)
		return named;
	all = src_time(v, s, w, s->n - 1);
	return all < 0 ? -1 : all - (named < 0 ? 0 : named);
}

/*
 * Source @s's rows of window @w: each counter that counted (a reason, or a
 * class), its total (with @fid, the fidelity flag, if any) and the rest
 * the counters do not name; or one total row with @skip. With vmexit-time
 * = on, kvm_exit's rows carry their handling time.
 */
static int src_rows(const struct vx_priv *v, struct sink *sk, const struct vx_src *s,
		    int w, const char *fid, const char *skip)
{
	long long c, sum = 0;
	size_t i;
	int ret = 0;

	if (skip)
		return src_row(sk, s, s->n - 1, -1, -1, NULL, skip);
	for (i = 0; i < s->n && !ret; i++) {
		c = src_count(s, w, i);
		if (i < s->n - 1) {
			sum += c;
			ret = c ? src_row(sk, s, i, c, src_time(v, s, w, i), NULL, NULL) : 0;
			continue;
		}
		ret = src_row(sk, s, i, c, src_time(v, s, w, i), fid, NULL);
		if (!ret && c > sum)
			ret = src_row(sk, s, s->n, c - sum, src_time(v, s, w, s->n), NULL, NULL);
	}
	return ret;
}

/*
 * The vmexit table's rows of window @w: KVM's statistics per VM, then every
 * source's counts; kvm_exit's total flagged where it and KVM's exits differ
 * by more than VMEXIT_FIDELITY_PCT, and a skip row where it counted nothing.
 */
static int emit_rows(struct vx_priv *v, struct sink *sk, int w, double user)
{
	char why[256], fid[200];
	const char *skip = NULL, *f = NULL;
	double tot, exits, kicks;
	int k, kx, ret = vx_kstats_emit(&v->ks, sk, w, &exits, &kicks);

	emit_event(v, NULL, VMEXIT_KVM_EXIT, w, 0, &tot);
	if (tot <= 0) {
		kvm_exit_why(why, sizeof(why), user);
		skip = why;
	} else if (exits >= 0 && vmexit_fidelity(tot, exits, kicks, fid, sizeof(fid))) {
		f = fid;
	}
	for (k = 0; k < v->nsrc && !ret; k++) {
		kx = !strcmp(v->src[k].event, VMEXIT_KVM_EXIT);
		ret = src_rows(v, sk, &v->src[k], w, kx ? f : NULL, kx ? skip : NULL);
	}
	return ret ?: f ? sink_metric(sk, VMEXIT_FLAG_FIDELITY, 1, "count") : 0;
}

static int emit_notes(struct vx_priv *v, struct sink *sk)
{
	char buf[96];
	int ret;

	snprintf(buf, sizeof(buf), "%zu", v->nthreads);
	ret = sink_note(sk, VMEXIT_NOTE_METHOD, tpcount_method_name(tpcount_method(v->src[0].tc)));
	ret = ret ?: sink_note(sk, VMEXIT_NOTE_THREADS, buf);
	ret = ret ?: sink_note(sk, VMEXIT_NOTE_DETAIL, v->by_class ? "class" : "reason");
	ret = ret ?: v->isa_note[0] ? sink_note(sk, "isa", v->isa_note) : 0;
	return ret ?: v->bpf_note[0] ? sink_note(sk, VMEXIT_NOTE_NO_BPF, v->bpf_note) : 0;
}

/*
 * What each kvm_exit costs a counted vCPU thread, measured after the cell
 * (the cell window only: it takes ~30 ms, never between invocations) for
 * the method and the @per_exit counters kvm_exit's sources use.
 */
/* A measured cost per event: its median and interval, as three metrics. */
static int emit_shape_cost(struct sink *sk, const char *name, const char *lo, const char *hi,
			   const struct tpcount_shape_cost *c)
{
	return sink_metric(sk, name, c->ns, "ns") ?: sink_metric(sk, lo, c->lo, "ns") ?:
	       sink_metric(sk, hi, c->hi, "ns");
}

static int emit_event_cost(struct vx_priv *v, struct sink *sk, size_t per_exit)
{
	enum tpcount_method m = TPCOUNT_PERF_FILTER;
	struct tpcount_shape_cost c;
	char why[256];
	int k;

	for (k = 0; k < v->nsrc; k++)
		if (!strcmp(v->src[k].event, VMEXIT_KVM_EXIT))
			m = tpcount_method(v->src[k].tc);
	if (tpcount_shape_cost(m, m == TPCOUNT_PERF_FILTER ? per_exit : 1, &c, why,
			       sizeof(why)))
		return sink_note(sk, VMEXIT_NOTE_COST, why);
	for (k = 0; k < v->nsrc; k++)
		if (!strcmp(v->src[k].event, VMEXIT_KVM_EXIT))
			v->src[k].event_ns = c.ns; /* the cell window's vmexit rows carry it */
	return emit_shape_cost(sk, VMEXIT_EVENT_NS, VMEXIT_EVENT_NS_LO, VMEXIT_EVENT_NS_HI, &c);
}

/* The probe's cost: counters open, counters each exit passes, read time. */
static int emit_cost(struct vx_priv *v, struct sink *sk, int w)
{
	double counters = 0, per_exit = 0;
	int k;

	for (k = 0; k < v->nsrc; k++) {
		counters += (double)tpcount_ncounters(v->src[k].tc);
		if (!strcmp(v->src[k].event, VMEXIT_KVM_EXIT))
			per_exit += v->src[k].bpf ? 1 : (double)v->src[k].n;
	}
	return sink_metric(sk, VMEXIT_COUNTERS, counters, "count") ?:
	       sink_metric(sk, VMEXIT_PER_EXIT, per_exit, "count") ?:
	       sink_metric(sk, VMEXIT_READ_NS, v->read_ns[w], "ns") ?:
	       (v->ks.n ? sink_metric(sk, VMEXIT_STATS_READ_NS, v->ks.read_ns[w], "ns") : 0) ?:
	       (w ? 0 : emit_event_cost(v, sk, (size_t)per_exit));
}

/* Why window @w of kvm_exit source @s has no handling time, or "" if it has. */
static void time_why(const struct vx_priv *v, int w, char *why, size_t len)
{
	const struct vx_src *s = NULL;
	uint64_t pairs;
	double tot;
	int k;

	why[0] = '\0';
	for (k = 0; k < v->nsrc && !s; k++)
		if (!strcmp(v->src[k].event, VMEXIT_KVM_EXIT))
			s = &v->src[k];
	emit_event((struct vx_priv *)v, NULL, VMEXIT_KVM_EXIT, w, 0, &tot);
	if (v->time.why[0])       /* the stream never opened (or failed): its reason */
		snprintf(why, len, "%s", v->time.why);
	else if (!s || tot <= 0)
		snprintf(why, len, "no exit-handling time: kvm:kvm_exit counted no exit in the "
			 "window (this kernel's KVM does not trace it, or the VM made none)");
	else if (vx_time_window(&v->time, w, src_isa(s), NULL, 0, &pairs, why, len) >= 0)
		why[0] = '\0';
}

/*
 * vmexit-time = on: what streaming cost in window @w (records streamed,
 * records the buffer dropped, at the cell window the trace-stream method's
 * ns per event), and why a window has no time: a note (the cell's, and the
 * first invocation's) and the metric VMEXIT_FLAG_TIME.
 */
static int emit_time(struct vx_priv *v, struct sink *sk, int w)
{
	const struct vx_time_mark *a = &v->time.at[w][0], *b = &v->time.at[w][1];
	char why[256], cwhy[256];
	struct tpcount_shape_cost c;
	int ret = 0;

	if (!v->time_on)
		return 0;
	time_why(v, w, why, sizeof(why));
	if (!v->time.why[0])
		ret = sink_metric(sk, VMEXIT_TIME_EVENTS, (double)(b->events - a->events),
				  "count") ?:
		      sink_metric(sk, VMEXIT_TIME_LOST, (double)(b->lost - a->lost), "count");
	if (!ret && why[0])
		ret = sink_metric(sk, VMEXIT_FLAG_TIME, 1, "count");
	if (ret || w) {
		if (why[0] && !v->time_inv_why[0])
			snprintf(v->time_inv_why, sizeof(v->time_inv_why), "%s", why);
		return ret;
	}
	if (tpcount_shape_cost(TPCOUNT_TRACE_STREAM, 1, &c, cwhy, sizeof(cwhy)))
		ret = sink_note(sk, VMEXIT_NOTE_TIME_COST, cwhy);
	else
		ret = emit_shape_cost(sk, VMEXIT_TIME_EVENT_NS, VMEXIT_TIME_EVENT_NS_LO,
				      VMEXIT_TIME_EVENT_NS_HI, &c);
	ret = ret ?: why[0] ? sink_note(sk, VMEXIT_NOTE_TIME, why) : 0;
	return ret ?: v->time_inv_why[0] ? sink_note(sk, VMEXIT_NOTE_TIME_INV,
						     v->time_inv_why) : 0;
}

static int vx_emit(struct probe *p, enum probe_window win, struct sink *sk)
{
	struct vx_priv *v = p->priv;
	int w = win == PROBE_WINDOW_INVOCATION, ret = 0;
	double secs = ns_between(&v->t[w][0], &v->t[w][1]) / 1e9, user = 0, g = 0;
	char why[160];

	if (fault("window0"))
		secs = 0;
	if (secs <= 0) {
		snprintf(why, sizeof(why), "the %s window measured %.0f ns long: counts "
			 "without a rate per second", w ? "invocation" : "cell", secs * 1e9);
		ret = sink_note(sk, VMEXIT_NOTE_NO_RATE, why);
	}
	ret = ret ?: emit_event(v, sk, VMEXIT_USERSPACE, w, secs, &user) ?:
	      emit_event(v, sk, VMEXIT_VMGEXIT, w, secs, &g) ?:
	      emit_kvm_exit(v, sk, w, secs, user) ?: emit_cost(v, sk, w) ?:
	      emit_rows(v, sk, w, user) ?: emit_time(v, sk, w);
	if (!ret && !w)
		ret = emit_notes(v, sk);
	return ret ? probe_error(p, ret, "cannot store the vmexit metrics") : 0;
}

const struct probe_ops probe_vmexit = {
	.version = PROBE_OPS_VERSION,
	.name = "vmexit",
	.measures = "VM exits of the cell's VMs by reason (kvm_exit by isa and exit_reason, "
		    "kvm_userspace_exit, kvm_vmgexit_enter), per window, with filtered perf "
		    "tracepoint counters",
	.windows = PROBE_WINDOW_CELL | PROBE_WINDOW_INVOCATION,
	.side = PROBE_HOST,
	.supported = vx_supported,
	.cell_supported = vx_cell_supported,
	.open = vx_open,
	.start = vx_start,
	.stop = vx_stop,
	.emit = vx_emit,
	.close = vx_close,
};

#else /* !HAVE_TRACEFS */

static int vx_unsupported(char *why, size_t len)
{
	snprintf(why, len, "unsupported: built without libtracefs");
	return 0;
}

const struct probe_ops probe_vmexit = {
	.version = PROBE_OPS_VERSION,
	.name = "vmexit",
	.measures = "VM exits of the cell's VMs by reason, per window",
	.windows = PROBE_WINDOW_CELL | PROBE_WINDOW_INVOCATION,
	.side = PROBE_HOST,
	.supported = vx_unsupported,
};

#endif
