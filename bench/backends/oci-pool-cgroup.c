// SPDX-License-Identifier: MIT
/*
 * oci-pool-cgroup.c - the slots of a cgroup pool (`cgroup-pool = N`;
 * the pool itself is oci-pool.c): a slot is a directory
 * cvmbench-pool-PID-P-N under the root of every mounted cgroup hierarchy
 * (each directory of /sys/fs/cgroup with a cgroup.procs, or
 * /sys/fs/cgroup itself on pure cgroup v2), with a v1 cpuset's cpus and
 * mems copied from its parent, as the runtimes would. A start whose
 * config.json names a slot as its cgroupsPath finds every directory
 * there: the runtime's mkdir returns EEXIST and it only writes limits and
 * attaches. Both runtimes remove the container's cgroup when they delete
 * it, so a slot usually comes back spent; the refill makes the pool whole.
 * An empty pool's start falls back to a cgroup the runtime makes itself.
 * Journal kind oci-pool: the undo removes every directory with the prefix.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "oci-host.h"
#include "oci-pool.h"
#include "pool-metrics.h"

#define CGROUP_ROOT "/sys/fs/cgroup"
#define MAX_HIER 16
#define STEM "cvmbench-pool"

struct hierarchies {
	char dir[MAX_HIER][PATH_MAX / 4];
	int n;
};

/* The roots of the mounted hierarchies into @h. */
static int hierarchies_find(struct hierarchies *h)
{
	char path[PATH_MAX];
	struct dirent *e;
	DIR *d;

	if (!access(CGROUP_ROOT "/cgroup.procs", F_OK)) {
		snprintf(h->dir[h->n++], sizeof(h->dir[0]), "%s", CGROUP_ROOT);
		return 0;
	}
	d = opendir(CGROUP_ROOT);
	while (d && (e = readdir(d)) && h->n < MAX_HIER) {
		snprintf(path, sizeof(path), CGROUP_ROOT "/%s/cgroup.procs", e->d_name);
		if (e->d_name[0] != '.' && !access(path, F_OK))
			snprintf(h->dir[h->n++], sizeof(h->dir[0]), CGROUP_ROOT "/%s",
				 e->d_name);
	}
	if (d)
		closedir(d);
	return h->n ? 0 : -ENOENT;
}

static int cgroup_setup(void **priv, char *why, size_t len)
{
	struct hierarchies *h = calloc(1, sizeof(*h));

	*priv = h;
	if (!h) {
		snprintf(why, len, "cgroup pool: out of memory");
		return -ENOMEM;
	}
	if (hierarchies_find(h)) {
		snprintf(why, len, "cgroup pool: no cgroup hierarchy under %s", CGROUP_ROOT);
		return -ENOENT;
	}
	return 0;
}

/* Copy cpuset file @file of hierarchy @h into its child @dir (v1 cpuset). */
static int cpuset_copy(const char *h, const char *dir, const char *file)
{
	char path[PATH_MAX], val[4096];
	ssize_t n;
	int fd, ret = 0;

	snprintf(path, sizeof(path), "%s/%s", h, file);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -errno;  /* not a v1 cpuset hierarchy */
	n = read(fd, val, sizeof(val));
	close(fd);
	snprintf(path, sizeof(path), "%s/%s", dir, file);
	fd = n > 0 ? open(path, O_WRONLY | O_CLOEXEC) : -1;
	if (fd < 0 || write(fd, val, (size_t)n) != n)
		ret = -EIO;
	if (fd >= 0)
		close(fd);
	return ret;
}

/* Make slot @name in every hierarchy; 0 or -errno (what was made removed). */
static int cgroup_make(void *priv, const char *name, long n, long long *step_ns)
{
	const struct hierarchies *h = priv;
	char dir[PATH_MAX];
	int i, ret = 0;

	(void)n;
	(void)step_ns;
	for (i = 0; i < h->n && !ret; i++) {
		snprintf(dir, sizeof(dir), "%s/%s", h->dir[i], name);
		ret = mkdir(dir, 0755) ? -errno : 0;
		ret = ret ?: cpuset_copy(h->dir[i], dir, "cpuset.cpus");
		ret = ret ?: cpuset_copy(h->dir[i], dir, "cpuset.mems");
	}
	if (ret)
		oci_cgroups_remove_named(name);
	return ret;
}

/* Is slot @name whole (in every hierarchy) and empty? */
static int cgroup_reusable(void *priv, const char *name)
{
	const struct hierarchies *h = priv;
	char path[PATH_MAX], c;
	int i, fd, empty = 1;

	for (i = 0; i < h->n && empty; i++) {
		snprintf(path, sizeof(path), "%s/%s/cgroup.procs", h->dir[i], name);
		fd = open(path, O_RDONLY | O_CLOEXEC);
		empty = fd >= 0 && read(fd, &c, 1) == 0;
		if (fd >= 0)
			close(fd);
	}
	return empty;
}

static void cgroup_remove(void *priv, const char *name)
{
	(void)priv;
	oci_cgroups_remove_named(name);
}

static int cgroup_remove_in(const char *dir, const char *name)
{
	char path[PATH_MAX];

	snprintf(path, sizeof(path), "%s/%s", dir, name);
	return oci_cgroup_remove(path);
}

/* The undo of kind oci-pool: every directory named PREFIX* in each hierarchy. */
static int pool_undo(const char *prefix)
{
	struct hierarchies h = { .n = 0 };
	int i, ret = 0;

	if (hierarchies_find(&h))
		return 0;
	for (i = 0; i < h.n; i++)
		ret = oci_pool_undo_dir(prefix, STEM, h.dir[i], cgroup_remove_in) ?: ret;
	return ret;
}

const struct oci_pool_kind oci_pool_cgroups = {
	.name = POOL_KIND_CGROUP,
	.metric = POOL_PREFIX_CGROUP,
	.journal = "oci-pool",
	.stem = STEM,
	.fallback_makes = 0,
	.setup = cgroup_setup,
	.make = cgroup_make,
	.reusable = cgroup_reusable,
	.remove = cgroup_remove,
};

static const struct journal_kind kind_pool = { "oci-pool", pool_undo };
JOURNAL_KIND_REGISTER(kind_pool)
