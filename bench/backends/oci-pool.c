// SPDX-License-Identifier: MIT
/*
 * oci-pool.c - the pools of runc / crun cold starts, whatever they hold
 * (struct oci_pool_kind: cgroups, oci-pool-cgroup.c; network namespaces
 * with a veth pair, oci-pool-netns.c). AFaaS keeps 600 cgroups and 1 000
 * veth devices ready; here a pool is made before the starts, each start
 * takes a slot, and a refill thread makes new slots beside the measured
 * starts from the low-water mark on, at the refill rate, until the pool
 * is full. What this costs is measured where it happens: each fill's,
 * refill's and made fallback's wall time, the refill thread's own CPU time
 * for it, and for a namespace its veth pair's creation alone, stored with
 * the pool's free count after every event in oci_pool_event and per cell
 * as metrics PREFIX.* (pool-metrics.h). A pool is journalled (its kind's
 * journal kind, its name prefix) before its first slot exists; the kind's
 * undo removes every slot with that prefix.
 */
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "clock.h"
#include "journal.h"
#include "log.h"
#include "oci-pool.h"
#include "pool-metrics.h"
#include "sink.h"

#define MAX_EVENTS 65536
#define MAX_HANDED 256

enum pool_event { EV_FILL, EV_TAKE, EV_FALLBACK, EV_REFILL, EV_RECYCLE, EV_SPENT, EV_N };
static const char *const event_names[] = {
	POOL_EVENT_FILL, POOL_EVENT_TAKE, POOL_EVENT_FALLBACK, POOL_EVENT_REFILL,
	POOL_EVENT_RECYCLE, POOL_EVENT_SPENT,
};

struct pool_event_rec {
	long long t_ns, free, cost_ns, cpu_ns, step_ns;   /* -1 = not a creation */
	enum pool_event ev;
};

struct oci_pool {
	const struct oci_pool_kind *kind;
	void *priv;               /* the kind's (setup) */
	pthread_mutex_t lock;
	pthread_cond_t wake;      /* the refill's: a take, a fallback asked, stop */
	pthread_cond_t made;      /* the waiting starts': a fallback made */
	pthread_t refill;
	int running, stop, refilling;
	int size, low;
	double rate;
	char prefix[48];
	long journal_id;
	long *free_slots;         /* slot numbers */
	int nfree;
	int nreq;                 /* fallbacks asked of the refill thread */
	long handed[MAX_HANDED];  /* fallbacks made for them (-1: failed) */
	int nhanded;
	struct pool_event_rec *ev;
	size_t nev;
	long long lost;           /* events past MAX_EVENTS */
};

/* Slot numbers are unique in the process (a veth's name is made of one). */
static long slot_next(void)
{
	static long next;

	return __atomic_fetch_add(&next, 1, __ATOMIC_RELAXED);
}

static void slot_name(const struct oci_pool *p, long n, char *buf, size_t len)
{
	snprintf(buf, len, "%s%ld", p->prefix, n);
}

/* Record event @ev (p->lock held). */
static void event_add(struct oci_pool *p, enum pool_event ev, long long cost,
		      long long cpu, long long step)
{
	struct pool_event_rec *r;

	if (p->nev >= MAX_EVENTS) {
		p->lost++;
		return;
	}
	r = &p->ev[p->nev++];
	*r = (struct pool_event_rec){ clock_now_ns(), p->nfree, cost, cpu, step, ev };
}

/*
 * Make a new slot, timed, and record it as event @ev; into the free ones
 * (@keep), else its number into *@out. 0 or -errno.
 */
