// SPDX-License-Identifier: MIT
/*
 * oci-pool.c - pooled cgroups for runc / crun cold starts (AFaaS keeps
 * 600 ready): a slot is a directory cvmbench-pool-PID-P-N under the root
 * of every mounted cgroup hierarchy (each directory of /sys/fs/cgroup with
 * a cgroup.procs, or /sys/fs/cgroup itself on pure cgroup v2), with a v1
 * cpuset's cpus and mems copied from its parent, as the runtimes would.
 * A start whose config.json names a slot as its cgroupsPath finds every
 * directory there: the runtime's mkdir returns EEXIST and it only writes
 * limits and attaches. Both runtimes remove the container's cgroup when
 * they delete it, so a slot usually comes back spent; the refill thread
 * makes the pool whole again. What this costs is measured where it
 * happens: each refill's wall time (mkdirs and cpuset writes) and the
 * refill thread's own CPU time, stored with the pool's free count after
 * every event in oci_pool_event, and per cell as metrics pool.*.
 * The pool is journalled (kind oci-pool, its name prefix) before its first
 * directory exists; the undo removes every directory with that prefix.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "clock.h"
#include "journal.h"
#include "log.h"
#include "oci-host.h"
#include "oci-pool.h"
#include "pool-metrics.h"
#include "sink.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
#define MAX_HIER 16
#define MAX_EVENTS 65536

enum pool_event { EV_FILL, EV_TAKE, EV_FALLBACK, EV_REFILL, EV_RECYCLE, EV_SPENT };
static const char *const event_names[] = {
	POOL_EVENT_FILL, POOL_EVENT_TAKE, POOL_EVENT_FALLBACK, POOL_EVENT_REFILL,
	POOL_EVENT_RECYCLE, POOL_EVENT_SPENT,
};

struct pool_event_rec {
	long long t_ns, free, cost_ns, cpu_ns;   /* cost, cpu: -1 = not a creation */
	enum pool_event ev;
};

struct oci_pool {
	pthread_mutex_t lock;
	pthread_cond_t wake;
	pthread_t refill;
	int running, stop, refilling;
	int size, low;
	double rate;
	char prefix[48];
	long journal_id;
	char hier[MAX_HIER][PATH_MAX / 4];
	int nhier;
	long *free_slots;         /* slot numbers */
	int nfree;
	long next;                /* the next slot number */
	struct pool_event_rec *ev;
	size_t nev;
	long long lost;           /* events past MAX_EVENTS */
};

/* The roots of the mounted hierarchies into p->hier. */
static int hierarchies_find(struct oci_pool *p)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (!access(CGROUP_ROOT "/cgroup.procs", F_OK)) {
		snprintf(p->hier[p->nhier++], sizeof(p->hier[0]), "%s", CGROUP_ROOT);
		return 0;
	}
	d = opendir(CGROUP_ROOT);
	while (d && (e = readdir(d)) && p->nhier < MAX_HIER) {
		snprintf(path, sizeof(path), CGROUP_ROOT "/%s/cgroup.procs", e->d_name);
		if (e->d_name[0] != '.' && !access(path, F_OK))
			snprintf(p->hier[p->nhier++], sizeof(p->hier[0]), CGROUP_ROOT "/%s",
				 e->d_name);
	}
	if (d)
		closedir(d);
	return p->nhier ? 0 : -ENOENT;
}

static void slot_name(const struct oci_pool *p, long n, char *buf, size_t len)
{
	snprintf(buf, len, "%s%ld", p->prefix, n);
}

