// SPDX-License-Identifier: MIT
/*
 * knob-oci.c - the host side of the runc / crun dimensions, set up before
 * a cell and removed after it: a network namespace the cell's containers
 * join (netns = shared; a namespace bound to a file, as a pause container
 * holds one), a cpu-controller cgroup with a CFS quota the runtime starts
 * in (cpu-quota), a process of N spinning threads (corunner, any backend)
 * and cgroup2's favordynmods mount option. Impossible combinations are
 * skips with the reason.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "journal.h"
#include "log.h"
#include "oci-host.h"

#define CPU_HIERARCHY "/sys/fs/cgroup/cpu"

static struct {
	long netns_id, quota_id, corunner_id, mountopt_id;
	long v1_id[8];
	int nv1;
	pid_t corunner;
	char netns[PATH_MAX];
	char quota[PATH_MAX];
	char procs[PATH_MAX + 16];
} host;

const char *oci_host_netns(void)
{
	return host.netns_id > 0 ? host.netns : NULL;
}

const char *oci_host_quota_procs(void)
{
	return host.quota_id > 0 ? host.procs : NULL;
}

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

/* Undo entry *@id (if any) and clear it; a failure is said, not fatal. */
static void undo_entry(long *id)
{
	int ret = *id > 0 ? journal_undo(*id) : 0;

	if (ret)
		pr_warn("cannot undo journal entry %ld (%s): %s; cvmbench restore retries",
			*id, journal_path(), strerror(-ret));
	*id = 0;
}

/* Close entry *@id: the object was never made. */
static void forget_entry(long *id)
{
	if (*id > 0 && journal_forget(*id))
		pr_warn("cannot close journal entry %ld (%s)", *id, journal_path());
	*id = 0;
}

static int is_oci(const struct cell *c)
{
	return !strcmp(c->backend, "runc") || !strcmp(c->backend, "crun");
}

