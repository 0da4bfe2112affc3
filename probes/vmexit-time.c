// SPDX-License-Identifier: MIT
/*
 * vmexit-time.c - exit-handling time per reason for the vmexit probe's
 * windows (vmexit-time.h): kvm_exit and kvm_entry of the VM threads
 * streamed into a tracefs instance of its own through libtracefs, each
 * raw record paired by lib/exit-pair.c at the offsets of the
 * running kernel's format files; window totals are differences of
 * snapshots taken when the buffer is drained at the window's boundaries.
 * Between them a reader thread (sampler.c, every READ_PERIOD_S) moves the
 * ring buffer's records into a queue that grows up to its cap
 * (vx_time_cap()), so a long window does not overrun the ring buffer; the
 * queue is paired at each boundary. One mutex orders the reader's and a
 * boundary's reads of the instance and the queue.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "procmem.h"
#include "vmexit-metrics.h"
#include "vmexit-time.h"

static int feed_one(void *ctx, const void *data, size_t len, uint64_t ts_ns)
{
	return vx_time_feed(ctx, data, len, ts_ns);
}

/* Every queued record paired, in the order queued; the queue emptied. */
static int pair_queue(struct vx_time *t)
{
	return rec_queue_drain(&t->q, feed_one, t);
}

#ifdef HAVE_TRACEFS
#include <event-parse.h>
#include <tracefs.h>

#include <pthread.h>

#include "pidns.h"
#include "sampler.h"
#include "tp-format.h"
#include "tracefs-host.h"

#define READ_PERIOD_S 0.05        /* the reader: 50 ms of 300 k exits/s is ~1.2 MB a CPU */

struct vx_time_stream {
	struct tracefs_instance *inst;
	long jid;
	struct tep_handle *tep;
	pthread_mutex_t mu;       /* the instance's reads, the queue, the counters */
	struct sampler reader;
};

int vx_time_fields(struct vx_time *t, const char *dir)
{
	struct tp_format x = { 0 }, e = { 0 };
	char err[200];
	int ret = tp_format_load(&x, dir, "kvm", VMEXIT_KVM_EXIT, err, sizeof(err)) ?:
		  tp_format_load(&e, dir, "kvm", "kvm_entry", err, sizeof(err)) ?:
		  exit_pair_fields_load(&t->fl, &x, &e, err, sizeof(err));

	if (ret)
		snprintf(t->why, sizeof(t->why), "no exit-handling time: %s", err);
	tp_format_free(&x);
	tp_format_free(&e);
	return ret;
}

/* Thread ids here mean the same in trace records: in the initial pid namespace only. */
static int ids_comparable(struct vx_time *t)
{
	struct pidns_id ns;
	int ret = pidns_self(&ns);

	if (!ret && !pidns_is_initial(&ns))
		ret = -EXDEV;
	if (ret)
		snprintf(t->why, sizeof(t->why), "no exit-handling time: %s", ret == -EXDEV ?
			 "cvmbench runs in a pid namespace of its own (trace records carry "
			 "the initial namespace's thread ids)" : "/proc/self/ns/pid unreadable");
	return ret;
}

static int stream_setup(struct vx_time *t, const char *dir, const pid_t *tids, size_t n)
{
	const char *systems[] = { "kvm", NULL };
	struct vx_time_stream *st = t->st;
	char name[64], pids[16 * 64] = "";
	size_t i, used = 0;
	int ret;

	snprintf(name, sizeof(name), "cvmbench-vmexit-time-%d", (int)getpid());
	ret = tracefs_host_instance(name, &st->inst, &st->jid, t->why, sizeof(t->why));
	for (i = 0; !ret && i < n && used < sizeof(pids) - 16; i++)
		used += (size_t)snprintf(pids + used, sizeof(pids) - used, "%s%d", i ? " " : "",
					 (int)tids[i]);
	if (!ret && (tracefs_instance_set_buffer_size(st->inst, VX_TIME_RING_KB, -1) ||
		     tracefs_instance_file_write(st->inst, "trace_clock", "mono") < 0 ||
		     tracefs_instance_file_write(st->inst, "set_event_pid", pids) < 0 ||
		     tracefs_option_enable(st->inst, TRACEFS_OPTION_EVENT_FORK) ||
		     tracefs_event_enable(st->inst, "kvm", VMEXIT_KVM_EXIT) ||
		     tracefs_event_enable(st->inst, "kvm", "kvm_entry"))) {
		snprintf(t->why, sizeof(t->why), "no exit-handling time: cannot set up tracefs "
			 "instance %s (kvm_exit, kvm_entry, mono clock, %zu threads)", name, n);
		ret = -EIO;
	}
	if (!ret && !(st->tep = tracefs_local_events_system(dir, systems))) {
		snprintf(t->why, sizeof(t->why), "no exit-handling time: libtraceevent cannot "
			 "read the kvm events' formats");
		ret = -ENOENT;
	}
	return ret ?: tracefs_trace_on(st->inst) ? -EIO : 0;
}

