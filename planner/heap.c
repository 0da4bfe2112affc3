// SPDX-License-Identifier: MIT
/*
 * heap.c - the growing and freeing of a min-heap (heap.h); push and pop
 * are inline in heap.h.
 */
#include <stdlib.h>

#include "heap.h"

int heap_grow(struct heap *h, size_t size)
{
	size_t cap = h->cap ? 2 * h->cap : 1024;
	void *p = realloc(h->v, cap * size);

	if (!p)
		return -ENOMEM;
	h->v = p;
	h->cap = cap;
	return 0;
}

void heap_free(struct heap *h)
{
	free(h->v);
	h->v = NULL;
	h->n = h->cap = 0;
}
