// SPDX-License-Identifier: MIT
/*
 * pool-wait.c - parse and format how the pool's idle workers wait
 * (pool-wait.h).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pool-wait.h"

int pool_wait_parse(const char *s, struct pool_wait *wait)
{
	char *end;
	unsigned long us;

	if (!strcmp(s, "spin")) {
		*wait = (struct pool_wait){ POOL_WAIT_SPIN, 0 };
		return 0;
	}
	if (!strcmp(s, "block")) {
		*wait = (struct pool_wait){ POOL_WAIT_BLOCK, 0 };
		return 0;
	}
	if (!strcmp(s, "hybrid")) {
		*wait = (struct pool_wait){ POOL_WAIT_HYBRID, POOL_DEFAULT_SPIN_US };
		return 0;
	}
	if (strncmp(s, "hybrid:", 7))
		return -EINVAL;
	errno = 0;
	us = strtoul(s + 7, &end, 10);
	if (errno || end == s + 7 || *end || us > 10000000)
		return -EINVAL;
	*wait = (struct pool_wait){ POOL_WAIT_HYBRID, (unsigned int)us };
	return 0;
}

void pool_wait_format(const struct pool_wait *wait, char *buf, size_t len)
{
	switch (wait->mode) {
	case POOL_WAIT_SPIN:
		snprintf(buf, len, "spin");
		break;
	case POOL_WAIT_BLOCK:
		snprintf(buf, len, "block");
		break;
	default:
		snprintf(buf, len, "hybrid:%u", wait->spin_us);
	}
}
