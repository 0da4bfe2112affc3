/* SPDX-License-Identifier: MIT */
/*
 * vmexit-time.h - the vmexit probe's option `vmexit-time = on`: exit-
 * handling time per (isa, reason) for each window, from kvm:kvm_exit ->
 * kvm:kvm_entry record pairs (lib/exit-pair.c) of the cell's VM
 * threads, streamed into a tracefs instance of its own (journalled,
 * removed at close) and drained through libtracefs at each window
 * boundary, and during a window by a reader thread that moves the records
 * into a queue of its own (lib/rec-queue.c), which grows up to its
 * cap (vx_time_cap(): a quarter of MemAvailable at the open, at most
 * 1 GiB) so a window longer than the ring buffer holds is still measured.
 * Costly: every exit writes two records to a ring buffer, so it is off by
 * default and the probe stores what it cost (events streamed, events
 * lost, the trace-stream method's ns per event). A window in which the
 * ring buffer or the queue (beyond its cap) dropped events has no time
 * (a reason instead), never a partial sum.
 *
 * A window's time of a reason is the sum over the pairs whose entry was
 * drained in that window (a pair straddling a boundary belongs to the
 * window its entry falls in). Records are queued through vx_time_queue()
 * and paired through vx_time_feed(), which the unit test calls with
 * synthetic records.
 */
#ifndef CVMBENCH_VMEXIT_TIME_H
#define CVMBENCH_VMEXIT_TIME_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "exit-pair.h"
#include "rec-queue.h"

/* The probe's tracefs ring buffer, KiB per CPU: two records of ~40 bytes per exit. */
#define VX_TIME_RING_KB 16384

/* One window's snapshot of the stream's running totals. */
struct vx_time_mark {
	struct exit_pair_reason *r;
	size_t nr;
	uint64_t events, lost, bad, dropped;
};

struct vx_time_stream;

struct vx_time {
	struct exit_pair_fields fl;
	struct exit_pair pair;           /* running, since the open */
	struct vx_time_stream *st;       /* NULL: records come from vx_time_feed() only */
	uint64_t events, lost, bad;      /* records drained, dropped, unreadable */
	uint64_t overruns;               /* the ring buffer's, as last read (in @lost) */
	struct rec_queue q;              /* records since the last mark, not yet paired */
	struct vx_time_mark at[2][2];    /* [cell, invocation][start, stop] */
	char why[256];                   /* no time at all: why ("" when there is) */
};

/**
 * vx_time_fields() - load kvm_exit's and kvm_entry's record layout from the
 * tracing directory @dir into @t (for a caller feeding records itself).
 * 0, or -errno with the reason in @t->why.
 */
int vx_time_fields(struct vx_time *t, const char *dir);
/**
 * vx_time_open() - @t's fields, and its instance streaming kvm_exit and
 * kvm_entry of the @n threads @tids (and threads they start), tracing on.
 * 0, or -errno with the reason in @t->why (nothing left open).
 */
int vx_time_open(struct vx_time *t, const char *dir, const pid_t *tids, size_t n);
/**
 * vx_time_cap() - the queue's cap in bytes: a quarter of @mem_available_kb
 * (<= 0: unknown), at most REC_QUEUE_MAX_DEFAULT (1 GiB).
 */
size_t vx_time_cap(long long mem_available_kb);
/**
 * vx_time_queue() - one raw record (@data, @len bytes, at @ts_ns) into the
 * queue, paired at the next vx_time_mark(); beyond the queue's cap it is
 * dropped and counted (in @t->lost and @t->q.dropped). 0, or -ENOBUFS /
 * -ENOMEM for a dropped record; -ECANCELED (nothing queued or counted)
 * once @t->why is set.
 */
int vx_time_queue(struct vx_time *t, const void *data, size_t len, uint64_t ts_ns);
/** vx_time_feed() - one raw record (@data, @len bytes, at @ts_ns), paired now. */
int vx_time_feed(struct vx_time *t, const void *data, size_t len, uint64_t ts_ns);
/**
 * vx_time_mark() - drain the stream into the queue, pair every queued
 * record, and snapshot window @w's start (@end 0) or stop. On a failure
 * (-errno) the time path gives up for good (vx_time_fail()); once @t->why
 * is set it does nothing and returns -ECANCELED.
 */
int vx_time_mark(struct vx_time *t, int w, int end);
/**
 * vx_time_fail() - the time path failed for good (@err, -errno): the
 * reader thread stopped, the queue freed (and no record queued from now
 * on), the reason in @t->why (kept if it already holds one). The tracefs
 * instance stays until vx_time_close().
 */
void vx_time_fail(struct vx_time *t, int err);
/**
 * vx_time_window() - ns of window @w spent handling the exits of (@isa, each
 * reason @codes[0..@n) ), or of every reason when @n is 0 and @codes NULL;
 * -1 with the reason in @why (lost events, no pair) when it has none.
 * @pairs: pairs summed.
 */
long long vx_time_window(const struct vx_time *t, int w, uint32_t isa,
			 const unsigned long long *codes, size_t n, uint64_t *pairs,
			 char *why, size_t whylen);
/** vx_time_close() - the instance removed, everything freed; @t zeroed but @why. */
void vx_time_close(struct vx_time *t);

#endif
