// SPDX-License-Identifier: MIT
/*
 * cpu.c - the CPU time the guest burnt during the cell, so that the cost
 * of polling shows next to its latency gain.
 *
 * From /proc/stat (USER_HZ ticks, usually 10 ms): per CPU, busy time
 * (user + nice + system + irq + softirq), idle time (idle + iowait) and
 * steal. Time in the POLL idle state is idle to /proc/stat but burns the
 * vCPU all the same (the hypervisor sees a running vCPU), so the POLL
 * state's `time` from cpuidle sysfs is added: burnt = busy + polling.
 * Under haltpoll:N the guest halt-polling happens in the POLL state too.
 *
 * Side: instance (the CPUs the functions run on; inside the guest for a VM).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "clock.h"
#include "cpu-metrics.h"
#include "cpuidle.h"
#include "probe.h"
#include "sink.h"

#define MAX_CPUS 1024

struct cpu_times {
	unsigned long long busy, idle, steal;     /* ticks */
};

struct cpu_snap {
	struct cpu_times cpu[MAX_CPUS];
	int present[MAX_CPUS];
	uint64_t poll_us;             /* POLL state time over all CPUs */
	double t_ns;
};

struct cpu_state {
	struct cpuidle_set set;       /* ncpus == 0: no cpuidle */
	struct cpuidle_sample x;
	struct cpu_snap a, b;
	long hz;
};

static int parse_line(const char *line, struct cpu_snap *s)
{
	unsigned long long v[10] = { 0 };
	int cpu;

	if (sscanf(line, "cpu%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu, &v[0],
		   &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) < 8)
		return 0;
	if (cpu < 0 || cpu >= MAX_CPUS)
		return 0;
	s->cpu[cpu].busy = v[0] + v[1] + v[2] + v[5] + v[6];
	s->cpu[cpu].idle = v[3] + v[4];
	s->cpu[cpu].steal = v[7];
	s->present[cpu] = 1;
	return 1;
}

static int read_proc_stat(struct cpu_snap *s)
{
	char *buf, *line, *save = NULL;
	int fd = open("/proc/stat", O_RDONLY | O_CLOEXEC), ret = 0;
	size_t len = 1 << 16;
	ssize_t n;

	if (fd < 0)
		return -errno;
	buf = malloc(len);
	n = buf ? read(fd, buf, len - 1) : -1;
	close(fd);
	if (n <= 0) {
		free(buf);
		return buf ? -EIO : -ENOMEM;
	}
	buf[n] = '\0';
	memset(s->present, 0, sizeof(s->present));
	for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
		ret += parse_line(line, s);
	free(buf);
	return ret ? 0 : -EIO;
}

static int snap(struct cpu_state *st, struct cpu_snap *s)
{
	int k = st->set.ncpus ? cpuidle_poll_state(&st->set) : -1, i;

	s->poll_us = 0;
	if (k >= 0) {
		cpuidle_read(&st->set, &st->x);
		for (i = 0; i < st->set.ncpus; i++)
			s->poll_us += st->x.time[i * st->set.nstates + k];
	}
	s->t_ns = (double)clock_now_ns();
	return read_proc_stat(s);
}

static int cpu_supported(char *why, size_t len)
{
	if (!access("/proc/stat", R_OK))
		return 1;
	snprintf(why, len, "cannot read /proc/stat");
	return 0;
}

static void cpu_close(struct probe *p)
{
	struct cpu_state *st = p->priv;

	if (!st)
		return;
	cpuidle_sample_free(&st->x);
	cpuidle_close(&st->set);
	free(st);
	p->priv = NULL;
}

static int cpu_open(struct probe *p)
{
	struct cpu_state *st = calloc(1, sizeof(*st));
	char why[256];

	if (!st)
		return probe_error(p, -ENOMEM, "out of memory");
	p->priv = st;
	st->hz = sysconf(_SC_CLK_TCK);
	if (st->hz <= 0)
		st->hz = 100;
	/* Without cpuidle there is no POLL time to add: busy is all there is. */
	if (!cpuidle_open(&st->set, why, sizeof(why)) &&
	    cpuidle_sample_alloc(&st->set, &st->x))
		cpuidle_close(&st->set);
	return 0;
}

static int cpu_start(struct probe *p, enum probe_window w)
{
	struct cpu_state *st = p->priv;

	(void)w;
	return snap(st, &st->a);
}

static int cpu_stop(struct probe *p, enum probe_window w)
{
	struct cpu_state *st = p->priv;

	(void)w;
	return snap(st, &st->b);
}

/* Per-CPU rows; returns the totals in @sum (ms) and the CPU count. */
static int emit_per_cpu(struct cpu_state *st, struct sink *s, double *sum, int *ncpus)
{
	double ms = 1000.0 / (double)st->hz, v[3];
	static const char *const what[3] = { "busy", "idle", "steal" };
	char name[48];
	int i, j, err = 0;

	for (i = 0; i < MAX_CPUS && !err; i++) {
		if (!st->a.present[i] || !st->b.present[i])
			continue;
		v[0] = (double)(st->b.cpu[i].busy - st->a.cpu[i].busy) * ms;
		v[1] = (double)(st->b.cpu[i].idle - st->a.cpu[i].idle) * ms;
		v[2] = (double)(st->b.cpu[i].steal - st->a.cpu[i].steal) * ms;
		for (j = 0; j < 3 && !err; j++) {
			sum[j] += v[j];
			snprintf(name, sizeof(name), "cpu%d.%s", i, what[j]);
			err = sink_metric(s, name, v[j], "ms");
		}
		(*ncpus)++;
	}
	return err;
}

static int cpu_emit(struct probe *p, enum probe_window w, struct sink *s)
{
	struct cpu_state *st = p->priv;
	double sum[3] = { 0 }, wall = (st->b.t_ns - st->a.t_ns) / 1e6, poll, burnt;
	int ncpus = 0, err;

	if (w != PROBE_WINDOW_CELL)
		return 0;
	poll = (double)(st->b.poll_us - st->a.poll_us) / 1000.0;
	err = emit_per_cpu(st, s, sum, &ncpus);
	burnt = sum[0] + poll;
	err = err ?: sink_metric(s, "wall", wall, "ms") ?:
	      sink_metric(s, "cpus", ncpus, "count") ?:
	      sink_metric(s, "busy", sum[0], "ms") ?:
	      sink_metric(s, "idle", sum[1], "ms") ?:
	      sink_metric(s, "steal", sum[2], "ms") ?:
	      sink_metric(s, "idle_polling", poll, "ms") ?:
	      sink_metric(s, CPU_BURNT, burnt, "ms");
	if (!err && wall > 0 && ncpus)
		err = sink_metric(s, CPU_BURNT_PCT, 100.0 * burnt / (wall * ncpus), "%");
	return err ? probe_error(p, err, "cannot store cpu metrics") : 0;
}

const struct probe_ops probe_cpu = {
	.version = PROBE_OPS_VERSION,
	.name = CPU_PROBE,
	.measures = "CPU time burnt during the cell: per-CPU busy/idle/steal (/proc/stat) "
		    "plus time in the POLL idle state (cpuidle sysfs)",
	.windows = PROBE_WINDOW_CELL,
	.side = PROBE_INSTANCE,
	.supported = cpu_supported,
	.open = cpu_open,
	.start = cpu_start,
	.stop = cpu_stop,
	.emit = cpu_emit,
	.close = cpu_close,
};
