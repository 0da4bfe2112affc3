// SPDX-License-Identifier: MIT
/*
 * oci-cell.c - what the starts of one runc / crun cell share, set up in
 * cell_begin() and removed in cell_end(): a network namespace the cell's
 * containers join (netns = shared; a namespace bound to a file, as a pause
 * container holds one), a cpu-controller cgroup with a CFS quota the
 * runtime starts in (cpu-quota), for crun on a hybrid hierarchy the v1
 * mounts of cgroup2's controllers, and (prepare) the cell's rootfs;
 * before the starts, the pools (cgroups, network namespaces: oci-pool.c)
 * and the prepared seccomp filter. Every
 * object is journalled before it is made ("oci-*" kinds, oci-objects.c),
 * so `cvmbench restore` removes it after a crash.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "journal.h"
#include "cgroup2-mount.h"
#include "log.h"
#include "oci-bundle.h"
#include "oci-host.h"
#include "oci-pool.h"
#include "pool-metrics.h"
#include "sink.h"

#define CPU_HIERARCHY "/sys/fs/cgroup/cpu"

/* Journal an object before creating it; 0, or -errno with the reason in @why. */
static int journal_first(long *id, const char *kind, const char *name, char *why,
			 size_t len)
{
	*id = journal_object(kind, name);
	if (*id > 0)
		return 0;
	snprintf(why, len, "cannot journal %s %s (so it is not created): %s", kind, name,
		 strerror((int)-*id));
	return (int)*id;
}

/* Close entry *@id: the object was never made. */
static void forget_entry(long *id)
{
	if (*id > 0 && journal_forget(*id))
		pr_warn("cannot close journal entry %ld (%s)", *id, journal_path());
	*id = 0;
}

/* The cell's shared network namespace, bound onto oc->netns. */
static int netns_create(struct oci_cell *oc, char *why, size_t len)
{
	char dir[PATH_MAX - 64];
	int ret;

	oci_state_dir(dir, sizeof(dir));
	snprintf(oc->netns, sizeof(oc->netns), "%s/netns-%d", dir, (int)getpid());
	if (journal_first(&oc->netns_id, "oci-netns", oc->netns, why, len))
		return (int)oc->netns_id;
	ret = oci_netns_bind(oc->netns);
	if (ret) {
		snprintf(why, len, "cannot create a network namespace at %s: %s",
			 oc->netns, strerror(-ret));
		journal_undo_or_warn(&oc->netns_id, oc->rt->binary);
		return BACKEND_SKIP;
	}
	return 0;
}

