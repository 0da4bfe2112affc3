// SPDX-License-Identifier: MIT
/*
 * plus-list.c - the items of a '+'-joined list (plus-list.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "plus-list.h"

/**
 * plus_list_item() - copy item @i (from 0) of @list into @out (when @out
 * is not NULL and @i is an item). Returns the number of items, -EINVAL
 * when an item is empty ("a++b", "+a", "a+") or -ENAMETOOLONG when item @i
 * does not fit @len.
 */
int plus_list_item(const char *list, int i, char *out, size_t len)
{
	const char *p = list;
	size_t n;
	int k = 0;

	for (;; k++) {
		n = strcspn(p, "+");
		if (!n)
			return -EINVAL;
		if (k == i && out) {
			if (n >= len)
				return -ENAMETOOLONG;
			snprintf(out, len, "%.*s", (int)n, p);
		}
		if (!p[n])
			return k + 1;
		p += n + 1;
	}
}
