/* SPDX-License-Identifier: MIT */
/*
 * oci-pool.h - a pool of kernel objects made before the runc / crun starts
 * that use them (AFaaS's pools): cgroups (`cgroup-pool`, oci-pool-cgroup.c)
 * and network namespaces with a veth pair each (`netns-pool`,
 * oci-pool-netns.c), both with the `pool-low` mark and the `pool-refill`
 * rate. Each start takes a slot, gives it back after its container is gone
 * (recycled if still whole, else removed), and a refill thread makes new
 * ones beside the measured starts; every event is timed and stored (table
 * oci_pool_event). A whole pool is one journalled object (its name prefix).
 */
#ifndef CVMBENCH_OCI_POOL_H
#define CVMBENCH_OCI_POOL_H

#include <stddef.h>

struct oci_pool;
struct sink;

/* A slot's name (a cgroup directory, a namespace under /run/netns). */
#define OCI_POOL_NAME_MAX 64

/*
 * struct oci_pool_kind - what a pool holds. Slot N of a pool is called
 * PREFIX N, PREFIX = "STEM-PID-SEQ-"; N is unique in the process.
 */
struct oci_pool_kind {
	const char *name;         /* "cgroup" | "netns": oci_pool_event.pool, messages */
	const char *metric;       /* the prefix of the cell's metrics (pool-metrics.h) */
	const char *journal;      /* its journal kind: the undo removes PREFIX* */
	const char *stem;
	int fallback_makes;       /* a take from an empty pool makes a slot on the spot */
	/* find what the slots need (into *@priv, freed by the pool): 0 or -errno + @why */
	int (*setup)(void **priv, char *why, size_t len);
	/* make slot @name (number @n): 0 or -errno, nothing left; @step_ns: its veth */
	int (*make)(void *priv, const char *name, long n, long long *step_ns);
	/* is slot @name whole and unused after its container? */
	int (*reusable)(void *priv, const char *name);
	/* remove slot @name, whatever is left of it */
	void (*remove)(void *priv, const char *name);
};

extern const struct oci_pool_kind oci_pool_cgroups;   /* oci-pool-cgroup.c */
extern const struct oci_pool_kind oci_pool_netns;     /* oci-pool-netns.c */

/**
 * oci_pool_open() - journal a pool of @size slots of @kind, make them all,
 * and start its refill thread: when @low or fewer are free it makes new
 * ones, @rate per second, until the pool is full again (@rate 0: never).
 * Returns the pool, or NULL with the reason in @why (nothing left).
 */
struct oci_pool *oci_pool_open(const struct oci_pool_kind *kind, int size, int low,
			       double rate, char *why, size_t len);
/**
 * oci_pool_take() - a free slot's name into @name (the pool's take event).
 * An empty pool is a fallback event: -EAGAIN (the start does without, the
 * runtime makes its own: cgroups), or, for a kind that makes its fallback,
 * a slot made on the spot, its cost stored with the event (0).
 */
int oci_pool_take(struct oci_pool *p, char *name, size_t len);
/**
 * oci_pool_give() - after the container of @name is gone: back into the
 * pool if it is whole and the pool not full (recycled), else removed (spent).
 */
void oci_pool_give(struct oci_pool *p, const char *name);
/**
 * oci_pool_close() - stop the refill, store the pool's events and totals
 * through @s (may be NULL), remove every slot of the pool, close its
 * journal entry and free @p.
 */
void oci_pool_close(struct oci_pool *p, struct sink *s);

/** oci_ip_find() - ip (iproute2) into @out; -ENOENT when not installed. */
int oci_ip_find(char *out, size_t len);
/** oci_netns_pool_path() - the file a netns slot @name is bound onto. 0 or -errno. */
int oci_netns_pool_path(const char *name, char *buf, size_t len);

/**
 * oci_pool_undo_dir() - the journal undo of a pool in one directory: if
 * @prefix is "@stem-..." without a '/', @remove(@dir, NAME) of each entry
 * NAME of @dir that starts with @prefix. 0, the first -errno, or -EINVAL
 * for a prefix that is not a pool's.
 */
int oci_pool_undo_dir(const char *prefix, const char *stem, const char *dir,
		      int (*remove)(const char *dir, const char *name));

#endif
