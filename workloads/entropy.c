// SPDX-License-Identifier: MIT
/*
 * entropy.c - a buffered getrandom() (entropy.h): one system call per
 * ENTROPY_BUF bytes, the way language runtimes buffer their random pools.
 */
#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "entropy.h"

#define ENTROPY_BUF 256

static unsigned char pool[ENTROPY_BUF];
static size_t left;          /* unread bytes at the end of pool */

static int refill(void)
{
	size_t got = 0;

	while (got < sizeof(pool)) {
		ssize_t n = getrandom(pool + got, sizeof(pool) - got, 0);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
	}
	left = sizeof(pool);
	return 0;
}

int entropy_bytes(void *buf, size_t len)
{
	unsigned char *p = buf;
	int err;

	while (len) {
		size_t take;

		if (!left && (err = refill()))
			return err;
		take = len < left ? len : left;
		memcpy(p, pool + sizeof(pool) - left, take);
		left -= take;
		p += take;
		len -= take;
	}
	return 0;
}

int entropy_reseed(void)
{
	left = 0;
	return refill();
}