static int on_record(struct tep_event *ev, struct tep_record *rec, int cpu, void *ctx)
{
	(void)ev, (void)cpu;
	vx_time_queue(ctx, rec->data, (size_t)rec->size, rec->ts);
	return 0;
}

/*
 * Everything the instance buffered, queued; the ring buffer's overruns
 * since the last read added to @t->lost. Caller holds @t->st->mu.
 */
static int drain_locked(struct vx_time *t)
{
	long long o;

	if (tracefs_iterate_raw_events(t->st->tep, t->st->inst, NULL, 0, on_record, t) < 0)
		return -EIO;
	o = tracefs_host_overruns(t->st->inst);
	if (o > 0 && (uint64_t)o > t->overruns) {
		t->lost += (uint64_t)o - t->overruns;
		t->overruns = (uint64_t)o;
	}
	return 0;
}

/* The reader thread's period: the ring buffer into the queue. */
static void reader_tick(void *arg)
{
	struct vx_time *t = arg;

	pthread_mutex_lock(&t->st->mu);
	drain_locked(t);          /* an error shows at the boundary's own drain */
	pthread_mutex_unlock(&t->st->mu);
}

/* The queue's cap from MemAvailable, then the reader thread. 0 or -errno. */
static int reader_start(struct vx_time *t)
{
	struct meminfo m;
	int ret;

	t->q.max = vx_time_cap(meminfo_read(&m) ? -1 : m.mem_available);
	ret = sampler_start(&t->st->reader, READ_PERIOD_S, reader_tick, t);
	if (ret)
		snprintf(t->why, sizeof(t->why), "no exit-handling time: cannot start the "
			 "trace reader thread: %s", strerror(-ret));
	return ret;
}

/* Drain the stream (if any) into the queue and pair the queue; caller holds the lock. */
static int drain(struct vx_time *t)
{
	return (t->st ? drain_locked(t) : 0) ?: pair_queue(t);
}

/* The reader thread kept out while a boundary drains and takes its snapshot. */
static void stream_lock(struct vx_time *t, int lock)
{
	if (t->st && lock)
		pthread_mutex_lock(&t->st->mu);
	else if (t->st)
		pthread_mutex_unlock(&t->st->mu);
}

/* The reader thread stopped (joined); the instance stays until the close. */
static void reader_stop(struct vx_time *t)
{
	if (t->st)
		sampler_stop(&t->st->reader);
}

static void stream_close(struct vx_time *t)
{
	if (!t->st)
		return;
	sampler_stop(&t->st->reader);
	if (t->st->inst || t->st->jid)
		tracefs_host_instance_remove(t->st->inst, t->st->jid);
	if (t->st->tep)
		tep_free(t->st->tep);
	pthread_mutex_destroy(&t->st->mu);
	free(t->st);
	t->st = NULL;
}

int vx_time_open(struct vx_time *t, const char *dir, const pid_t *tids, size_t n)
{
	int ret;

	memset(t, 0, sizeof(*t));
	ret = vx_time_fields(t, dir) ?: ids_comparable(t);
	if (ret)
		return ret;
	t->st = calloc(1, sizeof(*t->st));
	if (t->st)
		pthread_mutex_init(&t->st->mu, NULL);
	ret = t->st ? stream_setup(t, dir, tids, n) : -ENOMEM;
	if (!ret)
		ret = reader_start(t);
	if (ret) {
		if (ret == -ENOMEM)
			snprintf(t->why, sizeof(t->why), "no exit-handling time: out of memory");
		vx_time_close(t);
	}
	return ret;
}

#else /* !HAVE_TRACEFS */

int vx_time_fields(struct vx_time *t, const char *dir)
{
	(void)dir;
	snprintf(t->why, sizeof(t->why), "no exit-handling time: built without libtracefs");
	return -ENOTSUP;
}

int vx_time_open(struct vx_time *t, const char *dir, const pid_t *tids, size_t n)
{
	(void)tids, (void)n;
	memset(t, 0, sizeof(*t));
	return vx_time_fields(t, dir);
}

static int drain(struct vx_time *t)
{
	return pair_queue(t);
}

static void stream_lock(struct vx_time *t, int lock)
{
	(void)t, (void)lock;
}

static void reader_stop(struct vx_time *t)
{
	(void)t;
}

static void stream_close(struct vx_time *t)
{
	(void)t;
}

#endif

size_t vx_time_cap(long long mem_available_kb)
{
	unsigned long long quarter = mem_available_kb > 0 ?
				     (unsigned long long)mem_available_kb * 1024 / 4 : 0;

	if (!quarter || quarter > REC_QUEUE_MAX_DEFAULT)
		return REC_QUEUE_MAX_DEFAULT;
	return (size_t)quarter;
}

