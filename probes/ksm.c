// SPDX-License-Identifier: MIT
/*
 * ksm.c - what KSM itself says it merged during a cell, from the host.
 *
 * From /sys/kernel/mm/ksm: pages_shared, pages_sharing, pages_unshared,
 * full_scans, general_profit (bytes) and ksm_zero_pages where the kernel
 * has them; per instance process (a VM's QEMU), /proc/PID/ksm_stat
 * (ksm_merging_pages, ksm_process_profit) where the kernel has it. A
 * counter the kernel lacks is a skip row naming it, never a 0. When KSM
 * runs, the cell's steady state waits for convergence (ksm-state.h,
 * bounded by ksm-timeout, which is stored, and flagged when hit; made in
 * the stop of this .outer probe, after every other probe's window has
 * stopped, probe.h). A thread
 * samples the counters every hostmem-interval seconds into memory_sample.
 * These are KSM's own counters: host-observed memory (PSS, MemAvailable)
 * is the hostmem probe's, stored beside, never derived from these.
 * Side: host.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "hostmem-check.h"
#include "ksm-state.h"
#include "memory-sink.h"
#include "probe.h"
#include "procmem.h"
#include "sampler.h"
#include "sink.h"
#include "sysroot.h"

#define KSM_MAXP 256

/* The global counters, in the order they are stored. */
static const struct {
	const char *name, *unit;
} counters[] = {
	{ "pages_shared", "pages" }, { "pages_sharing", "pages" },
	{ "pages_unshared", "pages" }, { "full_scans", "count" },
	{ "general_profit", "B" }, { "ksm_zero_pages", "pages" },
};
#define NCOUNTERS (sizeof(counters) / sizeof(counters[0]))

struct ksm_probe {
	pid_t pid[KSM_MAXP];
	int n;
	int left_out;                 /* distinct processes beyond KSM_MAXP, not measured */
	int stat_err[KSM_MAXP];       /* 0, or why its ksm_stat could not be read */
	long long start[NCOUNTERS], end[NCOUNTERS];
	struct ksm_stat stat[KSM_MAXP];
	int have_stat;
	struct memory_series ser;
	struct sampler smp;
	long long t0;
	const struct ksm_convergence *conv;
	int ended;                    /* index + 1 of a process that ended, or 0 */
};

static int ksm_supported(char *why, size_t len)
{
	if (!sysroot_access(KSM_SYSFS "/run", R_OK))
		return 1;
	snprintf(why, len, "KSM is not built into this kernel (no " KSM_SYSFS "/run)");
	return 0;
}

static void read_counters(long long *v)
{
	size_t i;

	for (i = 0; i < NCOUNTERS; i++)
		v[i] = ksm_counter(counters[i].name);
}

/* ksm_stat of every process; 0 when the kernel has no ksm_stat. */
static int read_stats(struct ksm_probe *k)
{
	char path[64], buf[1024];
	int i, have = 0;

	for (i = 0; i < k->n; i++) {
		snprintf(path, sizeof(path), "/proc/%d/ksm_stat", (int)k->pid[i]);
		memset(&k->stat[i], 0xff, sizeof(k->stat[i]));
		k->stat_err[i] = (int)procmem_read(path, buf, sizeof(buf));
		if (k->stat_err[i] >= 0)
			k->stat_err[i] = ksm_stat_parse(buf, &k->stat[i]);
		have |= !k->stat_err[i];
	}
	return have;
}

static void add(struct ksm_probe *k, const char *src, int i, const char *name,
		long long v, const char *unit)
{
	struct memory_sample_row r = {
		.t_ns = clock_now_ns() - k->t0, .source = src, .instance = i,
		.pid = i >= 0 ? k->pid[i] : -1, .name = name, .value = (double)v,
		.unit = unit,
	};

	if (v >= 0)
		memory_series_add(&k->ser, &r);
}

