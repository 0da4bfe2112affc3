// SPDX-License-Identifier: MIT
/*
 * hostmem.c - the host memory a cell's instances take, seen from the host.
 *
 * Per instance process (for a VM its QEMU, which holds the guest's RAM;
 * each process once, however many instances share it): PSS, RSS,
 * anonymous and anonymous PSS, USS (Private_Clean + Private_Dirty: what
 * ending it frees) and shared (Shared_Clean + Shared_Dirty: what it maps
 * that another process maps too, for N instances of one runtime mostly
 * each other's interpreter, libraries and input files) from
 * /proc/PID/smaps_rollup; their sums over
 * the cell; the host's MemAvailable (/proc/meminfo) and its drop from the
 * baseline the runner reads before the backend starts anything of the cell
 * (probe_target.mem_available_before_kb), counting the free pages on
 * per-CPU lists (/proc/zoneinfo) with it; each process's own memory
 * cgroup, where it has one (hostmem-memcg.h: what it never maps, such as
 * a CVM's guest_memfd, is charged there); the thp_split_* counters of
 * /proc/vmstat over the cell. A thread samples every hostmem-interval
 * seconds into the memory_sample table; the steady-state values (metrics)
 * are one more sample at the end of the cell window, after KSM has
 * converged when it runs (ksm-state.h). The probe is .outer (probe.h): its
 * window stops after every other probe's, so that wait stretches no other
 * probe's window. Side: host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "hostmem-check.h"
#include "hostmem-memcg.h"
#include "hostmem-metrics.h"
#include "ksm-state.h"
#include "memory-sink.h"
#include "probe.h"
#include "procmem.h"
#include "sampler.h"
#include "sink.h"
#include "sysroot.h"

#define HM_MAX 256

/* The smaps_rollup fields stored: metric name, the kernel's line, where. */
static const struct {
	const char *key, *line;
	size_t off;
} fields[] = {
	{ HOSTMEM_PSS, "Pss", offsetof(struct smaps_rollup, pss) },
	{ "rss_kb", "Rss", offsetof(struct smaps_rollup, rss) },
	{ "anon_kb", "Anonymous", offsetof(struct smaps_rollup, anonymous) },
	{ "pss_anon_kb", "Pss_Anon", offsetof(struct smaps_rollup, pss_anon) },
	{ HOSTMEM_USS, "Private_Clean or Private_Dirty", offsetof(struct smaps_rollup, uss) },
	{ HOSTMEM_SHARED, "Shared_Clean or Shared_Dirty",
	  offsetof(struct smaps_rollup, shared) },
};
#define NFIELDS (sizeof(fields) / sizeof(fields[0]))

struct hm_proc {
	pid_t pid;
	int fd;                       /* /proc/PID/smaps_rollup */
	int gone;                     /* it ended during the cell */
	struct smaps_rollup last;
};

struct hostmem {
	struct hm_proc proc[HM_MAX];
	struct hm_memcg memcg[HM_MAX];    /* proc[i]'s own memory cgroup */
	struct memcg_host memcg_host;
	int n;
	int left_out;                 /* distinct processes beyond HM_MAX, not measured */
	struct memory_series ser;
	struct sampler smp;
	long long t0;
	struct meminfo mi;
	long long pcp_free;           /* kB on per-CPU lists with the last MemAvailable */
	struct thp_split thp0, thp1;
	int have_thp0;
	long samples;                 /* sample instants taken */
	const struct ksm_convergence *conv;
	char buf[16384];              /* the sampler's and stop's read buffer */
};

static int hostmem_supported(char *why, size_t len)
{
	if (!access("/proc/self/smaps_rollup", R_OK))
		return 1;
	snprintf(why, len, "no /proc/PID/smaps_rollup (kernel before 4.14?)");
	return 0;
}

static void add(struct hostmem *h, const char *src, int i, const char *name,
		long long v, const char *unit)
{
	struct memory_sample_row r = {
		.t_ns = clock_now_ns() - h->t0, .source = src,
		.instance = i, .pid = i >= 0 ? h->proc[i].pid : -1,
		.name = name, .value = (double)v, .unit = unit,
	};

	if (v >= 0)
		memory_series_add(&h->ser, &r);
}