static int slot_add(struct oci_pool *p, enum pool_event ev, int keep, long *out)
{
	long long t0 = clock_now_ns(), c0 = clock_thread_cpu_ns(), cost, cpu, step = -1;
	char name[OCI_POOL_NAME_MAX];
	long n = slot_next();
	int ret;

	slot_name(p, n, name, sizeof(name));
	ret = p->kind->make(p->priv, name, n, &step);
	cost = clock_now_ns() - t0;
	cpu = clock_thread_cpu_ns() - c0;
	pthread_mutex_lock(&p->lock);
	if (!ret && keep)
		p->free_slots[p->nfree++] = n;
	event_add(p, ev, ret ? -1 : cost, ret ? -1 : cpu, ret ? -1 : step);
	pthread_mutex_unlock(&p->lock);
	if (out)
		*out = n;
	return ret;
}

/*
 * Wait on p->wake (p->lock held) for @ns, or until signalled when @woken:
 * a take wakes an idle refill, never shortens the gap between two refills;
 * a start waiting for a fallback ends the wait.
 */
static void wait_ns(struct oci_pool *p, long long ns, int woken)
{
	long long until = clock_now_ns() + ns;
	struct timespec ts = { until / 1000000000LL, until % 1000000000LL };

	while (!p->stop && !p->nreq && clock_now_ns() < until &&
	       pthread_cond_timedwait(&p->wake, &p->lock, &ts) != ETIMEDOUT && !woken)
		;
}

/*
 * A slot made on the spot for a start that found the pool empty (p->lock
 * held): the refill thread makes it (serve_fallback()) while the start
 * waits. Not in the start's own thread: the runc probe takes every fork
 * of cvmbench's main thread in an invocation window, and every child of
 * those, for a container start, and the slot's helpers (ip, the
 * namespace's binder) are none. Its number, or -1.
 */
static long fallback_wait(struct oci_pool *p)
{
	p->nreq++;
	pthread_cond_signal(&p->wake);
	while (!p->nhanded && !p->stop)
		pthread_cond_wait(&p->made, &p->lock);
	return p->nhanded ? p->handed[--p->nhanded] : -1;
}

/* Make the slot a waiting start asked for (p->lock held, dropped meanwhile). */
static void serve_fallback(struct oci_pool *p)
{
	long n = -1;
	int ret;

	p->nreq--;
	pthread_mutex_unlock(&p->lock);
	ret = slot_add(p, EV_FALLBACK, 0, &n);
	pthread_mutex_lock(&p->lock);
	if (p->nhanded < MAX_HANDED)
		p->handed[p->nhanded++] = ret ? -1 : n;
	pthread_cond_broadcast(&p->made);
}

/* Refill at p->rate from when p->low or fewer are free until full. */
static void *refill_main(void *arg)
{
	struct oci_pool *p = arg;
	long long gap = p->rate > 0 ? (long long)(1e9 / p->rate) : 100000000LL;

	pthread_mutex_lock(&p->lock);
	while (!p->stop) {
		if (p->nreq) {
			serve_fallback(p);
			continue;
		}
		if (p->nfree >= p->size)
			p->refilling = 0;
		else if (p->nfree <= p->low && p->rate > 0)
			p->refilling = 1;
		if (!p->refilling) {
			wait_ns(p, 100000000LL, 1);   /* a take signals */
			continue;
		}
		pthread_mutex_unlock(&p->lock);
		if (slot_add(p, EV_REFILL, 1, NULL))
			pr_warn("%s pool %s: a refill failed", p->kind->name, p->prefix);
		pthread_mutex_lock(&p->lock);
		if (!p->stop)
			wait_ns(p, gap, 0);
	}
	pthread_mutex_unlock(&p->lock);
	return NULL;
}

int oci_pool_take(struct oci_pool *p, char *name, size_t len)
{
	long n = -1;

	pthread_mutex_lock(&p->lock);
	if (p->nfree > 0) {
		n = p->free_slots[--p->nfree];
		event_add(p, EV_TAKE, -1, -1, -1);
		pthread_cond_signal(&p->wake);
	} else if (p->kind->fallback_makes) {
		n = fallback_wait(p);
	} else {
		event_add(p, EV_FALLBACK, -1, -1, -1);
		pthread_cond_signal(&p->wake);
	}
	pthread_mutex_unlock(&p->lock);
	if (n < 0)
		return -EAGAIN;
	slot_name(p, n, name, len);
	return 0;
}

