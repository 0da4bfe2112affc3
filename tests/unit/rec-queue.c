// SPDX-License-Identifier: MIT
/*
 * tests/unit/rec-queue.c - the capped, growing record queue
 * (lib/rec-queue.c) on generated records: records of every length
 * from 0 to 200 bytes, enough to make the queue grow past its first
 * MiB several times, come back in the order pushed, byte for byte, with
 * their timestamps; beyond the cap a record is dropped and counted, never
 * stored in part; a drain empties the queue and a callback's non-zero
 * value stops it.
 */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "rec-queue.h"
#include "tap.h"

#define NREC 40000

struct check {
	uint64_t next;            /* the record expected next */
	uint64_t bad, seen, stop_at;
};

/* Record @i: (@i % 201) bytes, byte j = (i * 31 + j) & 0xff, at ts 1000 * i. */
static size_t make(uint64_t i, unsigned char *buf)
{
	size_t len = (size_t)(i % 201), j;

	for (j = 0; j < len; j++)
		buf[j] = (unsigned char)((i * 31 + j) & 0xff);
	return len;
}

static int verify(void *ctx, const void *data, size_t len, uint64_t ts)
{
	struct check *c = ctx;
	unsigned char want[256];
	size_t n = make(c->next, want);

	c->bad += n != len || ts != 1000 * c->next || memcmp(want, data, n);
	c->next++;
	c->seen++;
	return c->stop_at && c->seen == c->stop_at;
}

int main(void)
{
	struct rec_queue q = { 0 };
	struct check c = { 0 };
	unsigned char buf[256];
	size_t len, fit;
	uint64_t i, dropped = 0;
	int ret = 0;

	tap_plan(4);
	for (i = 0; i < NREC && !ret; i++) {
		len = make(i, buf);
		ret = rec_queue_push(&q, buf, len, 1000 * i);
	}
	tap_ok(!ret && q.queued == NREC && q.cap > (1u << 20) && !q.dropped,
	       "%d records of 0..200 bytes queued, the queue grown to %zu bytes", NREC, q.cap);
	ret = rec_queue_drain(&q, verify, &c);
	tap_ok(!ret && c.seen == NREC && !c.bad && q.len == 0 && q.queued == 0,
	       "drained in the order pushed, byte for byte with their timestamps (%llu of %d, "
	       "%llu wrong), the queue empty", (unsigned long long)c.seen, NREC,
	       (unsigned long long)c.bad);
	q.max = 64 * 1024;        /* smaller than the memory the queue has */
	fit = q.max / rec_queue_bytes(100);
	for (i = 0; i < fit + 10; i++)
		dropped += rec_queue_push(&q, buf, 100, i) == -ENOBUFS;
	tap_ok(dropped == 10 && q.dropped == 10 && q.queued == fit && q.len <= q.max,
	       "a cap of 64 KiB: %zu records of 100 bytes kept, the 10 beyond it dropped and "
	       "counted (%llu), never stored in part", fit, (unsigned long long)q.dropped);
	memset(&c, 0, sizeof(c));
	c.stop_at = 3;
	ret = rec_queue_drain(&q, verify, &c);
	tap_ok(ret == 1 && c.seen == 3 && q.len == 0,
	       "a callback's non-zero value stops the drain and is returned; the queue emptied");
	rec_queue_free(&q);
	return tap_done();
}