/* One sample of every process and of meminfo. */
static void sample(void *arg)
{
	struct hostmem *h = arg;
	struct smaps_rollup r;
	int i;

	h->samples++;
	for (i = 0; i < h->n; i++) {
		if (h->proc[i].gone)
			continue;
		if (procmem_pread(h->proc[i].fd, h->buf, sizeof(h->buf)) <= 0 ||
		    smaps_rollup_parse(h->buf, &r)) {
			h->proc[i].gone = 1;
			continue;
		}
		h->proc[i].last = r;
		add(h, "smaps_rollup", i, HOSTMEM_PSS, r.pss, "kB");
		add(h, "smaps_rollup", i, "rss_kb", r.rss, "kB");
		add(h, "smaps_rollup", i, "anon_kb", r.anonymous, "kB");
		add(h, "smaps_rollup", i, "pss_anon_kb", r.pss_anon, "kB");
		add(h, "smaps_rollup", i, HOSTMEM_USS, r.uss, "kB");
		add(h, "smaps_rollup", i, HOSTMEM_SHARED, r.shared, "kB");
		hm_memcg_sample(&h->memcg[i]);
		add(h, "memcg", i, HOSTMEM_MEMCG, h->memcg[i].usage, "kB");
	}
	if (!meminfo_read(&h->mi))
		add(h, "meminfo", -1, "mem_available_kb", h->mi.mem_available, "kB");
	else
		h->mi.mem_available = -1;     /* never an older sample's as this one's */
}

static int read_thp(struct hostmem *h, struct thp_split *t)
{
	long n = procmem_read("/proc/vmstat", h->buf, sizeof(h->buf));

	return n < 0 ? (int)n : thp_split_parse(h->buf, t);
}

/* The window's processes, each once (instances may share a VM). */
static int open_procs(struct probe *p, struct hostmem *h)
{
	const struct probe_target *t = p->target;
	pid_t pids[HM_MAX];
	char path[64];
	int i, n = pids_distinct(t->pids, t->npids, pids, HM_MAX, &h->left_out);

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/smaps_rollup", (int)pids[i]);
		h->proc[h->n].pid = pids[i];
		h->proc[h->n].fd = sysroot_open(path, O_RDONLY | O_CLOEXEC);
		if (h->proc[h->n].fd < 0)
			return probe_error(p, -errno, "cannot open %s: %s", path,
					   strerror(errno));
		hm_memcg_open(&h->memcg[h->n], &h->memcg_host, pids[i]);
		h->n++;
	}
	if (!h->n)
		return probe_error(p, -ESRCH, "the cell has no instance process to measure%s",
				   !strcmp(t->cell->mode, "cold") ?
				   " (mode = cold: instances do not live through the cell)" : "");
	return 0;
}

static void close_procs(struct hostmem *h)
{
	int i;

	for (i = 0; i < h->n; i++)
		if (h->proc[i].fd >= 0)
			close(h->proc[i].fd);
	h->n = 0;
}

static int hostmem_open(struct probe *p)
{
	struct hostmem *h = calloc(1, sizeof(*h));

	if (!h)
		return probe_error(p, -ENOMEM, "out of memory");
	memory_series_init(&h->ser);
	memcg_detect(&h->memcg_host);
	h->pcp_free = -ENODATA;       /* until hostmem_stop() reads it */
	p->priv = h;
	return 0;
}

static int hostmem_start(struct probe *p, enum probe_window w)
{
	struct hostmem *h = p->priv;
	int ret;

	(void)w;
	close_procs(h);
	ret = open_procs(p, h);
	if (ret)
		return ret;
	ksm_converge_reset();
	h->conv = NULL;
	h->samples = 0;
	memset(&h->mi, 0xff, sizeof(h->mi));     /* -1 each: not read yet */
	h->t0 = clock_now_ns();
	h->have_thp0 = !read_thp(h, &h->thp0);
	sample(h);
	ret = sampler_start(&h->smp, p->target->cell->hostmem_interval, sample, h);
	return ret ? probe_error(p, ret, "cannot start the sampling thread") : 0;
}