void oci_pool_give(struct oci_pool *p, const char *name)
{
	size_t plen = strlen(p->prefix);
	int reuse, kept = 0;

	if (strncmp(name, p->prefix, plen))
		return;
	reuse = p->kind->reusable(p->priv, name);
	pthread_mutex_lock(&p->lock);
	if (reuse && p->nfree < p->size) {
		p->free_slots[p->nfree++] = strtol(name + plen, NULL, 10);
		kept = 1;
	}
	event_add(p, kept ? EV_RECYCLE : EV_SPENT, -1, -1, -1);
	pthread_mutex_unlock(&p->lock);
	if (!kept)
		p->kind->remove(p->priv, name);
}

/* Journal the pool's prefix, make its @size slots: 0 or -errno with @why. */
static int pool_fill(struct oci_pool *p, char *why, size_t len)
{
	int i, ret;

	p->journal_id = journal_object(p->kind->journal, p->prefix);
	if (p->journal_id < 0) {
		snprintf(why, len, "cannot journal %s pool %s: %s", p->kind->name, p->prefix,
			 strerror((int)-p->journal_id));
		return (int)p->journal_id;
	}
	for (i = 0; i < p->size; i++) {
		ret = slot_add(p, EV_FILL, 1, NULL);
		if (ret) {
			snprintf(why, len, "%s pool: cannot make %s %d of %d (%s...): %s",
				 p->kind->name, p->kind->name, i + 1, p->size, p->prefix,
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
	snprintf(p->prefix, sizeof(p->prefix), "%s-%d-%d-", p->kind->stem, (int)getpid(),
		 seq++);
	p->free_slots = calloc((size_t)size, sizeof(*p->free_slots));
	p->ev = calloc(MAX_EVENTS, sizeof(*p->ev));
	if (!p->free_slots || !p->ev)
		return -ENOMEM;
	pthread_mutex_init(&p->lock, NULL);
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_cond_init(&p->wake, &ca);
	pthread_cond_init(&p->made, NULL);
	pthread_condattr_destroy(&ca);
	return 0;
}

struct oci_pool *oci_pool_open(const struct oci_pool_kind *kind, int size, int low,
			       double rate, char *why, size_t len)
{
	struct oci_pool *p = calloc(1, sizeof(*p));
	int ret;

	if (!p) {
		snprintf(why, len, "%s pool: out of memory", kind->name);
		return NULL;
	}
	p->kind = kind;
	ret = pool_init(p, size, low, rate);
	if (ret)
		snprintf(why, len, "%s pool: out of memory", kind->name);
	ret = ret ?: kind->setup(&p->priv, why, len);
	ret = ret ?: pool_fill(p, why, len);
	if (!ret && pthread_create(&p->refill, NULL, refill_main, p) == 0) {
		p->running = 1;
		return p;
	}
	if (!ret)
		snprintf(why, len, "%s pool: cannot start the refill thread", kind->name);
	oci_pool_close(p, NULL);
	return NULL;
}

struct pool_row {
	long long t_ns;
	const char *pool, *event;
	long long free, cost_ns, cpu_ns, veth_ns;
};

static const struct sink_column pool_cols[] = {
	SINK_CELL("cell_id"),
	SINK_INT(struct pool_row, t_ns),
	SINK_TEXT(struct pool_row, pool),
	SINK_TEXT(struct pool_row, event),
	SINK_INT(struct pool_row, free),
	SINK_KNOWN(struct pool_row, cost_ns),
	SINK_KNOWN(struct pool_row, cpu_ns),
	SINK_KNOWN(struct pool_row, veth_ns),
};
static const struct sink_table pool_table = SINK_TABLE("oci_pool_event", pool_cols);

/* Metric PREFIX.@what of the pool. */
static void pool_metric(const struct oci_pool *p, struct sink *s, const char *what,
			double v, const char *unit)
{
	char name[64];

	snprintf(name, sizeof(name), "%s.%s", p->kind->metric, what);
	sink_metric(s, name, v, unit);
}

/* The totals of events @n and of the refills' costs @cost as the cell's metrics. */
static void pool_totals(const struct oci_pool *p, struct sink *s, const long long *n,
			const long long *cost, long long low)
{
	pool_metric(p, s, POOL_METRIC_TAKES, (double)n[EV_TAKE], "count");
	pool_metric(p, s, POOL_METRIC_FALLBACKS, (double)n[EV_FALLBACK], "count");
	pool_metric(p, s, POOL_METRIC_REFILLS, (double)n[EV_REFILL], "count");
	pool_metric(p, s, POOL_METRIC_RECYCLED, (double)n[EV_RECYCLE], "count");
	pool_metric(p, s, POOL_METRIC_REFILL_NS, (double)cost[0], "ns");
	pool_metric(p, s, POOL_METRIC_REFILL_CPU, (double)cost[1], "ns");
	if (cost[2] >= 0)
		pool_metric(p, s, POOL_METRIC_REFILL_VETH, (double)cost[2], "ns");
	pool_metric(p, s, POOL_METRIC_MIN_FREE, (double)low, "count");
	pool_metric(p, s, POOL_METRIC_EVENTS_LOST, (double)p->lost, "count");
}

/* The events as rows, then the totals as the cell's metrics PREFIX.*. */
static void pool_store(const struct oci_pool *p, struct sink *s)
{
	long long n[EV_N] = { 0 }, cost[3] = { 0, 0, -1 }, low = p->size;
	const struct pool_event_rec *e;
	struct pool_row r;
	size_t i;

	for (i = 0; i < p->nev; i++) {
		e = &p->ev[i];
		r = (struct pool_row){ e->t_ns, p->kind->name, event_names[e->ev], e->free,
				       e->cost_ns, e->cpu_ns, e->step_ns };
		if (sink_row(s, &pool_table, &r) < 0)
			break;
		n[e->ev]++;
		if (e->ev == EV_REFILL && e->cost_ns >= 0) {
			cost[0] += e->cost_ns;
			cost[1] += e->cpu_ns;
		}
		if (e->ev == EV_REFILL && e->step_ns >= 0)
			cost[2] = (cost[2] < 0 ? 0 : cost[2]) + e->step_ns;
		if (e->ev != EV_FILL && e->free < low)
			low = e->free;      /* once filled */
	}
	pool_totals(p, s, n, cost, low);
}

void oci_pool_close(struct oci_pool *p, struct sink *s)
{
	if (!p)
		return;
	if (p->running) {
		pthread_mutex_lock(&p->lock);
		p->stop = 1;
		pthread_cond_signal(&p->wake);
		pthread_cond_broadcast(&p->made);
		pthread_mutex_unlock(&p->lock);
		pthread_join(p->refill, NULL);
	}
	if (s && p->ev)
		pool_store(p, s);
	journal_undo_or_warn(&p->journal_id, p->kind->name);
	if (p->free_slots) {
		pthread_mutex_destroy(&p->lock);
		pthread_cond_destroy(&p->wake);
		pthread_cond_destroy(&p->made);
	}
	free(p->priv);
	free(p->free_slots);
	free(p->ev);
	free(p);
}

int oci_pool_undo_dir(const char *prefix, const char *stem, const char *dir,
		      int (*remove)(const char *dir, const char *name))
{
	size_t len = strlen(prefix), slen = strlen(stem);
	struct dirent *e;
	int ret = 0;
	DIR *d;

	if (strncmp(prefix, stem, slen) || prefix[slen] != '-' || strchr(prefix, '/'))
		return -EINVAL;
	d = opendir(dir);
	while (d && (e = readdir(d)))
		if (!strncmp(e->d_name, prefix, len))
			ret = remove(dir, e->d_name) ?: ret;
	if (d)
		closedir(d);
	return ret;
}
