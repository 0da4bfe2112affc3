/* SPDX-License-Identifier: MIT */
/*
 * pool-wait.h - how the pool's idle workers wait (pool.h): spin, block, or
 * spin a while and then block. Apart from the pool so that cvmbench checks
 * a config's wait key without linking the pool.
 */
#ifndef CVMFN_POOL_WAIT_H
#define CVMFN_POOL_WAIT_H

#include <stddef.h>

enum pool_wait_mode { POOL_WAIT_SPIN, POOL_WAIT_BLOCK, POOL_WAIT_HYBRID };

/* Default spin time of the hybrid mode, in microseconds (see docs/workloads.md). */
#define POOL_DEFAULT_SPIN_US 200

struct pool_wait {
	enum pool_wait_mode mode;
	unsigned int spin_us;     /* hybrid: spin this long, then block */
};

/** pool_wait_parse() - "spin", "block" or "hybrid[:MICROSECONDS]". 0 or -EINVAL. */
int pool_wait_parse(const char *s, struct pool_wait *wait);
/** pool_wait_format() - the inverse of pool_wait_parse(). */
void pool_wait_format(const struct pool_wait *wait, char *buf, size_t len);

#endif
