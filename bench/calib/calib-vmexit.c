// SPDX-License-Identifier: MIT
/*
 * calib-vmexit.c - the micro-VM (kvm-toy.h) makes, in window w, io(w)
 * port writes, mmio(w) MMIO writes and hlt(w) HLTs, plus the one write
 * that ends its run. Its vCPU thread (this one) is counted with the
 * counting engine on kvm:kvm_userspace_exit by reason (every one of these
 * exits reaches user space: no in-kernel irqchip) and on kvm:kvm_exit by
 * reason, with the VMX and the SVM tables' conditions; KVM's binary
 * statistics of the vCPU are read at the same boundaries. Reason codes
 * come from the running kernel's formats (kvm-reasons.h), by name.
 * Every count must be exact; kvm_exit is not checked (and says so) when
 * it never fired while user-space exits did (a PVM host: kvm_pvm).
 */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "calib-vmexit.h"
#include "kvm-reasons.h"
#include "kvm-stats.h"
#include "kvm-toy.h"
#include "tpcount.h"
#include "tracefs-host.h"
#include "vmexit-metrics.h"

enum { K_IO, K_MMIO, K_HLT, K_N };

/* One counted source: an event with its codes for io, mmio, hlt. */
struct src {
	const char *label;        /* the event, and for kvm_exit the isa */
	unsigned long long code[K_N];
	int ncodes;               /* K_N, or K_N - 1 without mmio (kvm_exit) */
	struct tpcount *tc;
	struct tpcount_snap a, b;
};

static const char *const stat_names[K_N + 1] = { "io_exits", "mmio_exits", "halt_exits",
						 "exits" };

static long want(const struct calib_vmexit_opts *o, int w, int k)
{
	return k == K_IO ? o->io * (w + 1) : k == K_MMIO ? 10L * (w + 1) + 3 : 2L * w + 1;
}

/* The code of @name in table @t of @rs, or -1. */
static long long code_of(const struct kvm_reasons *rs, int t, const char *name)
{
	size_t i;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i].table == t && !strcmp(rs->r[i].name, name))
			return (long long)rs->r[i].code;
	return -1;
}

static int src_open(struct src *s, const char *ev, const char *field, const char *extra,
		    char *why, size_t len)
{
	struct tpcount_spec spec = { "kvm", ev, field, extra, s->code, (size_t)s->ncodes,
				     NULL };
	pid_t self = (pid_t)syscall(SYS_gettid);
	int ret = tpcount_open(&s->tc, &spec, &self, 1, 0, why, len);

	ret = ret ?: tpcount_snap_init(s->tc, &s->a);
	ret = ret ?: tpcount_snap_init(s->tc, &s->b);
	return ret ?: tpcount_enable(s->tc);
}

static void src_close(struct src *s)
{
	tpcount_close(s->tc);
	tpcount_snap_free(&s->a);
	tpcount_snap_free(&s->b);
}

struct calib {
	const struct calib_vmexit_opts *o;
	struct kvm_toy *vm;
	struct src src[3];
	int nsrc;
	uint64_t fired[3];        /* events each source counted, all windows */
	uint64_t stat_seen[K_N + 1];
	int bad;
};

/* The codes of the names in @names (K_IO, K_MMIO, K_HLT order; NULL: none). */
static int src_codes(struct src *s, const struct kvm_reasons *rs, int t,
		     const char *const names[K_N], char *why, size_t len)
{
	long long c;
	int k;

	s->ncodes = 0;
	for (k = 0; k < K_N; k++) {
		if (!names[k])
			continue;
		c = code_of(rs, t, names[k]);
		if (c < 0) {
			snprintf(why, len, "the kernel's %s table has no %s", s->label, names[k]);
			return -ENOENT;
		}
		s->code[s->ncodes++] = (unsigned long long)c;
	}
	return 0;
}

/* The three sources, their codes named by the running kernel's formats. */
static int sources_open(struct calib *c, char *why, size_t len)
{
	static const char *const us[K_N] = { "KVM_EXIT_IO", "KVM_EXIT_MMIO", "KVM_EXIT_HLT" };
	static const char *const vmx[K_N] = { "IO_INSTRUCTION", NULL, "HLT" };
	static const char *const svm[K_N] = { "io", NULL, "hlt" };
	struct kvm_reasons ru, rx;
	char dir[PATH_MAX];
	int ret = tracefs_host_dir(dir, sizeof(dir), why, len);

	ret = ret ?: kvm_reasons_load(dir, VMEXIT_USERSPACE, "reason", &ru, why, len);
	if (ret)
		return ret;
	ret = kvm_reasons_load(dir, VMEXIT_KVM_EXIT, "exit_reason", &rx, why, len);
	c->src[0].label = VMEXIT_USERSPACE;
	c->src[1].label = VMEXIT_KVM_EXIT " vmx";
	c->src[2].label = VMEXIT_KVM_EXIT " svm";
	ret = ret ?: src_codes(&c->src[0], &ru, 0, us, why, len);
	ret = ret ?: src_codes(&c->src[1], &rx, kvm_reasons_table(&rx, "vmx"), vmx, why, len);
	ret = ret ?: src_codes(&c->src[2], &rx, kvm_reasons_table(&rx, "svm"), svm, why, len);
	ret = ret ?: src_open(&c->src[0], VMEXIT_USERSPACE, "reason", NULL, why, len);
	c->nsrc = ret ? 0 : 1;
	ret = ret ?: src_open(&c->src[1], VMEXIT_KVM_EXIT, "exit_reason",
			      rx.tables[kvm_reasons_table(&rx, "vmx")].filter, why, len);
	c->nsrc = ret ? c->nsrc : 2;
	ret = ret ?: src_open(&c->src[2], VMEXIT_KVM_EXIT, "exit_reason",
			      rx.tables[kvm_reasons_table(&rx, "svm")].filter, why, len);
	c->nsrc = ret ? c->nsrc : 3;
	kvm_reasons_free(&ru);
	kvm_reasons_free(&rx);
	return ret;
}

