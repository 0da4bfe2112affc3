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
 * /proc/self/stat), plus every live process below it (/proc/PID/stat, by
 * parent pid: instances, runtimes, the co-runner, QEMU) with what each has
 * reaped. A process that leaves the tree (re-parented to init) counts as
 * another's. What the CPUs were
 * busy with that is not the cell's is busy - own: other processes, and the
 * kernel's work for no process of the cell. Every file is read through
 * sysroot(), so tests can give a fake /proc.
 */
#include <dirent.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "noise.h"
#include "proc-stat.h"
#include "sysroot.h"

struct proc_row {
	int pid, ppid, mine;
	unsigned long long ticks;      /* utime + stime + cutime + cstime */
};

/* pid, ppid and ticks of /proc/@who/stat; 0 or -1 when unread. */
static int proc_read(const char *who, struct proc_row *r)
{
	struct proc_stat ps;
	char path[300], buf[1024];
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%s/stat", who);
	f = sysroot_fopen(path, "r");
	if (!f)
		return -1;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	if (proc_stat_parse(buf, &ps))
		return -1;
	r->pid = ps.pid;
	r->ppid = ps.ppid;
	r->ticks = ps.ticks;
	r->mine = 0;
	return 0;
}

/* Every process of /proc into @rows (at most @max); returns the count. */
static size_t proc_all(struct proc_row *rows, size_t max)
{
	char path[4096];
	struct dirent *d;
	size_t n = 0;
	DIR *dir = opendir(sysroot_path("/proc", path, sizeof(path)));

	if (!dir)
		return 0;
	while ((d = readdir(dir)) && n < max)
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9' && !proc_read(d->d_name, &rows[n]))
			n++;
	closedir(dir);
	return n;
}

static int by_pid(const void *a, const void *b)
{
	const struct proc_row *x = a, *y = b;

	return (x->pid > y->pid) - (x->pid < y->pid);
}

/*
 * Mark the descendants of @self in @rows (sorted by pid here): a pass marks
 * each process whose parent is @self or marked; passes go on until one marks
 * nothing (one per generation). Returns how many there are.
 */
static int mark_descendants(struct proc_row *rows, size_t n, int self)
{
	struct proc_row key, *parent;
	int changed = 1, count = 0;
	size_t i;

	qsort(rows, n, sizeof(*rows), by_pid);
	while (changed) {
		changed = 0;
		for (i = 0; i < n; i++) {
			if (rows[i].mine)
				continue;
			key.pid = rows[i].ppid;
			parent = rows[i].ppid == self ? NULL :
				 bsearch(&key, rows, n, sizeof(*rows), by_pid);
			if (rows[i].ppid == self || (parent && parent->mine)) {
				rows[i].mine = changed = 1;
				count++;
			}
		}
	}
	return count;
}

/*
 * The CPU time of cvmbench and every live process below it (instances,
 * runtimes, the co-runner, QEMU), and what they reaped, into @s.
 */
static void own_read(struct noise_snap *s)
{
	struct proc_row self, *rows = calloc(NOISE_MAX_PROCS, sizeof(*rows));
	size_t n, i;

	if (proc_read("self", &self))
		self.ticks = 0;
	s->own = self.ticks;
	if (!rows)
		return;
	n = proc_all(rows, NOISE_MAX_PROCS);
	s->nown = mark_descendants(rows, n, self.pid);
	for (i = 0; i < n; i++)
		if (rows[i].mine)
			s->own += rows[i].ticks;
	free(rows);
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
 * noise_snap_read() - take one snapshot into @s. Returns 0, or -errno when
 * /proc/stat cannot be read (then @s->ok is 0).
 */
int noise_snap_read(struct noise_snap *s)
{
	char line[4096];
	FILE *f;

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
	own_read(s);
	return s->ok ? 0 : -EIO;
}

/** noise_begin() - the snapshot at the start of a cell. Returns 0 or -errno. */
int noise_begin(struct noise *n)
{
	memset(&n->b, 0, sizeof(n->b));
	return noise_snap_read(&n->a);
}

/** noise_end() - the snapshot at the end of the cell. Returns 0 or -errno. */
int noise_end(struct noise *n)
{
	return noise_snap_read(&n->b);
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
	r->resolution_ms = (double)(r->ncpus + n->a.nown + n->b.nown + 2) * tick;
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
