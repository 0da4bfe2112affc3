// SPDX-License-Identifier: MIT
/*
 * rec-queue.c - a capped, growing queue of raw trace records
 * (rec-queue.h): each record a header (timestamp, length) and its bytes,
 * padded to 8, in one buffer that doubles when full.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "rec-queue.h"

struct rec_head {
	uint64_t ts;
	uint64_t len;
};

#define ALIGN8(n) (((n) + 7) & ~(size_t)7)
#define FIRST_CAP ((size_t)1 << 20)

size_t rec_queue_bytes(size_t len)
{
	return sizeof(struct rec_head) + ALIGN8(len);
}

/* Room for @need more bytes within the cap: 0, -ENOBUFS or -ENOMEM. */
static int room(struct rec_queue *q, size_t need)
{
	size_t max = q->max ? q->max : REC_QUEUE_MAX_DEFAULT, nc = q->cap ? q->cap : FIRST_CAP;
	unsigned char *nb;

	if (q->len + need > max)
		return -ENOBUFS;  /* the cap, even where an earlier cap left more memory */
	if (q->len + need <= q->cap)
		return 0;
	while (nc < q->len + need)
		nc *= 2;
	if (nc > max)
		nc = max;
	nb = realloc(q->buf, nc);
	if (!nb)
		return -ENOMEM;
	q->buf = nb;
	q->cap = nc;
	return 0;
}

int rec_queue_push(struct rec_queue *q, const void *data, size_t len, uint64_t ts_ns)
{
	struct rec_head h = { ts_ns, len };
	size_t need = rec_queue_bytes(len);
	int ret = len > need ? -ENOBUFS : room(q, need);

	if (ret) {
		q->dropped++;
		return ret;
	}
	memcpy(q->buf + q->len, &h, sizeof(h));
	memcpy(q->buf + q->len + sizeof(h), data, len);
	q->len += need;
	q->queued++;
	return 0;
}

int rec_queue_drain(struct rec_queue *q, rec_queue_fn fn, void *ctx)
{
	struct rec_head h;
	size_t off = 0;
	int ret = 0;

	while (!ret && off < q->len) {
		memcpy(&h, q->buf + off, sizeof(h));
		ret = fn(ctx, q->buf + off + sizeof(h), (size_t)h.len, h.ts);
		off += rec_queue_bytes((size_t)h.len);
	}
	q->len = 0;
	q->queued = 0;
	return ret;
}

void rec_queue_free(struct rec_queue *q)
{
	free(q->buf);
	q->buf = NULL;
	q->len = q->cap = 0;
	q->queued = 0;
}
