/* SPDX-License-Identifier: MIT */
/*
 * heap.h - a binary min-heap of fixed-size entries, each beginning with its
 * key (a double): the simulator's timers (sim.c) and gdsf priorities
 * (sim-evict.c), the 2021 trace's reorder buffer (trace-azure21.c). Entries
 * of equal key leave in an order fixed by the pushes and pops, so a run is
 * repeatable. Push and pop are inline: with the entry size a constant the
 * copies compile to plain moves (the simulator's hot path).
 */
#ifndef CVMBENCH_HEAP_H
#define CVMBENCH_HEAP_H

#include <errno.h>
#include <stddef.h>
#include <string.h>

struct heap {
	void *v;
	size_t n, cap;
};

/** heap_grow() - room for more entries of @size bytes: 0 or -ENOMEM. */
int heap_grow(struct heap *h, size_t size);
/** heap_free() - free the entries; the heap is then empty and can grow again. */
void heap_free(struct heap *h);

static inline void *heap_at(const struct heap *h, size_t k, size_t size)
{
	return (char *)h->v + k * size;
}

/** heap_key() - the key of entry @e (its first member). */
static inline double heap_key(const void *e)
{
	double key;

	memcpy(&key, e, sizeof(key));
	return key;
}

/** heap_top_key() - the smallest key; the heap must not be empty. */
static inline double heap_top_key(const struct heap *h)
{
	return heap_key(h->v);
}

/** heap_push() - add the @size-byte entry @e: 0 or -ENOMEM (the heap unchanged). */
static inline int heap_push(struct heap *h, const void *e, size_t size)
{
	double key = heap_key(e);
	size_t k;

	if (h->n == h->cap && heap_grow(h, size))
		return -ENOMEM;
	for (k = h->n++; k && heap_key(heap_at(h, (k - 1) / 2, size)) > key; k = (k - 1) / 2)
		memcpy(heap_at(h, k, size), heap_at(h, (k - 1) / 2, size), size);
	memcpy(heap_at(h, k, size), e, size);
	return 0;
}

/** heap_pop() - take the entry of smallest key into @top; the heap must not be empty. */
static inline void heap_pop(struct heap *h, void *top, size_t size)
{
	const void *last;
	size_t k = 0, c;

	memcpy(top, h->v, size);
	last = heap_at(h, --h->n, size);    /* past the end now: the moves below never reach it */
	while ((c = 2 * k + 1) < h->n) {
		if (c + 1 < h->n && heap_key(heap_at(h, c + 1, size)) < heap_key(heap_at(h, c, size)))
			c++;
		if (heap_key(heap_at(h, c, size)) >= heap_key(last))
			break;
		memcpy(heap_at(h, k, size), heap_at(h, c, size), size);
		k = c;
	}
	if (h->n)
		memcpy(heap_at(h, k, size), last, size);
}

#endif