/* Copy cpuset file @file of hierarchy @h into its child @dir (v1 cpuset). */
static int cpuset_copy(const char *h, const char *dir, const char *file)
{
	char path[PATH_MAX], val[4096];
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", h, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;  /* not a v1 cpuset hierarchy */
	n = read(fd, val, sizeof(val));
	close(fd);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = n > 0 ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	if (fd < 0 || write(fd, val, (size_t)n) != n)
		ret = -EIO;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Make slot @n in every hierarchy; 0 or -errno (what was made removed). */
static int slot_make(const struct oci_pool *p, long n)
{
	char name[OCI_POOL_NAME_MAX], dir[PATH_MAX];
	int i, ret = 0;

	slot_name(p, n, name, sizeof(name));
	for (i = 0; i < p->nhier && !ret; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", p->hier[i], name);
		ret = mkdir(dir, 0755) ? -errno : 0;
		ret = ret ?: cpuset_copy(p->hier[i], dir, "cpuset.cpus");
		ret = ret ?: cpuset_copy(p->hier[i], dir, "cpuset.mems");
	}
	if (ret)
		oci_cgroups_remove_named(name);
	return ret;
}

/* Record event @ev (p->lock held). */
static void event_add(struct oci_pool *p, enum pool_event ev, long long cost,
		      long long cpu)
{
	struct pool_event_rec *r;

	if (p->nev >= MAX_EVENTS) {
		p->lost++;
		return;
	}
	r = &p->ev[p->nev++];
	*r = (struct pool_event_rec){ clock_now_ns(), p->nfree, cost, cpu, ev };
}

/* Make one slot, timed, and add it to the free ones as event @ev. */
static int slot_add(struct oci_pool *p, enum pool_event ev)
{
	long long t0 = clock_now_ns(), c0 = clock_thread_cpu_ns(), cost, cpu;
	long n;
	int ret;

	pthread_mutex_lock(&p->lock);
	n = p->next++;
	pthread_mutex_unlock(&p->lock);
	ret = slot_make(p, n);
	cost = clock_now_ns() - t0;
	cpu = clock_thread_cpu_ns() - c0;
	pthread_mutex_lock(&p->lock);
	if (!ret)
		p->free_slots[p->nfree++] = n;
	event_add(p, ev, ret ? -1 : cost, ret ? -1 : cpu);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/*
 * Wait on p->wake (p->lock held) for @ns, or until signalled when @woken:
 * a take wakes an idle refill, never shortens the gap between two refills.
 */
static void wait_ns(struct oci_pool *p, long long ns, int woken)
{
	long long until = clock_now_ns() + ns;
	struct timespec ts = { until / 1000000000LL, until % 1000000000LL };

	while (!p->stop && clock_now_ns() < until &&
	       pthread_cond_timedwait(&p->wake, &p->lock, &ts) != ETIMEDOUT && !woken)
		;
}

/* Refill at p->rate from when p->low or fewer are free until full. */
static void *refill_main(void *arg)
{
	struct oci_pool *p = arg;
	long long gap = p->rate > 0 ? (long long)(1e9 / p->rate) : 100000000LL;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (p->nfree >= p->size)
			p->refilling = 0;
		else if (p->nfree <= p->low && p->rate > 0)
			p->refilling = 1;
		if (!p->refilling) {
			wait_ns(p, 100000000LL, 1);   /* a take signals */
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		if (slot_add(p, EV_REFILL))
			pr_warn("cgroup pool %s: a refill failed", p->prefix);
		pthread_mutex_lock(&p->lock);
		if (!p->stop)
			wait_ns(p, gap, 0);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int oci_pool_take(struct oci_pool *p, char *name, size_t len)
{
	int ret = -EAGAIN;

	pthread_mutex_lock(&p->lock);
	if (p->nfree > 0) {
		slot_name(p, p->free_slots[--p->nfree], name, len);
		ret = 0;
	}
	event_add(p, ret ? EV_FALLBACK : EV_TAKE, -1, -1);
	pthread_cond_signal(&p->wake);
	pthread_mutex_unlock(&p->lock);
	return ret;
}

/* Is slot @name whole (in every hierarchy) and empty? */
static int slot_reusable(const struct oci_pool *p, const char *name)
{
	char path[PATH_MAX], c;
	int i, fd, empty = 1;

	for (i = 0; i < p->nhier && empty; i++) {
		snprintf(path, sizeof(path), "%s/%s/cgroup.procs", p->hier[i], name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		empty = fd >= 0 && read(fd, &c, 1) == 0;
		if (fd >= 0)
			close(fd);
	}
	return empty;
}

void oci_pool_give(struct oci_pool *p, const char *name)
{
	size_t plen = strlen(p->prefix);
	int reuse, kept = 0;

	if (strncmp(name, p->prefix, plen))
		return;
	reuse = slot_reusable(p, name);
	pthread_mutex_lock(&p->lock);
	if (reuse && p->nfree < p->size) {
		p->free_slots[p->nfree++] = strtol(name + plen, NULL, 10);
		kept = 1;
	}
	event_add(p, kept ? EV_RECYCLE : EV_SPENT, -1, -1);
	pthread_mutex_unlock(&p->lock);
	if (!kept)
		oci_cgroups_remove_named(name);
}

/* Journal the pool's prefix, make its @size slots: 0 or -errno with @why. */
static int pool_fill(struct oci_pool *p, char *why, size_t len)
{
	int i, ret;

	p->journal_id = journal_object("oci-pool", p->prefix);
	if (p->journal_id < 0) {
		snprintf(why, len, "cannot journal cgroup pool %s: %s", p->prefix,
			 strerror((int)-p->journal_id));
		return (int)p->journal_id;
	}
	for (i = 0; i < p->size; i++) {
		ret = slot_add(p, EV_FILL);
		if (ret) {
			snprintf(why, len, "cgroup pool: cannot make cgroup %d of %d (%s%d "
				 "under %s): %s", i + 1, p->size, p->prefix, i, CGROUP_ROOT,
				 strerror(-ret));
			return ret;
		}
	}
	return 0;
}

static int pool_init(struct oci_pool *p, int size, int low, double rate)
{
	static int seq;
	pthread_condattr_t ca;

	p->size = size;
	p->low = low;
	p->rate = rate;
	snprintf(p->prefix, sizeof(p->prefix), "cvmbench-pool-%d-%d-", (int)getpid(), seq++);
	p->free_slots = calloc((size_t)size, sizeof(*p->free_slots));
	p->ev = calloc(MAX_EVENTS, sizeof(*p->ev));
	if (!p->free_slots || !p->ev)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_condattr_destroy(&ca);
	return 0;
}

struct oci_pool *oci_pool_open(int size, int low, double rate, char *why, size_t len)
{
	struct oci_pool *p = calloc(1, sizeof(*p));
	int ret = p ? pool_init(p, size, low, rate) : -ENOMEM;

	if (ret) {
		snprintf(why, len, "cgroup pool: out of memory");
	} else if (hierarchies_find(p)) {
		snprintf(why, len, "cgroup pool: no cgroup hierarchy under %s", CGROUP_ROOT);
		ret = -ENOENT;
	} else {
		ret = pool_fill(p, why, len);
	}
	if (!ret && pthread_create(&p->refill, NULL, refill_main, p) == 0) {
		p->running = 1;
		return p;
	}
	if (!ret)
		snprintf(why, len, "cgroup pool: cannot start the refill thread");
	oci_pool_close(p, NULL);
	return NULL;
}

struct pool_row {
	long long t_ns;
	const char *event;
	long long free, cost_ns, cpu_ns;
};

static const struct sink_column pool_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct pool_row, t_ns),
	SINK_TEXT(struct pool_row, event),
	SINK_INT(struct pool_row, free),
	SINK_KNOWN(struct pool_row, cost_ns),
	SINK_KNOWN(struct pool_row, cpu_ns),
};
static const struct sink_table pool_table = SINK_TABLE("oci_pool_event", pool_cols);

/* The events as rows, then the totals as the cell's metrics pool.*. */
static void pool_store(const struct oci_pool *p, struct sink *s)
{
	long long n[6] = { 0 }, cost = 0, cpu = 0, low = p->size;
	struct pool_row r;
	size_t i;

	for (i = 0; i < p->nev; i++) {
		r = (struct pool_row){ p->ev[i].t_ns, event_names[p->ev[i].ev],
				       p->ev[i].free, p->ev[i].cost_ns, p->ev[i].cpu_ns };
		if (sink_row(s, &pool_table, &r) < 0)
			break;
		n[p->ev[i].ev]++;
		if (p->ev[i].ev == EV_REFILL && p->ev[i].cost_ns >= 0) {
			cost += p->ev[i].cost_ns;
			cpu += p->ev[i].cpu_ns;
		}
		if (p->ev[i].ev != EV_FILL && p->ev[i].free < low)
			low = p->ev[i].free;      /* once filled */
	}
	sink_metric(s, POOL_METRIC_TAKES, (double)n[EV_TAKE], "count");
	sink_metric(s, POOL_METRIC_FALLBACKS, (double)n[EV_FALLBACK], "count");
	sink_metric(s, POOL_METRIC_REFILLS, (double)n[EV_REFILL], "count");
	sink_metric(s, POOL_METRIC_RECYCLED, (double)n[EV_RECYCLE], "count");
	sink_metric(s, POOL_METRIC_REFILL_NS, (double)cost, "ns");
	sink_metric(s, POOL_METRIC_REFILL_CPU, (double)cpu, "ns");
	sink_metric(s, POOL_METRIC_MIN_FREE, (double)low, "count");
	sink_metric(s, POOL_METRIC_EVENTS_LOST, (double)p->lost, "count");
}

void oci_pool_close(struct oci_pool *p, struct sink *s)
{
	if (!p)
		return;
	if (p->running) {
		pthread_mutex_lock(&p->lock);
		p->stop = 1;
		pthread_cond_signal(&p->wake);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->refill, NULL);
	}
	if (s && p->ev)
		pool_store(p, s);
	journal_undo_or_warn(&p->journal_id, "cgroup pool");
	if (p->free_slots) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->wake);
	}
	free(p->free_slots);
	free(p->ev);
	free(p);
}

/* The undo of kind oci-pool: every directory named PREFIX* in each hierarchy. */
static int pool_undo(const char *prefix)
{
	struct oci_pool p = { .nhier = 0 };
	char dir[PATH_MAX];
	struct dirent *e;
	size_t len = strlen(prefix);
	int i, ret = 0;
	DIR *d;

	if (strncmp(prefix, "cvmbench-pool-", 14) || strchr(prefix, '/') ||
	    hierarchies_find(&p))
		return strchr(prefix, '/') ? -EINVAL : 0;
	for (i = 0; i < p.nhier; i++) {
		d = opendir(p.hier[i]);
		while (d && (e = readdir(d)))
			if (!strncmp(e->d_name, prefix, len)) {
				snprintf(dir, sizeof(dir), "%s/%s", p.hier[i], e->d_name);
				ret = oci_cgroup_remove(dir) ?: ret;
			}
		if (d)
			closedir(d);
	}
	return ret;
}

static const struct journal_kind kind_pool = { "oci-pool", pool_undo };
JOURNAL_KIND_REGISTER(kind_pool)
