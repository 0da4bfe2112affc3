/* SPDX-License-Identifier: MIT */
/*
 * rec-queue.h - a queue of raw trace records (timestamp, bytes) that
 * grows as records come, up to a cap in bytes; beyond the cap a record is
 * dropped and counted, never stored in part. The vmexit probe's reader
 * thread moves kvm_exit/kvm_entry records out of the kernel's ring buffer
 * into one while a window runs; they are paired at the window's boundary
 * (probes/vmexit-time.c).
 */
#ifndef CVMBENCH_REC_QUEUE_H
#define CVMBENCH_REC_QUEUE_H

#include <stddef.h>
#include <stdint.h>

struct rec_queue {
	unsigned char *buf;
	size_t len, cap;          /* bytes queued, bytes allocated */
	size_t max;               /* the cap in bytes (0: REC_QUEUE_MAX_DEFAULT) */
	uint64_t queued, dropped; /* records queued since the last drain, dropped ever */
};

#define REC_QUEUE_MAX_DEFAULT ((size_t)1 << 30)

/* Called for each record by rec_queue_drain(); non-zero stops the drain. */
typedef int (*rec_queue_fn)(void *ctx, const void *data, size_t len, uint64_t ts_ns);

/**
 * rec_queue_push() - append record @data (@len bytes, at @ts_ns), growing
 * the queue by doubling up to its cap. 0, or -ENOBUFS (beyond the cap) or
 * -ENOMEM after counting the record in @q->dropped.
 */
int rec_queue_push(struct rec_queue *q, const void *data, size_t len, uint64_t ts_ns);
/**
 * rec_queue_drain() - @fn on each queued record in the order pushed, then
 * the queue emptied (its memory kept). Returns 0 or @fn's non-zero value
 * (the queue is emptied either way).
 */
int rec_queue_drain(struct rec_queue *q, rec_queue_fn fn, void *ctx);
/** rec_queue_bytes() - a record of @len bytes' share of the queue. */
size_t rec_queue_bytes(size_t len);
/** rec_queue_free() - release @q's memory; its cap and counters are kept. */
void rec_queue_free(struct rec_queue *q);

#endif