static int hostmem_stop(struct probe *p, enum probe_window w)
{
	struct hostmem *h = p->priv;

	pid_t pids[HM_MAX];
	int i;

	(void)w;
	for (i = 0; i < h->n; i++)
		pids[i] = h->proc[i].pid;
	h->conv = ksm_converge_wait(p->target->cell->ksm_timeout, pids, h->n);
	sampler_stop(&h->smp);
	sample(h);                    /* the steady state */
	h->pcp_free = pcp_free_read(); /* with its MemAvailable, not at emit time */
	if (h->have_thp0 && read_thp(h, &h->thp1))
		h->have_thp0 = 0;
	return 0;
}

static void hostmem_close(struct probe *p)
{
	struct hostmem *h = p->priv;

	if (!h)
		return;
	sampler_stop(&h->smp);
	close_procs(h);
	memory_series_free(&h->ser);
	free(h);
	p->priv = NULL;
}

static long long *field_of(struct smaps_rollup *r, size_t f)
{
	return (long long *)((char *)r + fields[f].off);
}

/*
 * One field per process, and its sum into @total: -1 (a skip row naming
 * why) when a process lacks the line or processes were left out.
 */
static void emit_field(struct hostmem *h, struct sink *s, size_t f, long long *total)
{
	char name[64], why[300];
	int i, miss = -1;
	long long v;

	*total = 0;
	for (i = 0; i < h->n; i++) {
		v = *field_of(&h->proc[i].last, f);
		snprintf(name, sizeof(name), "proc%d.%s", i, fields[f].key);
		if (v < 0) {
			snprintf(why, sizeof(why), "%s: no %s in /proc/%d/smaps_rollup (not "
				 "printed by this kernel; 5.4 has no Pss_Anon)", name,
				 fields[f].line, (int)h->proc[i].pid);
			sink_skip(s, why);
			miss = miss < 0 ? i : miss;
			continue;
		}
		sink_metric(s, name, (double)v, "kB");
		*total += v;
	}
	if (miss >= 0)
		snprintf(why, sizeof(why), "%s (sum over the cell): instance process %d "
			 "(pid %d) has no %s in its smaps_rollup", fields[f].key, miss,
			 (int)h->proc[miss].pid, fields[f].line);
	else if (h->left_out)
		snprintf(why, sizeof(why), "%s (sum over the cell): %d more instance "
			 "processes not measured (at most %d)", fields[f].key, h->left_out,
			 HM_MAX);
	else {
		sink_metric(s, fields[f].key, (double)*total, "kB");
		return;
	}
	sink_skip(s, why);
	*total = -1;
}

/*
 * Per process, and the sums into @sum (-1: not summed); -ESRCH (a skip
 * row) when one ended.
 */
static int emit_procs(struct hostmem *h, struct sink *s, struct smaps_rollup *sum)
{
	char why[160];
	size_t f;
	int i;

	memset(sum, 0xff, sizeof(*sum));
	for (i = 0; i < h->n; i++) {
		if (!h->proc[i].gone)
			continue;
		snprintf(why, sizeof(why), "instance process %d (pid %d) ended during "
			 "the cell: no steady-state memory for the cell", i,
			 (int)h->proc[i].pid);
		sink_skip(s, why);
		return -ESRCH;
	}
	for (f = 0; f < NFIELDS; f++)
		emit_field(h, s, f, field_of(sum, f));
	if (h->left_out) {
		snprintf(why, sizeof(why), "%d instance processes not measured: the probe "
			 "takes at most %d", h->left_out, HM_MAX);
		sink_skip(s, why);
	}
	sink_metric(s, "processes", h->n, "count");
	return 0;
}

/*
 * The drop of what the host has available: MemAvailable plus the free
 * pages on per-CPU lists (which MemAvailable leaves out, lib/procmem.h),
 * both read before the cell and now. Without a per-CPU reading on either
 * side it is MemAvailable's alone, and a skip row says so.
 */
