/* SPDX-License-Identifier: MIT */
/*
 * oci-pool.h - a pool of cgroups made before the starts that use them
 * (AFaaS's pooled cgroups; the `cgroup-pool`, `pool-low` and `pool-refill`
 * keys): each start takes one (its config.json's cgroupsPath names it),
 * gives it back if the runtime left it empty, and a refill thread makes
 * new ones beside the measured starts, every event timed and stored
 * (table oci_pool_event). The whole pool is one journalled object.
 */
#ifndef CVMBENCH_OCI_POOL_H
#define CVMBENCH_OCI_POOL_H

#include <stddef.h>

struct oci_pool;
struct sink;

/* A taken cgroup's name (one directory under each hierarchy's root). */
#define OCI_POOL_NAME_MAX 64

/**
 * oci_pool_open() - journal a pool of @size cgroups, make them all, and
 * start its refill thread: when @low or fewer are free it makes new ones,
 * @rate per second, until the pool is full again (@rate 0: never).
 * Returns the pool, or NULL with the reason in @why (nothing left).
 */
struct oci_pool *oci_pool_open(int size, int low, double rate, char *why, size_t len);
/**
 * oci_pool_take() - a free cgroup's name into @name (the pool's take
 * event), or -EAGAIN when the pool is drained (a fallback event: the
 * start makes its own cgroup, as without a pool).
 */
int oci_pool_take(struct oci_pool *p, char *name, size_t len);
/**
 * oci_pool_give() - after the container of @name is gone: back into the
 * pool if the runtime left it in every hierarchy and empty (recycled),
 * else what is left of it removed (spent).
 */
void oci_pool_give(struct oci_pool *p, const char *name);
/**
 * oci_pool_close() - stop the refill, store the pool's events and totals
 * through @s (may be NULL), remove every cgroup of the pool, close its
 * journal entry and free @p.
 */
void oci_pool_close(struct oci_pool *p, struct sink *s);

#endif