int vx_time_queue(struct vx_time *t, const void *data, size_t len, uint64_t ts_ns)
{
	int ret;

	if (t->why[0])            /* no time at all: nothing will pair the record */
		return -ECANCELED;
	ret = rec_queue_push(&t->q, data, len, ts_ns);

	t->lost += ret != 0;
	return ret;
}

int vx_time_feed(struct vx_time *t, const void *data, size_t len, uint64_t ts_ns)
{
	int ret = exit_pair_feed(&t->pair, &t->fl, data, len, ts_ns);

	t->events++;
	t->bad += ret == -EINVAL;
	return ret == -EINVAL ? 0 : ret;
}

/* Window @w's start (@end 0) or stop: @t's running totals copied. */
static int snapshot(struct vx_time *t, int w, int end)
{
	struct vx_time_mark *m = &t->at[w][end];
	void *r = realloc(m->r, (t->pair.nr ? t->pair.nr : 1) * sizeof(*m->r));

	if (!r)
		return -ENOMEM;
	m->r = r;
	if (t->pair.nr)
		memcpy(m->r, t->pair.r, t->pair.nr * sizeof(*m->r));
	m->nr = t->pair.nr;
	m->events = t->events;
	m->lost = t->lost;
	m->bad = t->bad;
	m->dropped = t->q.dropped;
	return 0;
}

void vx_time_fail(struct vx_time *t, int err)
{
	reader_stop(t);           /* joined: from here on this thread alone touches @t */
	rec_queue_free(&t->q);
	if (!t->why[0])
		snprintf(t->why, sizeof(t->why), "no exit-handling time: draining the trace "
			 "stream failed: %s", strerror(-err));
}

int vx_time_mark(struct vx_time *t, int w, int end)
{
	int ret;

	if (t->why[0])
		return -ECANCELED;
	stream_lock(t, 1);
	ret = drain(t) ?: snapshot(t, w, end);
	stream_lock(t, 0);
	if (ret)
		vx_time_fail(t, ret);
	return ret;
}

/* Whether the code of @r is (@isa, one of @codes), or any of @isa when @n is 0. */
static int wanted(const struct exit_pair_reason *r, uint32_t isa,
		  const unsigned long long *codes, size_t n)
{
	size_t i;

	if (r->isa != isa)
		return 0;
	for (i = 0; i < n; i++)
		if (codes[i] == r->reason)
			return 1;
	return !n;
}

/* @m's entry of (@isa, @reason), or NULL: exit_pair_find() on the snapshot. */
static const struct exit_pair_reason *at_mark(const struct vx_time_mark *m, uint32_t isa,
					      uint32_t reason)
{
	const struct exit_pair snap = { .r = m->r, .nr = m->nr };

	return exit_pair_find(&snap, isa, reason);
}

/* @t's queue cap in bytes. */
static size_t vx_time_qmax(const struct vx_time *t)
{
	return t->q.max ? t->q.max : REC_QUEUE_MAX_DEFAULT;
}

long long vx_time_window(const struct vx_time *t, int w, uint32_t isa,
			 const unsigned long long *codes, size_t n, uint64_t *pairs,
			 char *why, size_t whylen)
{
	const struct vx_time_mark *a = &t->at[w][0], *b = &t->at[w][1];
	const struct exit_pair_reason *s;
	unsigned long long ns = 0;
	size_t i;

	*pairs = 0;
	if (t->why[0]) {
		snprintf(why, whylen, "%s", t->why);
		return -1;
	}
	if (b->dropped != a->dropped) {
		snprintf(why, whylen, "no exit-handling time: the record queue reached its cap "
			 "(%zu MiB) and dropped %llu events in the window", vx_time_qmax(t) >> 20,
			 (unsigned long long)(b->dropped - a->dropped));
		return -1;
	}
	if (b->lost != a->lost || b->bad != a->bad) {
		snprintf(why, whylen, "no exit-handling time: the trace buffer dropped %llu "
			 "events and %llu records were unreadable in the window",
			 (unsigned long long)(b->lost - a->lost),
			 (unsigned long long)(b->bad - a->bad));
		return -1;
	}
	for (i = 0; i < b->nr; i++) {
		if (!wanted(&b->r[i], isa, codes, n))
			continue;
		s = at_mark(a, isa, b->r[i].reason);
		*pairs += b->r[i].count - (s ? s->count : 0);
		ns += b->r[i].time_ns - (s ? s->time_ns : 0);
	}
	if (!*pairs) {
		snprintf(why, whylen, "no exit-handling time: no kvm_exit -> kvm_entry pair "
			 "closed in the window");
		return -1;
	}
	return (long long)ns;
}

void vx_time_close(struct vx_time *t)
{
	char why[sizeof(t->why)];
	int i;

	stream_close(t);
	exit_pair_free(&t->pair);
	rec_queue_free(&t->q);
	for (i = 0; i < 4; i++)
		free(t->at[i / 2][i % 2].r);
	memcpy(why, t->why, sizeof(why));
	memset(t, 0, sizeof(*t));
	memcpy(t->why, why, sizeof(why));
}