static long long available_drop(struct probe *p, struct sink *s, long long before)
{
	struct hostmem *h = p->priv;
	long long pcp_before = p->target->pcp_free_before_kb, pcp = h->pcp_free;
	char why[160];

	if (pcp_before < 0 || pcp < 0) {
		snprintf(why, sizeof(why), "pcp_free_kb: /proc/zoneinfo unreadable (%s): "
			 "mem_available_drop_kb is MemAvailable's drop alone",
			 strerror((int)-(pcp_before < 0 ? pcp_before : pcp)));
		sink_skip(s, why);
		return before - h->mi.mem_available;
	}
	sink_metric(s, "pcp_free_before_kb", (double)pcp_before, "kB");
	sink_metric(s, "pcp_free_kb", (double)pcp, "kB");
	return before + pcp_before - h->mi.mem_available - pcp;
}

/* MemAvailable against its baseline, and the fidelity check. */
static void emit_avail(struct probe *p, struct sink *s, const struct smaps_rollup *sum)
{
	struct hostmem *h = p->priv;
	long long before = p->target->mem_available_before_kb, drop;

	if (before <= 0 || h->mi.mem_available < 0) {
		sink_skip(s, before <= 0 ? "MemAvailable drop: no baseline read before the "
			  "cell's instances started" : "MemAvailable drop: no MemAvailable "
			  "read from /proc/meminfo at the end of the cell window");
		return;
	}
	drop = available_drop(p, s, before);
	sink_metric(s, "mem_available_before_kb", (double)before, "kB");
	sink_metric(s, "mem_available_kb", (double)h->mi.mem_available, "kB");
	sink_metric(s, "mem_available_drop_kb", (double)drop, "kB");
	if (sum->pss < 0)
		return;               /* no summed PSS to check: its skip row says why */
	if (drop > 0) {
		sink_metric(s, "pss_vs_drop_pct", hostmem_diff_pct(sum->pss, drop), "%");
		if (sum->pss_anon >= 0)
			sink_metric(s, "pss_anon_vs_drop_pct",
				    hostmem_diff_pct(sum->pss_anon, drop), "%");
	}
	sink_metric(s, "flag_pss_drop_disagree",
		    hostmem_disagree(sum->pss, drop, HOSTMEM_DISAGREE_PCT), "flag");
}

/* thp_split_* over the cell window. */
static void emit_thp(struct hostmem *h, struct sink *s)
{
	int i, k;

	if (!h->have_thp0) {
		sink_skip(s, "thp_split counters: not in /proc/vmstat");
		return;
	}
	for (i = 0; i < h->thp1.n; i++)
		for (k = 0; k < h->thp0.n; k++)
			if (!strcmp(h->thp0.name[k], h->thp1.name[i]))
				sink_metric(s, h->thp1.name[i],
					    (double)(h->thp1.value[i] - h->thp0.value[k]),
					    "count");
}

static int hostmem_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct hostmem *h = p->priv;
	struct smaps_rollup sum;
	char how[300];

	(void)w;
	if (!emit_procs(h, s, &sum)) {
		emit_avail(p, s, &sum);
		hm_memcg_emit(s, h->memcg, h->n, sum.pss, p->target->accel != NULL);
	}
	emit_thp(h, s);
	snprintf(how, sizeof(how), "at the end of the cell window; KSM %s",
		 h->conv ? h->conv->how : "not asked");
	sink_note(s, "steady_state", how);
	sink_metric(s, "samples", (double)h->samples, "count");
	return memory_series_emit(&h->ser, s);
}

const struct probe_ops probe_hostmem = {
	.version = PROBE_OPS_VERSION,
	.name = "hostmem",
	.measures = "host memory of the instance processes (QEMU): PSS, RSS, anonymous "
		    "(smaps_rollup), their own memory cgroups' charge and memory.stat, "
		    "MemAvailable drop, THP splits; a time series",
	.windows = PROBE_WINDOW_CELL,
	.side = PROBE_HOST,
	.outer = 1,                   /* its stop waits for KSM: outside the others' windows */
	.supported = hostmem_supported,
	.open = hostmem_open,
	.start = hostmem_start,
	.stop = hostmem_stop,
	.emit = hostmem_emit,
	.close = hostmem_close,
};