static void sample(void *arg)
{
	struct ksm_probe *k = arg;
	long long v[NCOUNTERS];
	size_t c;
	int i;

	read_counters(v);
	for (c = 0; c < NCOUNTERS; c++)
		add(k, "ksm", -1, counters[c].name, v[c], counters[c].unit);
	if (!read_stats(k))
		return;
	for (i = 0; i < k->n; i++) {
		add(k, "ksm_stat", i, "ksm_merging_pages", k->stat[i].merging_pages, "pages");
		add(k, "ksm_stat", i, "ksm_process_profit", k->stat[i].process_profit, "B");
	}
}

static int ksm_open(struct probe *p)
{
	struct ksm_probe *k = calloc(1, sizeof(*k));

	if (!k)
		return probe_error(p, -ENOMEM, "out of memory");
	memory_series_init(&k->ser);
	p->priv = k;
	return 0;
}

static int ksm_start(struct probe *p, enum probe_window w)
{
	const struct probe_target *t = p->target;
	struct ksm_probe *k = p->priv;
	int ret;

	(void)w;
	k->n = pids_distinct(t->pids, t->npids, k->pid, KSM_MAXP, &k->left_out);
	ksm_converge_reset();
	k->conv = NULL;
	k->t0 = clock_now_ns();
	read_counters(k->start);
	sample(k);
	ret = sampler_start(&k->smp, t->cell->hostmem_interval, sample, k);
	return ret ? probe_error(p, ret, "cannot start the sampling thread") : 0;
}

static int ksm_stop(struct probe *p, enum probe_window w)
{
	struct ksm_probe *k = p->priv;
	int i;

	(void)w;
	k->conv = ksm_converge_wait(p->target->cell->ksm_timeout, k->pid, k->n);
	sampler_stop(&k->smp);
	sample(k);
	read_counters(k->end);
	k->have_stat = read_stats(k);
	for (i = 0; i < k->n && !k->ended; i++)
		if (procmem_ended(k->pid[i]))
			k->ended = i + 1;
	return 0;
}

/* The settings KSM ran with, as notes of the cell. */
static void emit_settings(struct sink *s)
{
	static const char *const names[] = {
		"run", "pages_to_scan", "sleep_millisecs", "smart_scan", "use_zero_pages",
		"merge_across_nodes", "max_page_sharing", "advisor_mode",
	};
	char path[128], buf[128];
	size_t i;

	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		snprintf(path, sizeof(path), KSM_SYSFS "/%s", names[i]);
		if (procmem_read(path, buf, sizeof(buf)) > 0) {
			buf[strcspn(buf, "\n")] = '\0';
			sink_note(s, names[i], buf);
		}
	}
}

static void emit_counters(struct ksm_probe *k, struct sink *s)
{
	char name[64], why[160];
	size_t c;

	for (c = 0; c < NCOUNTERS; c++) {
		if (k->end[c] < 0) {
			snprintf(why, sizeof(why), "%s: not in this kernel (no " KSM_SYSFS
				 "/%s)", counters[c].name, counters[c].name);
			sink_skip(s, why);
			continue;
		}
		sink_metric(s, counters[c].name, (double)k->end[c], counters[c].unit);
		if (k->start[c] < 0)
			continue;
		snprintf(name, sizeof(name), "%s_delta", counters[c].name);
		sink_metric(s, name, (double)(k->end[c] - k->start[c]), counters[c].unit);
	}
}

/* One value of process @i's ksm_stat, or a skip row saying why there is none. */
static int put_stat(struct ksm_probe *k, struct sink *s, int i, const char *key,
		    long long v, const char *unit)
{
	char name[64], why[300];

	snprintf(name, sizeof(name), "proc%d.%s", i, key);
	if (v >= 0)
		return sink_metric(s, name, (double)v, unit);
	if (k->stat_err[i] < 0 && k->stat_err[i] != -EINVAL)
		snprintf(why, sizeof(why), "%s: cannot read /proc/%d/ksm_stat: %s", name,
			 (int)k->pid[i], strerror(-k->stat_err[i]));
	else
		snprintf(why, sizeof(why), "%s: no %s in /proc/%d/ksm_stat (not printed "
			 "by this kernel)", name, key, (int)k->pid[i]);
	return sink_skip(s, why);
}