static void line(FILE *out, int w, const char *src, const char *what, long req,
		 uint64_t got, const char *verdict)
{
	fprintf(out, "%6d  %-28s %-6s %10ld %10llu  %s\n", w, src, what, req,
		(unsigned long long)got, verdict);
}

/* Source @i's counts of window @w against what was asked. */
static void check_src(struct calib *c, int i, int w, FILE *out)
{
	static const char *const kname[K_N] = { "io", "mmio", "hlt" };
	struct src *s = &c->src[i];
	int v, k;
	long req;
	uint64_t got;

	for (v = 0, k = 0; v < s->ncodes; v++, k++) {
		if (i > 0 && k == K_MMIO)
			k++;      /* kvm_exit: io and hlt only */
		req = want(c->o, w, k) + (k == K_IO);    /* + the done write */
		got = tpcount_diff(s->tc, &s->a, &s->b, (size_t)v, -1);
		c->fired[i] += got;
		/* kvm_exit: one isa's table fires, or none (a PVM host) */
		c->bad |= got != (uint64_t)req && (i == 0 || got != 0);
		line(out, w, s->label, kname[k], req, got, got == (uint64_t)req ? "ok" :
		     i && !got ? "none" : "MISMATCH");
	}
}

/* KVM's own statistics of the vCPU over the window. */
static void check_stats(struct calib *c, const uint64_t *a, const uint64_t *b, int w,
			FILE *out)
{
	int k;
	long req;
	uint64_t got;

	for (k = 0; k < K_N; k++) {
		req = want(c->o, w, k) + (k == K_IO);
		if (a[k] == UINT64_MAX || b[k] == UINT64_MAX) {
			line(out, w, "kvm stats", stat_names[k], req, 0, "absent");
			continue;
		}
		got = b[k] - a[k];
		c->stat_seen[k] += got;
		c->bad |= got != (uint64_t)req && got != 0;
		line(out, w, "kvm stats", stat_names[k], req, got,
		     got == (uint64_t)req ? "ok" : got ? "MISMATCH" : "none");
	}
}

static int one_window(struct calib *c, int w, FILE *out, char *why, size_t len)
{
	struct kvm_toy_run r = { (uint32_t)want(c->o, w, K_IO), (uint32_t)want(c->o, w, K_MMIO),
				 (uint32_t)want(c->o, w, K_HLT), 0, 0, 0, 0, 0 };
	uint64_t sa[K_N + 1], sb[K_N + 1];
	int i, ret = 0;

	kvm_stats_read(kvm_toy_vcpu_fd(c->vm), stat_names, K_N + 1, sa);
	for (i = 0; i < c->nsrc && !ret; i++)
		ret = tpcount_read(c->src[i].tc, &c->src[i].a);
	ret = ret ?: kvm_toy_exec(c->vm, &r, why, len);
	for (i = 0; i < c->nsrc && !ret; i++)
		ret = tpcount_read(c->src[i].tc, &c->src[i].b);
	kvm_stats_read(kvm_toy_vcpu_fd(c->vm), stat_names, K_N + 1, sb);
	if (ret)
		return ret;
	line(out, w, "micro-VM (user space saw)", "io", (long)r.io + 1, (uint64_t)r.seen_io +
	     (uint64_t)r.seen_done, r.seen_io == r.io && r.seen_done == 1 ? "ok" : "MISMATCH");
	c->bad |= r.seen_io != r.io || r.seen_mmio != r.mmio || r.seen_hlt != r.hlt;
	for (i = 0; i < c->nsrc; i++)
		check_src(c, i, w, out);
	check_stats(c, sa, sb, w, out);
	return 0;
}

static void summary(struct calib *c, FILE *out)
{
	int i;

	fprintf(out, "counted with:");
	for (i = 0; i < c->nsrc; i++)
		fprintf(out, "%s %s %s", i ? ";" : "", c->src[i].label,
			tpcount_method_name(tpcount_method(c->src[i].tc)));
	fprintf(out, "\n");
	if (!c->fired[1] && !c->fired[2])
		fprintf(out, "kvm:kvm_exit did not fire for %llu user-space exits: this "
			"kernel's KVM does not trace it (e.g. a PVM host, kvm_pvm); "
			"not checked\n", (unsigned long long)c->fired[0]);
	if (!c->stat_seen[0] && !c->stat_seen[2])
		fprintf(out, "KVM's statistics did not count these exits: not checked\n");
}

int calib_vmexit(const struct calib_vmexit_opts *o, FILE *out, char *why, size_t whylen)
{
	struct calib c = { .o = o };
	int w, i, ret;

	if (geteuid()) {
		snprintf(why, whylen, "needs root (/dev/kvm, perf tracepoint counters)");
		return -EPERM;
	}
	ret = kvm_toy_open(&c.vm, why, whylen);
	ret = ret ?: sources_open(&c, why, whylen);
	if (!ret)
		fprintf(out, "%6s  %-28s %-6s %10s %10s\n", "window", "source", "exits",
			"requested", "counted");
	for (w = 0; !ret && w < o->windows; w++)
		ret = one_window(&c, w, out, why, whylen);
	if (!ret)
		summary(&c, out);
	for (i = 0; i < c.nsrc; i++)
		src_close(&c.src[i]);
	kvm_toy_close(c.vm);
	return ret ? ret : c.bad;
}
