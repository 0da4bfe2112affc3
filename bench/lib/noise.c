// SPDX-License-Identifier: MIT
/*
 * noise.c - how much else ran on the machine while a cell was measured.
 *
 * Two snapshots, at the start and at the end of the cell window: the 1-min
 * load average (/proc/loadavg), the run-queue length (procs_running of
 * /proc/stat), the busy and steal time of all CPUs (the "cpu " line of
 * /proc/stat: user + nice + system + irq + softirq; steal), and the CPU
 * time of the cell's own processes: cvmbench itself with every thread and
 * every child it has reaped (utime + stime + cutime + cstime of
 * /proc/self/stat: cold instances, runtimes), plus the instances alive at
 * the start (/proc/PID/stat, the same pids at the end). What the CPUs were
 * busy with that is not the cell's is busy - own: other processes, and the
 * kernel's work for no process of the cell. Every file is read through
 * sysroot(), so tests can give a fake /proc.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "noise.h"
#include "sysroot.h"

/* utime + stime + cutime + cstime of /proc/@who/stat, in ticks; 0 unread. */
static unsigned long long proc_ticks(const char *who)
{
	unsigned long long ut = 0, st = 0, cut = 0, cst = 0;
	char path[64], buf[1024], *p;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", who);
	f = sysroot_fopen(path, "r");
	if (!f)
		return 0;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');       /* comm may hold blanks and ')' */
	if (!p || sscanf(p + 2, "%*c %*d %*d %*d %*d %*d %*u %*u %*u %*u %*u "
			 "%llu %llu %llu %llu", &ut, &st, &cut, &cst) != 4)
		return 0;
	return ut + st + cut + cst;
}

static void stat_line(struct noise_snap *s, const char *line)
{
	unsigned long long v[8] = { 0 };
	int cpu;

	if (!strncmp(line, "cpu ", 4) &&
	    sscanf(line + 4, "%llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
		   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) >= 7) {
		s->busy = v[0] + v[1] + v[2] + v[5] + v[6];
		s->steal = v[7];
		s->ok = 1;
	} else if (sscanf(line, "cpu%d ", &cpu) == 1) {
		s->ncpus++;
	} else if (!strncmp(line, "procs_running ", 14)) {
		sscanf(line + 14, "%ld", &s->procs_running);
	}
}

/**
 * noise_snap_read() - take one snapshot into @s; @pids (@npids) are the
 * cell's live processes besides cvmbench. Returns 0, or -errno when
 * /proc/stat cannot be read (then @s->ok is 0).
 */
int noise_snap_read(struct noise_snap *s, const pid_t *pids, int npids)
{
	char line[4096], who[24];
	FILE *f;
	int i;

	memset(s, 0, sizeof(*s));
	s->load1 = NAN;
	s->procs_running = -1;
	s->t_ns = (double)clock_now_ns();
	f = sysroot_fopen("/proc/loadavg", "r");
	if (f) {
		if (fscanf(f, "%lf", &s->load1) != 1)
			s->load1 = NAN;
		fclose(f);
	}
	f = sysroot_fopen("/proc/stat", "r");
	if (!f)
		return -errno;
	while (fgets(line, sizeof(line), f))
		stat_line(s, line);
	fclose(f);
	s->own = proc_ticks("self");
	for (i = 0; i < npids; i++) {
		snprintf(who, sizeof(who), "%d", (int)pids[i]);
		s->own += proc_ticks(who);
	}
	return s->ok ? 0 : -EIO;
}

/**
 * noise_begin() - the snapshot at the start of a cell whose live processes
 * (besides cvmbench) are @pids; at most NOISE_MAX_PIDS are followed.
 * Returns 0 or -errno (noise_result() then fails too).
 */
int noise_begin(struct noise *n, const pid_t *pids, int npids)
{
	n->npids = npids < NOISE_MAX_PIDS ? (npids > 0 ? npids : 0) : NOISE_MAX_PIDS;
	if (n->npids)
		memcpy(n->pids, pids, (size_t)n->npids * sizeof(*pids));
	memset(&n->b, 0, sizeof(n->b));
	return noise_snap_read(&n->a, n->pids, n->npids);
}

/** noise_end() - the snapshot at the end of the cell. Returns 0 or -errno. */
int noise_end(struct noise *n)
{
	return noise_snap_read(&n->b, n->pids, n->npids);
}

/**
 * noise_result() - what @n's two snapshots say, with @hz ticks a second.
 * Returns 0, or -ENODATA when a snapshot is missing or time did not pass.
 */
int noise_result(const struct noise *n, long hz, struct noise_result *r)
{
	double tick = 1000.0 / (double)(hz > 0 ? hz : 100), cap;

	memset(r, 0, sizeof(*r));
	if (!n->a.ok || !n->b.ok || n->b.t_ns <= n->a.t_ns || !n->b.ncpus ||
	    n->b.busy < n->a.busy)
		return -ENODATA;
	r->ncpus = n->b.ncpus;
	r->wall_ms = (n->b.t_ns - n->a.t_ns) / 1e6;
	r->busy_ms = (double)(n->b.busy - n->a.busy) * tick;
	r->own_ms = n->b.own >= n->a.own ? (double)(n->b.own - n->a.own) * tick : 0;
	r->other_ms = r->busy_ms > r->own_ms ? r->busy_ms - r->own_ms : 0;
	r->steal_ms = n->b.steal >= n->a.steal ? (double)(n->b.steal - n->a.steal) * tick : 0;
	cap = r->wall_ms * r->ncpus;
	r->other_pct = 100.0 * r->other_ms / cap;
	r->steal_pct = 100.0 * r->steal_ms / cap;
	/* each CPU's and each process's count may be a tick off */
	r->resolution_ms = (double)(r->ncpus + n->npids + 1) * tick;
	r->other_low_pct = 100.0 * fmax(0, r->other_ms - r->resolution_ms) / cap;
	r->steal_low_pct = 100.0 * fmax(0, r->steal_ms - r->ncpus * tick) / cap;
	return 0;
}

/**
 * noise_over() - whether the co-running CPU use or the steal of @r exceeds
 * @threshold_pct percent of all CPUs' time, after the ticks' rounding is
 * taken off (a short cell is not flagged for one tick).
 */
int noise_over(const struct noise_result *r, double threshold_pct)
{
	return r->other_low_pct > threshold_pct || r->steal_low_pct > threshold_pct;
}