/* The model check on @merging, a sum over every process (@whole) or some. */
static void emit_model(struct probe *p, struct sink *s, long long merging, int whole)
{
	struct ksm_probe *k = p->priv;
	const struct cell *c = p->target->cell;
	int merged = ksm_model_merged(merging, (long long)c->memory * k->n);

	if (strcmp(c->confidential, "model"))
		return;
	if (whole || merged)      /* a part already over the limit is over it */
		sink_metric(s, "flag_model_merged", merged, "flag");
	else
		sink_skip(s, "flag_model_merged: not every process's ksm_merging_pages is known");
}

/* Per process ksm_stat, their sum, and the model check. */
static void emit_stats(struct probe *p, struct sink *s)
{
	struct ksm_probe *k = p->priv;
	long long merging = 0;
	char why[300] = "";
	int i;

	if (!k->have_stat) {
		sink_skip(s, "per-process ksm_stat: not in this kernel (no /proc/PID/ksm_stat)");
		return;
	}
	for (i = 0; i < k->n; i++) {
		put_stat(k, s, i, "ksm_merging_pages", k->stat[i].merging_pages, "pages");
		put_stat(k, s, i, "ksm_process_profit", k->stat[i].process_profit, "B");
		if (k->stat[i].merging_pages >= 0)
			merging += k->stat[i].merging_pages;
		else if (!why[0])
			snprintf(why, sizeof(why), "ksm_merging_pages (sum over the cell): "
				 "instance process %d (pid %d) has none (see proc%d)", i,
				 (int)k->pid[i], i);
	}
	if (!why[0] && k->left_out)
		snprintf(why, sizeof(why), "ksm_merging_pages (sum over the cell): %d more "
			 "instance processes not measured (at most %d)", k->left_out, KSM_MAXP);
	if (why[0])
		sink_skip(s, why);
	else
		sink_metric(s, "ksm_merging_pages", (double)merging, "pages");
	emit_model(p, s, merging, !why[0]);
}

static int ksm_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct ksm_probe *k = p->priv;

	(void)w;
	emit_settings(s);
	sink_note(s, "convergence", k->conv->how);
	if (k->ended) {
		char why[200];

		snprintf(why, sizeof(why), "instance process %d (pid %d) ended during the "
			 "cell: no steady-state KSM numbers for the cell", k->ended - 1,
			 (int)k->pid[k->ended - 1]);
		sink_skip(s, why);
		return memory_series_emit(&k->ser, s);
	}
	emit_counters(k, s);
	emit_stats(p, s);
	if (k->left_out) {
		char why[160];

		snprintf(why, sizeof(why), "%d instance processes not measured: the probe "
			 "takes at most %d", k->left_out, KSM_MAXP);
		sink_skip(s, why);
	}
	sink_metric(s, "ksm_timeout_s", k->conv->timeout_s, "s");
	if (k->conv->waited) {
		sink_metric(s, "converged", k->conv->converged, "flag");
		sink_metric(s, "flag_convergence_timeout", k->conv->timed_out, "flag");
		sink_metric(s, "convergence_wait_s", k->conv->wait_s, "s");
		sink_metric(s, "convergence_scans", (double)k->conv->scans, "count");
	}
	return memory_series_emit(&k->ser, s);
}

static void ksm_close(struct probe *p)
{
	struct ksm_probe *k = p->priv;

	if (!k)
		return;
	sampler_stop(&k->smp);
	memory_series_free(&k->ser);
	free(k);
	p->priv = NULL;
}

const struct probe_ops probe_ksm = {
	.version = PROBE_OPS_VERSION,
	.name = "ksm",
	.measures = "KSM's own counters (sysfs, per-process ksm_stat), convergence "
		    "before the steady state; a time series",
	.windows = PROBE_WINDOW_CELL,
	.side = PROBE_HOST,
	.outer = 1,                   /* its stop waits for KSM: outside the others' windows */
	.supported = ksm_supported,
	.open = ksm_open,
	.start = ksm_start,
	.stop = ksm_stop,
	.emit = ksm_emit,
	.close = ksm_close,
};