static int write_str(const char *path, const char *s)
{
	FILE *f = fopen(path, "we");
	int ret = 0;

	if (!f)
		return -errno;
	if (fputs(s, f) < 0)
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

static int quota_create(struct oci_cell *oc, const struct cell *c, char *why, size_t len)
{
	char path[PATH_MAX + 32], val[32];
	int ret;

	snprintf(oc->quota, sizeof(oc->quota), CPU_HIERARCHY "/cvmbench-quota-%d",
		 (int)getpid());
	snprintf(oc->procs, sizeof(oc->procs), "%s/cgroup.procs", oc->quota);
	if (journal_first(&oc->quota_id, "oci-cgroup", oc->quota, why, len))
		return (int)oc->quota_id;
	ret = mkdir(oc->quota, 0755) ? -errno : 0;
	snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", oc->quota);
	ret = ret ?: write_str(path, "100000");
	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", oc->quota);
	snprintf(val, sizeof(val), "%d", 1000 * c->cpu_quota);
	ret = ret ?: write_str(path, val);
	if (ret) {
		snprintf(why, len, "cannot set up a CPU quota in %s (cgroup v1 cpu "
			 "controller): %s", oc->quota, strerror(-ret));
		journal_undo_or_warn(&oc->quota_id, oc->rt->binary);
		return BACKEND_SKIP;
	}
	return 0;
}

/* The controllers cgroup2 holds on a hybrid hierarchy; "" when pure or none. */
static void hybrid_controllers(char *ctrls, size_t len)
{
	char path[PATH_MAX + 32], mp[PATH_MAX], opts[512];
	FILE *f;
	int favor;

	ctrls[0] = '\0';
	if (cgroup2_mount(mp, sizeof(mp), opts, sizeof(opts), &favor))
		return;
	snprintf(path, sizeof(path), "%s/cgroup.controllers", mp);
	f = fopen(path, "re");
	if (!f || !access("/sys/fs/cgroup/cgroup.controllers", F_OK)) {
		if (f)
			fclose(f);
		return;         /* no cgroup2 controllers file, or pure cgroup2 */
	}
	if (!fgets(ctrls, (int)len, f))
		ctrls[0] = '\0';
	fclose(f);
}

/*
 * crun refuses a hybrid hierarchy (cgroup v1 plus a cgroup2 mount) while
 * cgroup2 holds controllers, even with --cgroup-manager=disabled: mount
 * each of those as a v1 hierarchy for the cell (unmounted after it, they
 * go back to cgroup2).
 */
static int hybrid_fix(struct oci_cell *oc, char *why, size_t len)
{
	char ctrls[256], dir[PATH_MAX], *tok, *save = NULL;

	hybrid_controllers(ctrls, sizeof(ctrls));
	for (tok = strtok_r(ctrls, " \n", &save); tok && oc->nv1 < 8;
	     tok = strtok_r(NULL, " \n", &save)) {
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup/%s", tok);
		if (journal_first(&oc->v1_id[oc->nv1], "oci-v1mount", dir, why, len))
			return (int)oc->v1_id[oc->nv1];
		if ((mkdir(dir, 0755) && errno != EEXIST) ||
		    mount("cgroup", dir, "cgroup", 0, tok)) {
			snprintf(why, len, "crun refuses cgroup v1 while cgroup2 holds %s, "
				 "and mounting %s as v1 at %s failed: %s", tok, tok, dir,
				 strerror(errno));
			forget_entry(&oc->v1_id[oc->nv1]);
			rmdir(dir);
			return BACKEND_SKIP;
		}
		oc->nv1++;
	}
	return 0;
}

int oci_cell_setup(struct oci_cell *oc, const struct cell *c, char *why, size_t len)
{
	int ret = 0;

	if (oc->rt->pure_cgroups)
		ret = hybrid_fix(oc, why, len);
	if (!ret && !strcmp(c->netns, "shared"))
		ret = netns_create(oc, why, len);
	if (!ret && c->cpu_quota < 100)
		ret = quota_create(oc, c, why, len);
	if (ret)
		oci_cell_teardown(oc);
	return ret;
}

int oci_cell_rootfs(struct oci_cell *oc, const struct cell *c,
		    const struct backend_env *env, char *err, size_t errlen)
{
	static unsigned int n;
	char dir[PATH_MAX - 64];
	int ret;

	oci_state_dir(dir, sizeof(dir));
	snprintf(oc->rootfs, sizeof(oc->rootfs), "%s/oci", dir);
	mkdir(oc->rootfs, 0700);
	snprintf(oc->rootfs, sizeof(oc->rootfs), "%s/oci/rootfs-%d-%u", dir,
		 (int)getpid(), n++);
	if (journal_first(&oc->rootfs_id, "oci-rootfs", oc->rootfs, err, errlen))
		return (int)oc->rootfs_id;
	ret = oci_rootfs_build(c, env, oc->rootfs, err, errlen);
	if (ret)
		forget_entry(&oc->rootfs_id);
	return ret;
}

int oci_cell_prepared(struct oci_cell *oc, const struct cell *c, char *why, size_t len)
{
	long long ns;
	int ret;

	if (!strcmp(c->seccomp, "prepared")) {
		ret = oci_seccomp_prepare(&oc->seccomp_bpf, &ns, why, len);
		if (ret)
			return ret == -ENOSYS ? BACKEND_SKIP : ret;
		if (oc->sink)
			sink_metric(oc->sink, SECCOMP_METRIC_PREPARE, (double)ns, "ns");
	}
	if (c->cgroup_pool > 0 && strcmp(c->cgroups, "off")) {
		oc->pool = oci_pool_open(&oci_pool_cgroups, c->cgroup_pool, c->pool_low,
					 c->pool_refill, why, len);
		if (!oc->pool)
			return -EIO;
	}
	if (c->netns_pool > 0) {
		oc->netns_pool = oci_pool_open(&oci_pool_netns, c->netns_pool, c->pool_low,
					       c->pool_refill, why, len);
		if (!oc->netns_pool)
			return -EIO;
	}
	return 0;
}

void oci_cell_teardown(struct oci_cell *oc)
{
	const char *who = oc->rt->binary;

	oci_pool_close(oc->pool, oc->sink);
	oc->pool = NULL;
	oci_pool_close(oc->netns_pool, oc->sink);
	oc->netns_pool = NULL;
	free(oc->seccomp_bpf);
	oc->seccomp_bpf = NULL;
	journal_undo_or_warn(&oc->rootfs_id, who);
	journal_undo_or_warn(&oc->svc_dir_id, who);
	journal_undo_each_or_warn(oc->v1_id, (size_t)oc->nv1, who);
	oc->nv1 = 0;
	journal_undo_or_warn(&oc->quota_id, who);
	journal_undo_or_warn(&oc->netns_id, who);
}
