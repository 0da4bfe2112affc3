// SPDX-License-Identifier: MIT
/*
 * pmu-counters.c - perf_event_open(2) groups of the pmu probe
 * (pmu-counters.h). The first event that opens in a group leads it, so a
 * group's events are on the counters together; each is read on its own
 * (value, time_enabled, time_running), which inherit allows.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "pmu-counters.h"
#include "sysfs.h"

#ifndef PERF_FLAG_FD_CLOEXEC
#define PERF_FLAG_FD_CLOEXEC (1UL << 3)   /* libpfm4's copy of the header lacks it */
#endif

static long perf_open(struct perf_event_attr *a, pid_t pid, int cpu, int group)
{
	return syscall(SYS_perf_event_open, a, pid, cpu, group, PERF_FLAG_FD_CLOEXEC);
}

/* Why event @i did not open: errno in words, with what usually causes it. */
static void not_counted(struct pmu_counters *c, int i, int err)
{
	char hint[96] = "", paranoid[16] = "?";

	if (err == EACCES || err == EPERM) {
		sysfs_read_line("/proc/sys/kernel/perf_event_paranoid", paranoid,
				sizeof(paranoid));
		snprintf(hint, sizeof(hint), " (kernel.perf_event_paranoid = %s)", paranoid);
	} else if (err == ENOENT || err == EOPNOTSUPP || err == ENODEV) {
		snprintf(hint, sizeof(hint), " (no such counter here: %s)",
			 c->ev[i].attr.type == PERF_TYPE_SOFTWARE ? "kernel software event"
			 : "no hardware PMU, or not this event");
	}
	c->state[i] = -1;
	snprintf(c->why[i], sizeof(c->why[i]), "%s: not counted: perf_event_open: %s%s",
		 c->ev[i].name, strerror(err), hint);
}

/* Does @err say the target is gone (not that the event cannot be counted)? */
static int target_gone(int err, int cpu_scope)
{
	return err == ESRCH || (cpu_scope && (err == ENODEV || err == ENXIO));
}

static void open_group(struct pmu_counters *c, int g, pid_t tid)
{
	struct perf_event_attr a;
	int i, leader = -1;
	long fd;

	for (i = 0; i < c->nev; i++) {
		if (c->state[i] < 0)
			continue;
		a = c->ev[i].attr;
		a.inherit = !c->cpu_scope;
		fd = perf_open(&a, c->cpu_scope ? -1 : tid, c->cpu_scope ? g : -1, leader);
		if (fd < 0) {
			if (target_gone(errno, c->cpu_scope))
				return;
			if (c->state[i] == 0)
				not_counted(c, i, errno);
			continue;
		}
		c->fd[g * c->nev + i] = (int)fd;
		c->state[i] = 1;
		if (leader < 0)
			leader = (int)fd;
	}
}

/* Events a CPU-wide group cannot count: task-clock needs a task. */
static void cpu_scope_limits(struct pmu_counters *c)
{
	int i;

	for (i = 0; i < c->nev; i++) {
		if (c->ev[i].attr.type != PERF_TYPE_SOFTWARE ||
		    c->ev[i].attr.config != PERF_COUNT_SW_TASK_CLOCK)
			continue;
		c->state[i] = -1;
		snprintf(c->why[i], sizeof(c->why[i]), "%s: not counted: counts one task's "
			 "time, and the counters are per CPU here (no instance threads)",
			 c->ev[i].name);
	}
}

int pmu_counters_open(struct pmu_counters *c, const pid_t *tids, int n)
{
	int g, i, counted = 0;

	c->ngroups = n;
	c->fd = malloc((size_t)(n > 0 ? n : 1) * (size_t)c->nev * sizeof(*c->fd));
	if (!c->fd)
		return -ENOMEM;
	for (i = 0; i < n * c->nev; i++)
		c->fd[i] = -1;
	if (c->cpu_scope)
		cpu_scope_limits(c);
	for (g = 0; g < n; g++)
		open_group(c, g, tids ? tids[g] : -1);
	for (i = 0; i < c->nev; i++) {
		if (c->state[i] == 0) {
			c->state[i] = -1;
			snprintf(c->why[i], sizeof(c->why[i]), "%s: not counted: every target "
				 "was gone before it opened", c->ev[i].name);
		}
		counted += c->state[i] == 1;
	}
	return counted;
}

size_t pmu_counters_snap_size(const struct pmu_counters *c)
{
	return (size_t)(c->ngroups > 0 ? c->ngroups : 1) * (size_t)c->nev;
}

void pmu_counters_read(const struct pmu_counters *c, struct pmu_read *snap)
{
	unsigned long long v[3];
	int k;

	for (k = 0; k < c->ngroups * c->nev; k++) {
		memset(&snap[k], 0, sizeof(snap[k]));
		if (c->fd[k] < 0 || read(c->fd[k], v, sizeof(v)) != (ssize_t)sizeof(v))
			continue;
		snap[k].value = v[0];
		snap[k].enabled = v[1];
		snap[k].running = v[2];
		snap[k].valid = 1;
	}
}

void pmu_counters_delta(const struct pmu_counters *c, const struct pmu_read *a,
			const struct pmu_read *b, int i, struct pmu_total *t)
{
	unsigned long long dv, de, dr;
	int g, k;

	memset(t, 0, sizeof(*t));
	for (g = 0; g < c->ngroups; g++) {
		k = g * c->nev + i;
		if (!a[k].valid || !b[k].valid || b[k].value < a[k].value)
			continue;
		dv = b[k].value - a[k].value;
		de = b[k].enabled - a[k].enabled;
		dr = b[k].running - a[k].running;
		t->raw += dv;
		t->enabled += de;
		t->running += dr;
		if (dr)
			t->value += (double)dv * ((double)de / (double)dr);
		else if (de)
			t->unscheduled++;
	}
}

void pmu_counters_close(struct pmu_counters *c)
{
	int k;

	for (k = 0; c->fd && k < c->ngroups * c->nev; k++)
		if (c->fd[k] >= 0)
			close(c->fd[k]);
	free(c->fd);
	c->fd = NULL;
	c->ngroups = 0;
}
