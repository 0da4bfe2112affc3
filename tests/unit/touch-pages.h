/* SPDX-License-Identifier: MIT */
/*
 * touch-pages.h - write one byte in every page of a buffer, outside the
 * sanitizer's view: an instrumented store also reads the AddressSanitizer
 * shadow of the address, and faulting that shadow in adds 1/8 of the
 * buffer to the process's Rss and Anonymous memory (48 MiB touched: +6 MiB),
 * which a test counting the pages it touched must not see.
 */
#ifndef CVMBENCH_TOUCH_PAGES_H
#define CVMBENCH_TOUCH_PAGES_H

__attribute__((no_sanitize_address, noinline))
static void touch_pages(char *m, long len)
{
	long i;

	for (i = 0; i < len; i += 4096)
		((volatile char *)m)[i] = 1;
}

#endif