/* A child unshares its network namespace and binds it onto host.netns. */
static int netns_create(char *why, size_t len)
{
	char dir[PATH_MAX - 64];
	int status, fd;
	pid_t pid;

	oci_state_dir(dir, sizeof(dir));
	snprintf(host.netns, sizeof(host.netns), "%s/netns-%d", dir, (int)getpid());
	if (journal_first(&host.netns_id, "oci-netns", host.netns, why, len))
		return (int)host.netns_id;
	fd = open(host.netns, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		close(fd);
	pid = fork();
	if (pid == 0)
		_exit(unshare(CLONE_NEWNET) ||
		      mount("/proc/self/ns/net", host.netns, NULL, MS_BIND, NULL) ? errno : 0);
	if (fd < 0 || pid < 0 || waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status)) {
		snprintf(why, len, "cannot create a network namespace at %s: %s",
			 host.netns, strerror(fd < 0 || pid < 0 ? errno :
					      WIFEXITED(status) ? WEXITSTATUS(status) : EINTR));
		undo_entry(&host.netns_id);
		return KNOB_SKIP;
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

static int quota_create(const struct cell *c, char *why, size_t len)
{
	char path[PATH_MAX + 32], val[32];
	int ret;

	snprintf(host.quota, sizeof(host.quota), CPU_HIERARCHY "/cvmbench-quota-%d",
		 (int)getpid());
	snprintf(host.procs, sizeof(host.procs), "%s/cgroup.procs", host.quota);
	if (journal_first(&host.quota_id, "oci-cgroup", host.quota, why, len))
		return (int)host.quota_id;
	ret = mkdir(host.quota, 0755) ? -errno : 0;
	snprintf(path, sizeof(path), "%s/cpu.cfs_period_us", host.quota);
	ret = ret ?: write_str(path, "100000");
	snprintf(path, sizeof(path), "%s/cpu.cfs_quota_us", host.quota);
	snprintf(val, sizeof(val), "%d", 1000 * c->cpu_quota);
	ret = ret ?: write_str(path, val);
	if (ret) {
		snprintf(why, len, "cannot set up a CPU quota in %s (cgroup v1 cpu "
			 "controller): %s", host.quota, strerror(-ret));
		undo_entry(&host.quota_id);
		return KNOB_SKIP;
	}
	return 0;
}

static void *spin(void *arg)
{
	volatile unsigned long n = 0;

	(void)arg;
	for (;;)
		n++;
	return NULL;
}

static int corunner_start(const struct cell *c, char *why, size_t len)
{
	pthread_t t;
	int i;

	host.corunner = fork();
	if (host.corunner == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		signal(SIGINT, SIG_IGN);
		for (i = 1; i < c->corunner; i++)
			pthread_create(&t, NULL, spin, NULL);
		spin(NULL);
	}
	if (host.corunner < 0) {
		snprintf(why, len, "cannot start the co-runner: %s", strerror(errno));
		return -errno;
	}
	host.corunner_id = journal_process(host.corunner);
	if (host.corunner_id < 0) {
		snprintf(why, len, "cannot journal the co-runner (so it is ended): %s",
			 strerror((int)-host.corunner_id));
		kill(host.corunner, SIGKILL);
		waitpid(host.corunner, NULL, 0);
		return (int)host.corunner_id;
	}
	return 0;
}

/* The cgroup2 mount point and its options without favordynmods, ro, rw. */
static int cgroup2_mount(char *path, size_t plen, char *opts, size_t olen, int *favor)
{
	char line[1024], mp[PATH_MAX], fstype[64], super[512], *tok, *save = NULL;
	FILE *f = fopen("/proc/self/mountinfo", "re");
	int found = 0;

	while (f && !found && fgets(line, sizeof(line), f)) {
		char *dash = strstr(line, " - ");

		if (!dash || sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1 ||
		    sscanf(dash + 3, "%63s %*s %511s", fstype, super) != 2)
			continue;
		found = !strcmp(fstype, "cgroup2");
	}
	if (f)
		fclose(f);
	if (!found)
		return -ENOENT;
	snprintf(path, plen, "%s", mp);
	opts[0] = '\0';
	*favor = 0;
	for (tok = strtok_r(super, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
		if (!strcmp(tok, "favordynmods"))
			*favor = 1;
		else if (strcmp(tok, "rw") && strcmp(tok, "ro"))
			snprintf(opts + strlen(opts), olen - strlen(opts), "%s%s",
				 opts[0] ? "," : "", tok);
	}
	return 0;
}

static int favordynmods_set(const struct cell *c, char *why, size_t len)
{
	char path[PATH_MAX], opts[512], old[PATH_MAX + 600], now[600];
	int favor, want = !strcmp(c->favordynmods, "on");

	if (cgroup2_mount(path, sizeof(path), opts, sizeof(opts), &favor)) {
		snprintf(why, len, "favordynmods: no cgroup2 hierarchy is mounted");
		return KNOB_SKIP;
	}
	if (favor == want)
		return 0;
	snprintf(old, sizeof(old), "%s\t%s%s%s", path, opts,
		 favor && opts[0] ? "," : "", favor ? "favordynmods" : "");
	snprintf(now, sizeof(now), "%s%s%s", opts, want && opts[0] ? "," : "",
		 want ? "favordynmods" : "");
	if (journal_first(&host.mountopt_id, "oci-mountopt", old, why, len))
		return (int)host.mountopt_id;
	if (mount(NULL, path, NULL, MS_REMOUNT, now)) {
		snprintf(why, len, "favordynmods: cannot remount %s with '%s': %s", path,
			 now, strerror(errno));
		forget_entry(&host.mountopt_id);
		return KNOB_SKIP;
	}
	return 0;
}

/*
 * crun refuses a hybrid hierarchy (cgroup v1 plus a cgroup2 mount) while
 * cgroup2 holds controllers: mount each of those as a v1 hierarchy for the
 * cell (unmounted after it, they go back to cgroup2).
 */
static int hybrid_fix(const char *v2, char *why, size_t len)
{
	char path[PATH_MAX + 32], ctrls[256] = "", dir[PATH_MAX], *tok, *save = NULL;
	FILE *f;

	snprintf(path, sizeof(path), "%s/cgroup.controllers", v2);
	f = fopen(path, "re");
	if (!f || !access("/sys/fs/cgroup/cgroup.controllers", F_OK)) {
		if (f)
			fclose(f);
		return 0;         /* no cgroup2 controllers file, or pure cgroup2 */
	}
	if (!fgets(ctrls, sizeof(ctrls), f))
		ctrls[0] = '\0';
	fclose(f);
	for (tok = strtok_r(ctrls, " \n", &save); tok && host.nv1 < 8;
	     tok = strtok_r(NULL, " \n", &save)) {
		snprintf(dir, sizeof(dir), "/sys/fs/cgroup/%s", tok);
		if (journal_first(&host.v1_id[host.nv1], "oci-v1mount", dir, why, len))
			return (int)host.v1_id[host.nv1];
		if ((mkdir(dir, 0755) && errno != EEXIST) ||
		    mount("cgroup", dir, "cgroup", 0, tok)) {
			snprintf(why, len, "crun refuses cgroup v1 while cgroup2 holds %s, "
				 "and mounting %s as v1 at %s failed: %s", tok, tok, dir,
				 strerror(errno));
			forget_entry(&host.v1_id[host.nv1]);
			rmdir(dir);
			return KNOB_SKIP;
		}
		host.nv1++;
	}
	return 0;
}

static int crun_cgroups(const struct cell *c, char *why, size_t len)
{
	char path[PATH_MAX], opts[512];
	int favor;

	/* even with --cgroup-manager=disabled */
	if (strcmp(c->backend, "crun") ||
	    cgroup2_mount(path, sizeof(path), opts, sizeof(opts), &favor))
		return 0;
	return hybrid_fix(path, why, len);
}

static int oci_knob_check(const struct cell *c, char *why, size_t len)
{
	long ncpu = sysconf(_SC_NPROCESSORS_ONLN);

	if (!strcmp(c->backend, "runc") && !strcmp(c->cgroups, "off")) {
		snprintf(why, len, "cgroups = off: runc always puts a container in a "
			 "cgroup (crun can run without: --cgroup-manager=disabled)");
		return KNOB_SKIP;
	}
	if (c->cpus > ncpu) {
		snprintf(why, len, "cpus = %d: this machine has %ld online CPUs", c->cpus,
			 ncpu);
		return KNOB_SKIP;
	}
	return 0;
}

static int oci_knob_supported(const struct cell *c, char *why, size_t len)
{
	return !is_oci(c) || oci_knob_check(c, why, len) == 0;
}

static void oci_knob_restore(const struct cell *c);

static int oci_knob_apply(const struct cell *c, char *why, size_t len)
{
	int ret = 0;

	memset(&host, 0, sizeof(host));
	if (is_oci(c)) {
		ret = oci_knob_check(c, why, len);
		if (!ret)
			ret = crun_cgroups(c, why, len);
		if (!ret && !strcmp(c->netns, "shared"))
			ret = netns_create(why, len);
		if (!ret && c->cpu_quota < 100)
			ret = quota_create(c, why, len);
		if (!ret && strcmp(c->favordynmods, "default"))
			ret = favordynmods_set(c, why, len);
	}
	if (!ret && c->corunner > 0)
		ret = corunner_start(c, why, len);
	if (ret)
		oci_knob_restore(c);
	return ret;
}

static void oci_knob_restore(const struct cell *c)
{
	(void)c;
	if (host.corunner_id > 0) {
		kill(host.corunner, SIGKILL);
		waitpid(host.corunner, NULL, 0);
		forget_entry(&host.corunner_id);
	}
	undo_entry(&host.mountopt_id);
	while (host.nv1 > 0)
		undo_entry(&host.v1_id[--host.nv1]);
	undo_entry(&host.quota_id);
	undo_entry(&host.netns_id);
	memset(&host, 0, sizeof(host));
}

const struct knob_ops knob_oci = {
	.name = "oci",
	.supported = oci_knob_supported,
	.apply = oci_knob_apply,
	.restore = oci_knob_restore,
};
